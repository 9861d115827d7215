import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { createElement } from 'react'
import { getDb } from '~/db/client.server'
import { account, rateLimit, session, user, verification } from '~/db/schema'
import { ConfirmEmail } from '~/emails/confirm-email'
import { ResetPasswordEmail } from '~/emails/reset-password'
import { onConfirmedSignIn } from '~/models/profile.server'
import { getEnv } from './env.server'
import { logger } from './logger.server'
import { enqueueMail } from './mail.server'

/** Set by the Express server from the socket (or a trusted proxy), replacing any client value. */
export const CLIENT_IP_HEADER = 'x-app-client-ip'

export const RESET_PASSWORD_TOKEN_SECONDS = 60 * 60

function createAuth() {
  const env = getEnv()
  return betterAuth({
    appName: 'Círculo CEO',
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    secret: env.AUTH_SECRET,
    database: drizzleAdapter(getDb(), { provider: 'pg', schema: { user, session, account, verification, rateLimit } }),
    user: {
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
      revokeSessionsOnPasswordReset: true,
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
      async sendVerificationEmail({ user, url }) {
        await enqueueMail({
          to: user.email,
          subject: 'Confirma tu email',
          email: createElement(ConfirmEmail, { firstName: firstNameOf(user), url }),
        })
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
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
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      session: {
        create: {
          async after(created) {
            // Covers every way in: the sign-in form and the sign-in after e-mail confirmation.
            try {
              await onConfirmedSignIn(created.userId)
            } catch (error) {
              logger.error({ err: error, userId: created.userId }, 'Profile sync after sign-in failed')
            }
          },
        },
      },
    },
    logger: {
      log(level, message, ...args) {
        logger[level]({ args }, `[auth] ${message}`)
      },
    },
  })
}

function firstNameOf(user: { name: string } & Record<string, unknown>) {
  return typeof user.firstName === 'string' && user.firstName ? user.firstName : user.name || null
}

export type Auth = ReturnType<typeof createAuth>

let auth: Auth | undefined

/** Created on first use, after start-up has opened the database. */
export function getAuth(): Auth {
  auth ??= createAuth()
  return auth
}
