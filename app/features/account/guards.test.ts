import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { userRoles } from '~/platform/auth/schema'
import { grantRoleByEmail } from '~/features/members/roles.server'
import * as communityLayout from '~/features/community/layout.route'
import * as directoryRoute from '~/features/members/directory.route'
import * as profileRoute from '~/features/account/profile.route'
import * as rootRoute from '~/root'
import { requireAccess, safeRedirect } from '~/platform/auth/guards.server'
import { getCurrentUser, requireAdmin } from './guards.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { completeProfile, createPersona } from '../../../tests/setup/members'
import { createConfirmedUser, getRequest, run } from '../../../tests/setup/requests'

useTestDatabase()

const context = { cspNonce: 'test' }
const load = (module: { loader: (args: any) => unknown }, path: string, cookie?: string) =>
  run(() => module.loader({ request: getRequest(path, { cookie }), params: {}, context }))

describe('guards at the top of every loader', () => {
  test('anonymous visitors go to /auth, remembering where they were going', async () => {
    for (const [module, path] of [
      [profileRoute, '/perfil'],
      [communityLayout, '/comunidad?categoria=x'],
      [directoryRoute, '/comunidad/miembros?q=ana'],
    ] as const) {
      const outcome = await load(module, path)
      expect(outcome.status).toBe(302)
      expect(outcome.location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`)
    }
  })

  test('a forged or expired session cookie counts as anonymous', async () => {
    const outcome = await load(profileRoute, '/perfil', 'better-auth.session_token=forged.value')
    expect(outcome.status).toBe(302)
    expect(outcome.location).toMatch(/^\/auth/)
  })

  test('an incomplete profile is sent from /comunidad to /perfil', async () => {
    const { cookie } = await createConfirmedUser()
    const outcome = await load(communityLayout, '/comunidad', cookie)
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/perfil?incompleto=1')
  })

  test('/perfil shows the missing items for an incomplete profile', async () => {
    const { cookie, email } = await createConfirmedUser({ firstName: 'Rosa', lastName: 'Vidal' })
    const outcome = await load(profileRoute, '/perfil', cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data).toMatchObject({ email, profile: { firstName: 'Rosa', lastName: 'Vidal', company: null, avatarUrl: null } })
  })

  test('a complete profile enters /comunidad; without premium it is told so', async () => {
    const { cookie, userId } = await createConfirmedUser()
    await completeProfile(userId)
    const outcome = await load(communityLayout, '/comunidad', cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data.hasAccess).toBe(false)
  })

  test('premium or admin means access; anything else is a 403 from requireAccess', async () => {
    const member = await createConfirmedUser()
    await completeProfile(member.userId)
    const userOf = async (cookie: string) => (await getCurrentUser(getRequest('/comunidad', { cookie })))!
    const refused = await run(async () => requireAccess(await userOf(member.cookie), 'Necesitas acceso premium para comentar'))
    expect(refused.status).toBe(403)
    expect(refused.data.message).toEqual({ title: 'Acceso Premium Requerido', description: 'Necesitas acceso premium para comentar' })

    await completeProfile(member.userId, { isPremium: true })
    const premiumUser = await userOf(member.cookie)
    expect(premiumUser.hasAccess).toBe(true)
    expect(() => requireAccess(premiumUser)).not.toThrow()

    const admin = await createConfirmedUser()
    await completeProfile(admin.userId)
    await grantRoleByEmail(admin.email, 'admin')
    const adminUser = await userOf(admin.cookie)
    expect(adminUser.isAdmin).toBe(true)
    expect(() => requireAccess(adminUser)).not.toThrow()
  })

  test('requireAdmin refuses members and moderators with 403 and lets an admin through', async () => {
    for (const persona of ['member', 'premium', 'moderator', 'admin'] as const) {
      const { cookie } = await createPersona(persona)
      expect((await run(() => requireAdmin(getRequest('/x', { cookie })))).status, persona).toBe(persona === 'admin' ? 200 : 403)
    }
    expect((await run(() => requireAdmin(getRequest('/x')))).status).toBe(302)
  })

  test('make-admin grants the role once, and tells when the e-mail has no account', async () => {
    const { email, userId } = await createConfirmedUser()
    expect(await grantRoleByEmail(` ${email.toUpperCase()} `, 'admin')).toBe(true)
    expect(await grantRoleByEmail(email, 'admin')).toBe(true)
    const roles = await getDb().select().from(userRoles).where(eq(userRoles.userId, userId))
    expect(roles.map((row) => row.role)).toEqual(['admin'])
    expect(await grantRoleByEmail('nobody@example.com', 'admin')).toBe(false)
  })

  test('the root loader gives the top bar only what it shows', async () => {
    const { cookie, email, userId } = await createConfirmedUser({ firstName: 'Nora', lastName: 'Gil' })
    await completeProfile(userId, { isPremium: true })
    const outcome = await load(rootRoute, '/', cookie)
    expect(outcome.data.user).toEqual({
      email,
      name: 'Nora Gil',
      avatarUrl: '/uploads/avatars/x/a.webp',
      isPremium: true,
      isAdmin: false,
      isModerator: false,
      canSearch: true,
    })
    expect((await load(rootRoute, '/')).data.user).toBeNull()
  })
})

describe('safeRedirect', () => {
  test.each([
    ['/perfil', '/perfil'],
    ['/comunidad?tab=x', '/comunidad?tab=x'],
    ['https://evil.example', '/comunidad'],
    ['//evil.example', '/comunidad'],
    ['/\\evil.example', '/comunidad'],
    // The known bypasses of an open redirect: each must stay on this site.
    ['/.//evil.example', '/comunidad'],
    ['/./\\evil.example', '/comunidad'],
    ['/%2F%2Fevil.example', '/comunidad'],
    ['/%2f/evil.example', '/comunidad'],
    ['/%5Cevil.example', '/comunidad'],
    ['/%5C%5Cevil.example', '/comunidad'],
    ['/\t/evil.example', '/comunidad'],
    ['/\n/evil.example', '/comunidad'],
    ['\\\\evil.example', '/comunidad'],
    ['/ /evil.example', '/ /evil.example'.replace(' ', '%20')],
    ['/perfil?x=1#a', '/perfil?x=1#a'],
    ['javascript:alert(1)', '/comunidad'],
    ['', '/comunidad'],
    [null, '/comunidad'],
  ])('%j → %s', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected)
  })
})
