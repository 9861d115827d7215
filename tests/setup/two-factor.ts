import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import { twoFactor, user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { cookiesFrom, createConfirmedUser, formRequest, run } from './requests'

const profile = (fields: Record<string, string>, cookie: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context: { cspNonce: 'test' } } as any))

const otpOf = (totpURI: string) => createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!))

const PERIOD_MS = 30_000
const periodNow = () => Math.floor(Date.now() / PERIOD_MS)

/** The code of the period `periods` from now (30 s each; the server accepts one either side of its own). */
export const codeAt = (totpURI: string, periods: number) => otpOf(totpURI).hotp(periodNow() + periods)

/**
 * The member's next code that the server will take, as their authenticator app would show it: each
 * code works once, so after one was accepted (the one that turned two-factor on) this is the next
 * period's, which the server already accepts; when that one is spent too, it waits for the clock.
 */
export async function codeOf(totpURI: string) {
  const email = decodeURIComponent(new URL(totpURI).pathname).split(':').pop()!
  const [accepted] = await getDb()
    .select({ last: twoFactor.lastTotpStep })
    .from(twoFactor)
    .innerJoin(user, eq(user.id, twoFactor.userId))
    .where(eq(user.email, email))
  const step = Math.max(periodNow(), (accepted?.last ?? 0) + 1)
  if (step > periodNow() + 1) await new Promise((resolve) => setTimeout(resolve, (step - 1) * PERIOD_MS - Date.now() + 50))
  return otpOf(totpURI).hotp(step)
}

/** A member who turned two-factor sign-in on (through /perfil): their cookie (renewed), password, secret and recovery codes. */
export async function enrolled(member?: Awaited<ReturnType<typeof createConfirmedUser>>) {
  member ??= await createConfirmedUser()
  const started = await profile({ intent: 'two-factor-enable', password: member.password }, member.cookie)
  expect(started.status).toBe(200)
  const { totpURI, qr, backupCodes } = started.data.enrolment as { totpURI: string; qr: string; backupCodes: string }
  const confirmingCode = await codeOf(totpURI)
  const confirmed = await profile({ intent: 'two-factor-confirm', code: confirmingCode, totpURI, qr, backupCodes }, member.cookie)
  expect(confirmed.status).toBe(302)
  const cookie = cookiesFrom(confirmed.headers, member.cookie)
  return { ...member, cookie, totpURI, backupCodes: backupCodes.split(' '), confirmed, confirmingCode }
}
