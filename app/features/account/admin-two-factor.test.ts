import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import * as authRoute from '~/features/account/auth.route'
import { profiles } from '~/features/account/schema'
import * as profileRoute from '~/features/account/profile.route'
import * as dashboardRoute from '~/features/admin/dashboard.route'
import * as memberRoute from '~/features/members/member.route'
import { getEnv, setEnv } from '~/platform/env.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { cookiesFrom, type createConfirmedUser, formRequest, getRequest, readToast, run } from '../../../tests/setup/requests'
import { codeAt, codeOf, enrolled } from '../../../tests/setup/two-factor'
import { addPasskey, signInWithPasskey, softwareAuthenticator } from '../../../tests/setup/webauthn'
import { getAuth } from './auth.server'
import { getDb } from '~/platform/db/client.server'
import { ADMIN_SIGN_IN_AGAIN_MESSAGE, ADMIN_TWO_FACTOR_MESSAGE } from './guards.server'

// Issue 27: admins use the console and the admin tools only with two-factor sign-in on (the
// production default; the rest of the suite runs with ADMIN_TWO_FACTOR=optional).
setEnv({ ...getEnv(), ADMIN_TWO_FACTOR: 'required' })
useTestDatabase()

const context = { cspNonce: 'test' }
const load = (route: { loader: (args: any) => unknown }, path: string, cookie?: string, params: Record<string, string> = {}) =>
  run(() => route.loader({ request: getRequest(path, { cookie }), params, context }))
const profile = (fields: Record<string, string>, cookie: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as any))

describe('an admin without two-factor sign-in', () => {
  test('is sent to enrol from the console, refused every admin action with the reason, and told so in their profile', async () => {
    const admin = await createPersona('admin')
    const member = await createPersona('premium')

    const console = await load(dashboardRoute, '/admin', admin.cookie)
    expect(console.status).toBe(302)
    expect(console.location).toBe('/perfil#seguridad')
    expect(await readToast(console.headers)).toMatchObject({ title: ADMIN_TWO_FACTOR_MESSAGE })

    // An admin's action on a member's page (requireAdmin) and an admin-only capability (pinning).
    const role = await run(() =>
      memberRoute.action({
        request: formRequest(`/usuario/${member.userId}`, { intent: 'premium', premium: 'false' }, { cookie: admin.cookie }),
        params: { userId: member.userId },
        context,
      } as any),
    )
    expect(role.status).toBe(403)
    expect(role.data.message.title).toBe(ADMIN_TWO_FACTOR_MESSAGE)
    const postId = await createPost(member.cookie!)
    const pin = await feedAction({ intent: 'pin-post', postId, pinned: 'true' }, admin.cookie)
    expect(pin.status).toBe(403)
    expect(pin.data.message.title).toBe(ADMIN_TWO_FACTOR_MESSAGE)

    expect((await load(profileRoute, '/perfil', admin.cookie)).data.mustEnrolTwoFactor).toBe(true)
    // A moderator is not concerned: the console does not exist for them, as before.
    const moderator = await createPersona('moderator')
    expect((await load(dashboardRoute, '/admin', moderator.cookie)).status).toBe(404)
  })

  test('turning it on opens the console at once', async () => {
    const admin = await createPersona('admin')
    const started = await profile({ intent: 'two-factor-enable', password: 'contraseña-segura-1' }, admin.cookie!)
    const { totpURI, qr, backupCodes } = started.data.enrolment
    const code = await createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!)).totp()
    const confirmed = await profile({ intent: 'two-factor-confirm', code, totpURI, qr, backupCodes }, admin.cookie!)
    expect(confirmed.status).toBe(302)
    const cookie = cookiesFrom(confirmed.headers, admin.cookie)
    expect((await load(dashboardRoute, '/admin', cookie)).status).toBe(200)
    expect((await load(profileRoute, '/perfil', cookie)).data.mustEnrolTwoFactor).toBe(false)
  })
})

const auth = (path: string, fields: Record<string, string>, cookie?: string) =>
  run(() => authRoute.action({ request: formRequest(path, fields, { cookie }), params: {}, context } as any))
const isSignedIn = async (cookie: string) => Boolean(await getAuth().api.getSession({ headers: new Headers({ Cookie: cookie }) }))
const premiumOf = async (userId: string) =>
  (await getDb().select({ isPremium: profiles.isPremium }).from(profiles).where(eq(profiles.userId, userId)))[0]!.isPremium
const setPremium = (userId: string, premium: boolean, cookie: string) =>
  run(() =>
    memberRoute.action({
      request: formRequest(`/usuario/${userId}`, { intent: 'premium', premium: String(premium) }, { cookie }),
      params: { userId },
      context,
    } as any),
  )

/** An admin signed in by cookie (a persona's session, from the e-mail confirmation). */
const newAdmin = () => createPersona('admin') as Promise<Awaited<ReturnType<typeof createConfirmedUser>>>

