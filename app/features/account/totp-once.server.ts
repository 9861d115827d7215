import { createOTP } from '@better-auth/utils/otp'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { constantTimeEqual, symmetricDecrypt } from 'better-auth/crypto'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { twoFactor } from '~/platform/auth/schema'

/** better-auth's answer when a code of an authenticator app is sent a second time. */
export const TOTP_CODE_USED = 'TOTP_CODE_USED'

const PERIOD_MS = 30_000

/**
 * A code from the authenticator app works once (decisions/0026). better-auth accepts any code of
 * the current 30-second period or of the one either side, as often as it is sent, so a code read
 * over a shoulder or relayed with the password would open a second session. Before better-auth
 * checks one (sign-in's code step, the code that turns two-factor on, the code that confirms a
 * change in /perfil: all its verify-totp), the member's last accepted period moves to the code's
 * in one conditional update; a code of that period or an earlier one is refused. Of two requests
 * with the same code, the second waits on the first's row lock and then finds the condition false.
 */
export const totpOnce = () =>
  ({
    id: 'totp-once',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/two-factor/verify-totp',
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code
            const userId = await memberOf(ctx)
            if (typeof code !== 'string' || !userId) return
            const [row] = await getDb().select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId))
            if (!row) return
            const step = await periodOf(code, await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret }))
            // A wrong code is better-auth's to refuse and count toward its lock.
            if (step === undefined) return
            const claimed = await getDb()
              .update(twoFactor)
              .set({ lastTotpStep: step })
              .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastTotpStep), lt(twoFactor.lastTotpStep, step))))
              .returning({ id: twoFactor.id })
            if (claimed.length === 0) throw new APIError('BAD_REQUEST', { code: TOTP_CODE_USED, message: 'This code was already used' })
          }),
        },
      ],
    },
  }) satisfies BetterAuthPlugin

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]

/** Whose code it is, as better-auth's verify-totp decides: the signed-in member, else the sign-in's challenge cookie. */
async function memberOf(ctx: HookContext) {
  const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret)
  const signedIn = token ? await ctx.context.internalAdapter.findSession(token) : null
  if (signedIn && signedIn.session.expiresAt > new Date()) return signedIn.user.id
  const challenge = await ctx.getSignedCookie(ctx.context.createAuthCookie('two_factor').name, ctx.context.secret)
  return challenge ? (await ctx.context.internalAdapter.findVerificationValue(challenge))?.value : undefined
}

/** The period whose code this is, among those better-auth accepts now (the latest, should two share a code). */
async function periodOf(code: string, secret: string) {
  const otp = createOTP(secret)
  const now = Math.floor(Date.now() / PERIOD_MS)
  for (const step of [now + 1, now, now - 1]) if (constantTimeEqual(code, await otp.hotp(step))) return step
  return undefined
}
