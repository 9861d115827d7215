import { passkey as passkeyPlugin } from '@better-auth/passkey'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError } from 'better-auth/api'
import { hashPassword, verifyPassword } from 'better-auth/crypto'
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins'
import { and, eq, gt, like, sql } from 'drizzle-orm'
import { createElement } from 'react'
import {
  account,
  accountRelations,
  passkey,
  rateLimit,
  session,
  sessionRelations,
  twoFactor,
  user,
  userRelations,
  verification,
} from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { CLIENT_IP_HEADER } from '~/platform/http/client-ip'
import { logger } from '~/platform/logger.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { ConfirmEmail } from './emails/confirm-email'
import { ResetPasswordEmail } from './emails/reset-password'
import { onConfirmedSignIn } from './profile.server'
import { profiles } from './schema'
import { mailPasswordChanged, noteSignIn } from './security.server'
import { totpOnce } from './totp-once.server'

/*
 * better-auth's configuration, assembled here because its hooks are the account feature's: the
 * confirmation and reset e-mails, the profile after the first sign-in, the new-device and password
 * e-mails, and refusing an expelled member. Everything else reads the session through `getAuth()`.
 */

export const RESET_PASSWORD_TOKEN_SECONDS = 60 * 60

/**
 * How passwords are hashed: better-auth's own scrypt. The unit tests replace it with a cheap
 * one (tests/setup/env.ts), because hundreds of test accounts would otherwise spend most of the
 * suite's time hashing; the browser journeys run the real one.
 */
export const passwordHashing = { hash: hashPassword, verify: verifyPassword }

function createAuth() {
  const env = getEnv()
  return betterAuth({
    appName: 'Círculo CEO',
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    secret: env.AUTH_SECRET,
    database: drizzleAdapter(getDb(), {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit, twoFactor, passkey, sessionRelations, userRelations, accountRelations },
    }),
    user: {
      // Our /perfil form asks for the password first (security.server.ts).
      changeEmail: { enabled: true },
      additionalFields: {
        firstName: { type: 'string', required: false, fieldName: 'firstName' },
        lastName: { type: 'string', required: false, fieldName: 'lastName' },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      // The spec's floor for a new password on reset is 6; sign-up's 8 is checked by our form schema.
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: false,
      password: { hash: (password) => passwordHashing.hash(password), verify: (input) => passwordHashing.verify(input) },
      revokeSessionsOnPasswordReset: true,
      // A new password voids every other reset link of the account, used or not, and its owner hears of it.
      async onPasswordReset({ user }) {
        await revokePasswordResetLinks(user.id)
        await mailPasswordChanged(user.id)
      },
      resetPasswordTokenExpiresIn: RESET_PASSWORD_TOKEN_SECONDS,
      async sendResetPassword({ user, token }) {
        // Our own page reads the token; `type=recovery` is what the spec's page expects.
        const url = `${env.APP_URL}/reset-password?type=recovery&token=${encodeURIComponent(token)}`
        await enqueueMail({
          to: user.email,
          subject: 'Restablece tu contraseña',
          email: createElement(ResetPasswordEmail, { firstName: firstNameOf(user), url }),
        })
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user: recipient, url }) {
        // A change of address (/perfil) is sent to the new address while the account still has the old one.
        const [stored] = await getDb().select({ email: user.email }).from(user).where(eq(user.id, recipient.id))
        const changing = Boolean(stored) && stored!.email !== recipient.email
        await enqueueMail({
          to: recipient.email,
          subject: changing ? 'Confirma tu nuevo email' : 'Confirma tu email',
          email: createElement(ConfirmEmail, { firstName: firstNameOf(recipient), url, changing }),
        })
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // Set by the session hook below; no default here, so a renewed session keeps its own.
      additionalFields: { twoFactorPassed: { type: 'boolean', required: false, input: false } },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: env.APP_URL.startsWith('https://'),
      // The session and its user in one statement on every request (relations in ./schema).
      database: { generateId: () => crypto.randomUUID(), joins: true },
    },
    databaseHooks: {
      session: {
        create: {
          // An expelled member (issue 28) opens no session, whichever way in they try.
          async before(session, context) {
            const [account] = await getDb()
              .select({ bannedAt: profiles.bannedAt, twoFactorEnabled: user.twoFactorEnabled })
              .from(user)
              .leftJoin(profiles, eq(profiles.userId, user.id))
              .where(eq(user.id, session.userId))
            if (account?.bannedAt) throw new APIError('FORBIDDEN', { code: 'ACCOUNT_BANNED', message: 'Account banned' })
            return {
              data: { ...session, twoFactorPassed: passesSecondFactor(session.userId, context, Boolean(account?.twoFactorEnabled)) },
            }
          },
          async after(created) {
            // Covers every way in: the sign-in form and the sign-in after e-mail confirmation.
            try {
              await onConfirmedSignIn(created.userId)
            } catch (error) {
              logger.error({ err: error, userId: created.userId }, 'Profile sync after sign-in failed')
            }
            // A browser and system not seen before is e-mailed to the member (issue 27).
            try {
              await noteSignIn(created)
            } catch (error) {
              logger.error({ err: error, userId: created.userId }, 'New-device check after sign-in failed')
            }
          },
        },
      },
    },
    // Sign-in asks for a code from an authenticator app (or a recovery code) once a member turns it
    // on in /perfil (decisions/0026). Our own forms call it through auth.api.
    // Passkeys: a second way to sign in, bound to APP_URL's host and origin (decisions/0026).
    plugins: [
      twoFactorPlugin({ issuer: 'Círculo CEO', backupCodeOptions: { amount: 10, length: 10 } }),
      totpOnce(),
      passkeyPlugin({ rpID: new URL(env.APP_URL).hostname, rpName: 'Círculo CEO', origin: new URL(env.APP_URL).origin }),
    ],
    logger: {
      log(level, message, ...args) {
        logger[level]({ args }, `[auth] ${message}`)
      },
    },
  })
}