/** Signs in with the password (and the code, when asked): the new session's cookie. */
async function signIn(member: { email: string; password: string }, { code, cookie = '' }: { code?: string; cookie?: string } = {}) {
  const first = await auth('/auth', { intent: 'signin', email: member.email, password: member.password }, cookie || undefined)
  const jar = cookiesFrom(first.headers, cookie)
  if (first.location !== '/auth?tab=codigo' || !code) return { outcome: first, cookie: jar }
  const second = await auth('/auth?tab=codigo', { intent: 'two-factor', code, trustDevice: 'on' }, jar)
  return { outcome: second, cookie: cookiesFrom(second.headers, jar) }
}

// Review S3: admin rights belong to a session that passed two factors, not to a user who has them on.
describe('an admin with two-factor sign-in on', () => {
  test('a session opened before two-factor was turned on has no admin powers: turning it on ends every other session', async () => {
    const admin = await newAdmin()
    const member = await createPersona('premium')
    // The admin's cookie stolen before enrolment; the admin goes on on another device.
    const stolen = admin.cookie
    const own = await signIn(admin)
    expect(own.outcome.status).toBe(302)
    const secured = await enrolled({ ...admin, cookie: own.cookie })

    const console = await load(dashboardRoute, '/admin', stolen)
    expect(console.status).toBe(302)
    expect(console.location).toMatch(/^\/auth\?redirectTo=/)
    const role = await setPremium(member.userId!, false, stolen)
    expect(role.location).toMatch(/^\/auth\?redirectTo=/)
    expect(await premiumOf(member.userId!)).toBe(true)
    expect(await isSignedIn(stolen)).toBe(false)
    // The device that turned it on keeps the console.
    expect((await load(dashboardRoute, '/admin', secured.cookie)).status).toBe(200)
  })

  test('a session that did not pass the code (a passkey without fingerprint or PIN) waits, with the reason, also when two-factor is optional', async () => {
    const member = await createPersona('premium')
    const secured = await enrolled(await newAdmin())
    const key = softwareAuthenticator()
    const { added } = await addPasskey(key, secured.cookie, { password: secured.password, code: await codeAt(secured.totpURI, 1) })
    expect(added!.status).toBe(302)

    const presence = await signInWithPasskey(key, { userVerified: false })
    expect(await isSignedIn(presence)).toBe(true)
    const console = await load(dashboardRoute, '/admin', presence)
    expect(console.location).toBe('/perfil#seguridad')
    expect(await readToast(console.headers)).toMatchObject({ title: ADMIN_SIGN_IN_AGAIN_MESSAGE })
    const role = await setPremium(member.userId!, false, presence)
    expect(role.status).toBe(403)
    expect(role.data.message.title).toBe(ADMIN_SIGN_IN_AGAIN_MESSAGE)
    const pin = await feedAction({ intent: 'pin-post', postId: await createPost(member.cookie!), pinned: 'true' }, presence)
    expect(pin.status).toBe(403)
    expect(pin.data.message.title).toBe(ADMIN_SIGN_IN_AGAIN_MESSAGE)
    expect(await premiumOf(member.userId!)).toBe(true)

    const required = getEnv()
    setEnv({ ...required, ADMIN_TWO_FACTOR: 'optional' })
    try {
      expect((await load(dashboardRoute, '/admin', presence)).location).toBe('/perfil#seguridad')
    } finally {
      setEnv(required)
    }
    // With the fingerprint or PIN, a passkey is two factors: the console opens.
    expect((await load(dashboardRoute, '/admin', await signInWithPasskey(key))).status).toBe(200)
  })

  test('signing in with the code, a recovery code or from a trusted browser gives the console; a password change keeps it', async () => {
    const secured = await enrolled(await newAdmin())
    const withCode = await signIn(secured, { code: await codeOf(secured.totpURI) })
    expect(withCode.outcome.status).toBe(302)
    expect((await load(dashboardRoute, '/admin', withCode.cookie)).status).toBe(200)
    const withRecovery = await signIn(secured, { code: secured.backupCodes[0]! })
    expect((await load(dashboardRoute, '/admin', withRecovery.cookie)).status).toBe(200)
    // The browser trusted at the code step signs in with the password alone, and it passed the code there.
    const browser = withCode.cookie
      .split('; ')
      .filter((pair) => !pair.includes('session_token'))
      .join('; ')
    const trusted = await signIn(secured, { cookie: browser })
    expect(trusted.outcome.location).toBe('/comunidad')
    expect((await load(dashboardRoute, '/admin', trusted.cookie)).status).toBe(200)

    const changed = await profile(
      { intent: 'password', currentPassword: secured.password, newPassword: 'otra-clave-segura-2', confirmPassword: 'otra-clave-segura-2' },
      withCode.cookie,
    )
    expect(changed.status).toBe(302)
    expect((await load(dashboardRoute, '/admin', cookiesFrom(changed.headers, withCode.cookie))).status).toBe(200)
  })
})
