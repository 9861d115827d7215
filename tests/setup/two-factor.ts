import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { expect } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import { cookiesFrom, createConfirmedUser, formRequest, run } from './requests'

const profile = (fields: Record<string, string>, cookie: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context: { cspNonce: 'test' } } as any))

/** The app's current code, as the member's authenticator app would show it. */
export const codeOf = (totpURI: string) => createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!)).totp()

/** A member who turned two-factor sign-in on (through /perfil): their cookie (renewed), password, secret and recovery codes. */
export async function enrolled(member?: Awaited<ReturnType<typeof createConfirmedUser>>) {
  member ??= await createConfirmedUser()
  const started = await profile({ intent: 'two-factor-enable', password: member.password }, member.cookie)
  expect(started.status).toBe(200)
  const { totpURI, qr, backupCodes } = started.data.enrolment as { totpURI: string; qr: string; backupCodes: string }
  const confirmed = await profile({ intent: 'two-factor-confirm', code: await codeOf(totpURI), totpURI, qr, backupCodes }, member.cookie)
  expect(confirmed.status).toBe(302)
  return { ...member, cookie: cookiesFrom(confirmed.headers, member.cookie), totpURI, backupCodes: backupCodes.split(' '), confirmed }
}