/** What the session hook is told of the request that makes the session (better-auth's endpoint context). */
type EndpointContext = { path?: string; body?: unknown; context: { session?: { session: object } | null } } | null

/**
 * Whether the sign-in a new session records passed the second factor (decisions/0026): the code
 * step or a recovery code, the code that turned two-factor on (it renews the session), a passkey
 * whose authenticator verified the person (fingerprint, face or PIN: the UV flag of the data
 * better-auth has just checked the signature of), or a password sign-in of a member with
 * two-factor on (that session survives only on a browser trusted at an earlier code step;
 * otherwise better-auth deletes it at once and asks for the code). A session renewed for the
 * same member (a password change, two-factor turned off) keeps what the one it replaces had.
 */
function passesSecondFactor(userId: string, context: EndpointContext, twoFactorEnabled: boolean) {
  const current = context?.context.session?.session as { userId: string; twoFactorPassed?: boolean } | undefined
  if (current?.userId === userId && current.twoFactorPassed) return true
  switch (context?.path) {
    case '/two-factor/verify-totp':
    case '/two-factor/verify-backup-code':
      return true
    case '/passkey/verify-authentication': {
      const data = (context.body as { response?: { response?: { authenticatorData?: unknown } } }).response?.response?.authenticatorData
      return typeof data === 'string' && (Buffer.from(data, 'base64url')[32]! & 0x04) !== 0
    }
    case '/sign-in/email':
      return twoFactorEnabled
    default:
      return false
  }
}

function firstNameOf(user: { name: string } & Record<string, unknown>) {
  return typeof user.firstName === 'string' && user.firstName ? user.firstName : user.name || null
}

export type Auth = ReturnType<typeof createAuth>

let auth: { db: ReturnType<typeof getDb>; instance: Auth } | undefined

/** Created on first use, after start-up has opened the database (again if another was opened since). */
export function getAuth(): Auth {
  const db = getDb()
  if (auth?.db !== db) auth = { db, instance: createAuth() }
  return auth.instance
}

/** Whether an account uses this e-mail (sign-up tells a returning member to sign in instead). */
export async function accountExists(email: string) {
  const [row] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email))
  return Boolean(row)
}

/** A reset link that can still be used: known, not used, not expired (better-auth's verification row). */
export async function isPasswordResetTokenValid(token: string) {
  if (token.length > 512) return false
  const [row] = await getDb()
    .select({ id: verification.id })
    .from(verification)
    .where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, sql`now()`)))
  return Boolean(row)
}

/** After the password changes (reset or from /perfil), links asked for before it stop working. */
export async function revokePasswordResetLinks(userId: string) {
  await getDb()
    .delete(verification)
    .where(and(like(verification.identifier, 'reset-password:%'), eq(verification.value, userId)))
}
