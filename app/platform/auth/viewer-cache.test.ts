import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import * as root from '~/root'
import { profiles } from '~/features/account/schema'
import { setPremiumByAdmin } from '~/features/members/roles.server'
import { failStatements, getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { cookiesFrom, formRequest, getRequest, run } from '../../../tests/setup/requests'
import { enrolled } from '../../../tests/setup/two-factor'
import * as authRoute from '~/features/account/auth.route'
import { session, userRoles } from './schema'
import { startViewerCache, stopViewerCache } from './viewer-cache.server'

// A member's pages skip the session and profile statements for a few seconds, and never show
// what has changed since: every change to them reaches the cache by a notification.

useTestDatabase()
beforeAll(() => startViewerCache())
afterAll(() => stopViewerCache())

const perfil = (cookie: string | undefined) =>
  run(() => profileRoute.loader({ request: getRequest('/perfil', { cookie }), params: {}, context: {} } as never))
/** The notification of a change arrives after its transaction commits. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100))

describe('the viewer cache', () => {
  test('a second page of the same member reads neither the session nor the profile', async () => {
    const member = await createPersona('member')
    const frame = () =>
      run(() => root.loader({ request: getRequest('/legal', { cookie: member.cookie }), params: {}, context: {} } as never))
    expect((await frame()).data.user).not.toBeNull()
    // (/perfil itself reads the sessions: its 'Seguridad' card lists them.)
    const disarm = failStatements(/"session"|"profiles"|"user_roles"/, { times: 10, error: () => new Error('looked up again') })
    try {
      // The frame shows the member signed in: a failed lookup would have shown them signed out.
      expect((await frame()).data.user).toMatchObject({ email: member.email })
    } finally {
      disarm()
    }
  })

  test('premium granted, a renamed profile and a new role show at once', async () => {
    const member = await createPersona('member')
    const admin = await createPersona('admin')
    expect((await perfil(member.cookie)).data.profile.isPremium).toBe(false)
    await setPremiumByAdmin({ actorId: admin.userId!, targetId: member.userId!, premium: true })
    await settle()
    expect((await perfil(member.cookie)).data.profile.isPremium).toBe(true)

    await getDb().update(profiles).set({ firstName: 'Renombrada' }).where(eq(profiles.userId, member.userId!))
    await settle()
    expect((await perfil(member.cookie)).data.profile.firstName).toBe('Renombrada')

    await getDb().insert(userRoles).values({ userId: member.userId!, role: 'moderator' })
    await settle()
    // The page shows no roles: the guard's answer does (an admin page refuses, then allows).
    const { requireCapability } = await import('./guards.server')
    const { getCurrentUser } = await import('~/features/account/guards.server')
    const viewer = await getCurrentUser(getRequest('/perfil', { cookie: member.cookie }))
    expect(viewer?.roles).toContain('moderator')
    expect(() => requireCapability(viewer!, 'moderate-content', 'x')).not.toThrow()
  })

  test('a session revoked (signed out, another device closed) is not served from the cache', async () => {
    const member = await createPersona('member')
    expect((await perfil(member.cookie)).status).toBe(200)
    await getDb().delete(session).where(eq(session.userId, member.userId!))
    await settle()
    const after = await perfil(member.cookie)
    expect(after.status).toBe(302)
    expect(after.location).toMatch(/^\/auth\?redirectTo=/)
  })

  test('an admin view kept for a session is not served once two-factor sign-in is turned on from another device', async () => {
    // The suite's ADMIN_TWO_FACTOR is 'optional': without two-factor on, this admin's session is an admin's.
    const admin = await createPersona('admin')
    const { getCurrentUser } = await import('~/features/account/guards.server')
    const viewer = () => getCurrentUser(getRequest('/admin', { cookie: admin.cookie }))
    expect((await viewer())?.isAdmin).toBe(true)
    const signIn = await run(() =>
      authRoute.action({
        request: formRequest('/auth', { intent: 'signin', email: admin.email!, password: 'contraseña-segura-1' }),
        params: {},
        context: {},
      } as never),
    )
    await enrolled({
      ...(admin as { userId: string; email: string; password: string }),
      password: 'contraseña-segura-1',
      cookie: cookiesFrom(signIn.headers),
    })
    await settle()
    expect(await viewer()).toBeNull()
  })
})
