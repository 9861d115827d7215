import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { describe, expect, test } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import * as dashboardRoute from '~/features/admin/dashboard.route'
import * as memberRoute from '~/features/members/member.route'
import { getEnv, setEnv } from '~/platform/env.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { cookiesFrom, formRequest, getRequest, readToast, run } from '../../../tests/setup/requests'
import { ADMIN_TWO_FACTOR_MESSAGE } from './guards.server'

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
