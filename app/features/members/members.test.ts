import { and, eq } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { auditLog } from '~/platform/audit/schema'
import { communityPosts } from '~/features/feed/schema'
import { profiles } from '~/features/account/schema'
import { userRoles } from '~/platform/auth/schema'
import * as communityLayout from '~/features/community/layout.route'
import * as directoryRoute from './directory.route'
import * as memberRoute from './member.route'
import * as profileServer from '~/features/account/profile.server'
import * as rolesServer from './roles.server'
import { can } from '~/platform/auth/capabilities'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { completeProfile, createPersona, type Persona } from '../../../tests/setup/members'
import { createConfirmedUser, formRequest, getRequest, readToast, run } from '../../../tests/setup/requests'

useTestDatabase()

const context = { cspNonce: 'test' }
const viewProfile = (userId: string, cookie?: string) =>
  run(() => memberRoute.loader({ request: getRequest(`/usuario/${userId}`, { cookie }), params: { userId }, context } as any))
const adminAction = (userId: string, fields: Record<string, string>, cookie?: string) =>
  run(() => memberRoute.action({ request: formRequest(`/usuario/${userId}`, fields, { cookie }), params: { userId }, context } as any))
const directory = (query: string, cookie?: string) =>
  run(() => directoryRoute.loader({ request: getRequest(`/comunidad/miembros${query}`, { cookie }), params: {}, context } as any))

const personas: Persona[] = ['anonymous', 'member', 'premium', 'moderator', 'admin']
let people: Record<Persona, Awaited<ReturnType<typeof createPersona>>>
let target: Awaited<ReturnType<typeof createConfirmedUser>>

beforeAll(async () => {
  people = {} as typeof people
  for (const persona of personas) people[persona] = await createPersona(persona)
  target = await createConfirmedUser({ firstName: 'Teresa', lastName: 'Núñez' })
  await completeProfile(target.userId, {
    company: 'Genómica Ibérica',
    position: 'Directora de Acceso al Mercado',
    bio: 'Bio <script>x</script>',
  })
})

describe('viewing a member profile (/usuario/:id)', () => {
  test.each([
    ['anonymous', 302],
    ['member', 403],
    ['premium', 200],
    ['moderator', 403],
    ['admin', 200],
  ] as const)('%s → %i', async (persona, status) => {
    const outcome = await viewProfile(target.userId, people[persona].cookie)
    expect(outcome.status).toBe(status)
    if (status === 200) {
      expect(outcome.data.member).toMatchObject({ name: 'Teresa Núñez', company: 'Genómica Ibérica', bio: 'Bio <script>x</script>' })
      expect(outcome.data.member.memberSince).toMatch(/^\d{1,2} de [a-z]+ de \d{4}$/)
    }
    if (status === 403) expect(outcome.data.message.title).toBe('Acceso Premium Requerido')
  })

  test('only admins get the role card data', async () => {
    expect((await viewProfile(target.userId, people.admin.cookie)).data.roles).toEqual([])
    expect((await viewProfile(target.userId, people.premium.cookie)).data.roles).toBeNull()
  })

  test('a member may always open their own profile', async () => {
    const outcome = await viewProfile(people.member.userId!, people.member.cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data.isOwn).toBe(true)
  })

  test.each(['not-a-uuid', '1; drop table profiles', '../perfil'])('invalid id %j → 400', async (id) => {
    const outcome = await viewProfile(id, people.premium.cookie)
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('ID de usuario no válido')
  })

  test('unknown id → 404', async () => {
    const outcome = await viewProfile(crypto.randomUUID(), people.premium.cookie)
    expect(outcome.status).toBe(404)
    expect(outcome.data.message.title).toBe('Usuario no encontrado')
  })

  describe('when a read fails', () => {
    // Spies on modules every later test file of this worker shares (isolate: false): gone even after a failure.
    afterEach(() => vi.restoreAllMocks())

    test("a profile that cannot be loaded reaches the page's error boundary (which says 'Error al cargar el perfil')", async () => {
      // The guard loads the viewer's own profile through the same function: only the target's fails.
      const original = profileServer.getProfileByUserId
      const profileLoad = vi.spyOn(profileServer, 'getProfileByUserId').mockImplementation(async (userId) => {
        if (userId === target.userId) throw new Error('connection reset by peer')
        return original(userId)
      })
      // Not swallowed into an empty page: the error reaches the route's boundary.
      await expect(viewProfile(target.userId, people.premium.cookie)).rejects.toThrow('connection reset by peer')
      expect(profileLoad).toHaveBeenCalled()
    })

    test('roles that cannot be loaded leave the profile shown', async () => {
      const original = rolesServer.getUserRoles
      vi.spyOn(rolesServer, 'getUserRoles').mockImplementation(async (userId) => {
        if (userId === target.userId) throw new Error('connection reset by peer')
        return original(userId)
      })
      const partial = await viewProfile(target.userId, people.admin.cookie)
      expect(partial.status).toBe(200)
      expect(partial.data.member.name).toBe('Teresa Núñez')
      expect(partial.data.roles).toBe('failed')
    })
  })
})

describe('admin controls', () => {
  const premiumOf = async (userId: string) =>
    (await getDb().select({ isPremium: profiles.isPremium }).from(profiles).where(eq(profiles.userId, userId)))[0]!.isPremium

  test.each([
    ['anonymous', 302],
    ['member', 403],
    ['premium', 403],
    ['moderator', 403],
  ] as const)('%s cannot toggle premium or roles (%i) and nothing changes', async (persona, status) => {
    const cookie = people[persona].cookie
    expect((await adminAction(target.userId, { intent: 'premium', premium: 'true' }, cookie)).status).toBe(status)
    expect((await adminAction(target.userId, { intent: 'role', role: 'admin', grant: 'true' }, cookie)).status).toBe(status)
    expect(await premiumOf(target.userId)).toBe(false)
    expect(await getDb().select().from(userRoles).where(eq(userRoles.userId, target.userId))).toEqual([])
  })

  test('an admin toggles premium and roles, each audited', async () => {
    const admin = people.admin
    let outcome = await adminAction(target.userId, { intent: 'premium', premium: 'true' }, admin.cookie)
    expect(outcome.status).toBe(302)
    expect(await premiumOf(target.userId)).toBe(true)
    outcome = await adminAction(target.userId, { intent: 'role', role: 'moderator', grant: 'true' }, admin.cookie)
    expect(outcome.status).toBe(302)
    expect((await viewProfile(target.userId, admin.cookie)).data.roles).toEqual(['moderator'])
    await adminAction(target.userId, { intent: 'role', role: 'moderator', grant: 'false' }, admin.cookie)
    await adminAction(target.userId, { intent: 'premium', premium: 'false' }, admin.cookie)
    expect(await premiumOf(target.userId)).toBe(false)

    const entries = await getDb().select().from(auditLog).where(eq(auditLog.targetUserId, target.userId))
    expect(entries.map((entry) => entry.action)).toEqual(['premium_granted', 'role_granted', 'role_removed', 'premium_removed'])
    expect(entries.every((entry) => entry.actorUserId === admin.userId)).toBe(true)
  })

  test('refuses roles outside admin/moderator and malformed commands', async () => {
    expect((await adminAction(target.userId, { intent: 'role', role: 'superuser', grant: 'true' }, people.admin.cookie)).status).toBe(400)
    const premiumInvalid = await adminAction(target.userId, { intent: 'premium', premium: 'yes' }, people.admin.cookie)
    expect(premiumInvalid.status).toBe(400)
    expect(premiumInvalid.data.message.title).toBe('Error al actualizar estado premium')
  })

  test('the only admin cannot remove their own admin role; with a second admin they can', async () => {
    const solo = people.admin
    // The suite's database has exactly one admin here.
    const blocked = await adminAction(solo.userId!, { intent: 'role', role: 'admin', grant: 'false' }, solo.cookie)
    expect(blocked.status).toBe(409)
    expect(blocked.data.message.title).toMatch(/administrador/)
    const stillAdmin = await getDb()
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.userId, solo.userId!), eq(userRoles.role, 'admin')))
    expect(stillAdmin).toHaveLength(1)

    const second = await createPersona('admin')
    const allowed = await adminAction(second.userId!, { intent: 'role', role: 'admin', grant: 'false' }, second.cookie)
    expect(allowed.status).toBe(302)
    const removed = await getDb()
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.userId, second.userId!), eq(userRoles.role, 'admin')))
    expect(removed).toEqual([])
  })

  concurrencyTest('two last admins removing themselves at the same moment leave one admin', async () => {
    const [first, second] = [await createPersona('member'), await createPersona('member')]
    await withOnlyAdmins([first, second], async () => {
      await Promise.all(
        [first, second].map((person) => adminAction(person.userId!, { intent: 'role', role: 'admin', grant: 'false' }, person.cookie)),
      )
      expect(await admins()).toHaveLength(1)
    })
  })
})

concurrencyTest('two admins who demote each other at the same moment leave one admin', async () => {
  const [first, second] = [await createPersona('member'), await createPersona('member')]
  await withOnlyAdmins([first, second], async () => {
    const [one, two] = await Promise.all([
      adminAction(second.userId!, { intent: 'role', role: 'admin', grant: 'false' }, first.cookie),
      adminAction(first.userId!, { intent: 'role', role: 'admin', grant: 'false' }, second.cookie),
    ])
    expect(await admins()).toHaveLength(1)
    // One wins; the other is refused, in the transaction ('Ya no eres administrador') or, if it
    // started after the first committed, by the admin guard (403).
    const answers = await Promise.all(
      [one, two].map(
        async (outcome) =>
          (await readToast(outcome.headers))?.title ?? (outcome.status === 409 ? outcome.data.message.title : outcome.status),
      ),
    )
    expect(answers).toContain('Rol administrador removido correctamente')
    expect(answers.filter((answer) => answer !== 'Rol administrador removido correctamente')).toEqual([
      expect.toSatisfy((answer) => answer === 'Ya no eres administrador' || answer === 403),
    ])
  })
})

const admins = () => getDb().select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin'))

/** Runs `run` with `people` as the community's only admins, then gives the role back to those who had it. */
async function withOnlyAdmins(people: Array<{ userId?: string }>, run: () => Promise<void>) {
  const before = await admins()
  await getDb().delete(userRoles).where(eq(userRoles.role, 'admin'))
  await getDb()
    .insert(userRoles)
    .values(people.map((person) => ({ userId: person.userId!, role: 'admin' as const })))
  try {
    await run()
  } finally {
    await getDb().delete(userRoles).where(eq(userRoles.role, 'admin'))
    if (before.length)
      await getDb()
        .insert(userRoles)
        .values(before.map((admin) => ({ userId: admin.userId, role: 'admin' as const })))
  }
}

test('role and premium messages are Spanish', async () => {
  const member = await createConfirmedUser()
  await completeProfile(member.userId)
  const toastOf = async (fields: Record<string, string>) =>
    (await readToast((await adminAction(member.userId, fields, people.admin.cookie)).headers))?.title
  expect(await toastOf({ intent: 'role', role: 'moderator', grant: 'true' })).toBe('Rol moderador asignado correctamente')
  expect(await toastOf({ intent: 'role', role: 'moderator', grant: 'false' })).toBe('Rol moderador removido correctamente')
  expect(await toastOf({ intent: 'role', role: 'admin', grant: 'true' })).toBe('Rol administrador asignado correctamente')
  expect(await toastOf({ intent: 'role', role: 'admin', grant: 'false' })).toBe('Rol administrador removido correctamente')
  expect(await toastOf({ intent: 'premium', premium: 'true' })).toBe('Usuario promovido a premium')
  expect(await toastOf({ intent: 'premium', premium: 'false' })).toBe('Usuario degradado de premium')
})

describe('member directory', () => {
  beforeAll(async () => {
    const seeds = [
      { firstName: 'José', lastName: 'Álvarez', company: 'Farmacéutica Ñandú', position: 'Director Médico' },
      { firstName: 'Lucía', lastName: 'Pérez', company: 'MedTech Sur', position: 'VP de Ventas' },
      { firstName: 'Óscar', lastName: 'Ibáñez', company: 'BioFarma 100%', position: 'Market_Access Lead' },
    ]
    for (const seed of seeds) {
      const user = await createConfirmedUser({ firstName: seed.firstName, lastName: seed.lastName })
      await completeProfile(user.userId, { company: seed.company, position: seed.position })
    }
    // Incomplete: no photo. Must never be listed.
    const hidden = await createConfirmedUser({ firstName: 'José', lastName: 'Oculto' })
    await completeProfile(hidden.userId, { avatarUrl: '  ' })
  })

  const names = (outcome: Awaited<ReturnType<typeof directory>>) =>
    outcome.data.directory.members.map((member: { name: string }) => member.name)

  test.each([
    ['anonymous', 302, null],
    ['member', 200, false],
    ['premium', 200, true],
    ['moderator', 200, false],
    ['admin', 200, true],
  ] as const)('directory: %s → %i, member data %s', async (persona, status, listed) => {
    const outcome = await directory('?q=alvarez', people[persona].cookie)
    expect(outcome.status).toBe(status)
    if (listed === null) return expect(outcome.location).toMatch(/^\/auth\?redirectTo=/)
    expect(outcome.data.directory === null).toBe(!listed)
    if (listed) expect(names(outcome)).toEqual(['José Álvarez'])
  })

  test('the old /comunidad?tab=miembros links land on /comunidad/miembros with their search', async () => {
    const outcome = await run(() =>
      communityLayout.loader({
        request: getRequest('/comunidad?tab=miembros&q=alvarez', { cookie: people.premium.cookie }),
        params: {},
        context,
      } as any),
    )
    expect(outcome.status).toBe(301)
    expect(outcome.location).toBe('/comunidad/miembros?q=alvarez')
  })

  test('members without access get the prompt and no member data', async () => {
    const outcome = await directory('', people.member.cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data.directory).toBeNull()
  })

  test('lists only complete profiles', async () => {
    const outcome = await directory('?q=jose', people.premium.cookie)
    expect(names(outcome)).toEqual(['José Álvarez'])
  })

  test.each([
    ['alvarez', ['José Álvarez']],
    ['ÁLVAREZ', ['José Álvarez']],
    ['nandu', ['José Álvarez']],
    ['oscar ibanez', ['Óscar Ibáñez']],
    ['ventas', ['Lucía Pérez']],
    ['100%', ['Óscar Ibáñez']],
    ['market_access', ['Óscar Ibáñez']],
    ['%', ['Óscar Ibáñez']],
    ['a%z', []],
    ['l_cia', []],
  ])('search %j (accents, case, words, LIKE wildcards as text)', async (query, expected) => {
    const outcome = await directory(`?q=${encodeURIComponent(query)}`, people.admin.cookie)
    expect(names(outcome)).toEqual(expected)
  })

  test('capital accented letters fold too, whatever the database locale', async () => {
    const shouting = await createConfirmedUser({ firstName: 'ÁNGELA', lastName: 'ÚBEDA' })
    await completeProfile(shouting.userId, { company: 'ÓPTICA IBÉRICA', position: 'DIRECTORA MÉDICA' })
    expect(names(await directory('?q=angela%20ubeda%20optica', people.premium.cookie))).toEqual(['ÁNGELA ÚBEDA'])
    expect(names(await directory('?empresa=optica%20iberica', people.premium.cookie))).toEqual(['ÁNGELA ÚBEDA'])
    await getDb().delete(profiles).where(eq(profiles.userId, shouting.userId))
  })

  test('filters by company and position', async () => {
    expect(names(await directory('?empresa=medtech', people.premium.cookie))).toEqual(['Lucía Pérez'])
    expect(names(await directory('?cargo=medico', people.premium.cookie))).toEqual(['José Álvarez'])
    expect(names(await directory('?empresa=medtech&cargo=medico', people.premium.cookie))).toEqual([])
  })

  test('cards carry what the spec shows, and hostile paging is clamped', async () => {
    const outcome = await directory('?q=lucia&pagina=-4', people.premium.cookie)
    expect(outcome.data.directory.page).toBe(1)
    expect(outcome.data.directory.members[0]).toMatchObject({ name: 'Lucía Pérez', company: 'MedTech Sur', position: 'VP de Ventas' })
    expect(outcome.data.directory.members[0].memberSince).toMatch(/^[a-z]+ de \d{4}$/)
    expect(outcome.data.directory.members[0].postCount).toBe(0)
  })

  test('each card counts that member’s posts others can see (not what moderation hid)', async () => {
    const [lucia] = await getDb().select({ userId: profiles.userId }).from(profiles).where(eq(profiles.company, 'MedTech Sur'))
    await getDb()
      .insert(communityPosts)
      .values([1, 2, 3, 4].map((n) => ({ userId: lucia!.userId, title: `Post ${n}`, hiddenAt: n === 4 ? new Date() : null })))
    const outcome = await directory('?q=lucia', people.premium.cookie)
    expect(outcome.data.directory.members[0]).toMatchObject({ name: 'Lucía Pérez', postCount: 3 })
    const other = await directory('?q=alvarez', people.premium.cookie)
    expect(other.data.directory.members[0]).toMatchObject({ name: 'José Álvarez', postCount: 0 })
  })
})

describe('permission module', () => {
  test.each([
    ['moderate-content', ['admin', 'moderator']],
    ['manage-events', ['admin', 'moderator']],
    ['manage-sessions', ['admin']],
    ['pin-posts', ['admin']],
    ['manage-members', ['admin']],
  ] as const)('%s is granted to %j only', (capability, allowed) => {
    for (const role of ['admin', 'moderator', 'user'] as const) {
      expect(can({ roles: [role] }, capability)).toBe((allowed as readonly string[]).includes(role))
    }
    expect(can(null, capability)).toBe(false)
  })
})

describe('privacy in the directory (issue 28)', () => {
  const profileAction = async (fields: Record<string, string>, cookie?: string) => {
    const profileRoute = await import('~/features/account/profile.route')
    return run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as any))
  }
  const found = async (query: string) =>
    (await directory(query, people.premium.cookie)).data.directory.members.map((m: { userId: string }) => m.userId)

  test('a member leaves the directory, or keeps company and position to themselves: found by name only, shown to themselves and admins', async () => {
    const member = (await createPersona('premium', { firstName: 'Casilda', lastName: 'Reservada' })) as { userId: string; cookie: string }
    await completeProfile(member.userId, { company: 'Farmacéutica Discreta', position: 'Directora de Acceso' })
    expect(await found('?q=casilda')).toContain(member.userId)

    const saved = await profileAction({ intent: 'privacy', listedInDirectory: 'on' }, member.cookie)
    expect(saved.location).toBe('/perfil')
    expect(await readToast(saved.headers)).toMatchObject({ title: 'Privacidad guardada' })
    expect(await found('?q=casilda')).toContain(member.userId)
    for (const query of ['?q=discreta', '?empresa=farmaceutica%20discreta', '?cargo=directora%20de%20acceso', '?q=casilda%20discreta']) {
      expect(await found(query), query).not.toContain(member.userId)
    }
    const card = (await directory('?q=casilda', people.premium.cookie)).data.directory.members.find(
      (m: { userId: string }) => m.userId === member.userId,
    )
    expect(card).toMatchObject({ company: null, position: null })
    expect((await viewProfile(member.userId, people.premium.cookie)).data.member).toMatchObject({ company: null, position: null })
    expect((await viewProfile(member.userId, member.cookie)).data.member.company).toBe('Farmacéutica Discreta')
    expect((await viewProfile(member.userId, people.admin.cookie)).data.member.company).toBe('Farmacéutica Discreta')

    await profileAction({ intent: 'privacy' }, member.cookie)
    expect(await found('?q=casilda')).not.toContain(member.userId)
    expect(await found('')).not.toContain(member.userId)
    // Back in, with the work shown again.
    await profileAction({ intent: 'privacy', listedInDirectory: 'on', showsWork: 'on' }, member.cookie)
    expect(await found('?q=discreta')).toContain(member.userId)
    expect((await profileAction({ intent: 'privacy', listedInDirectory: 'sí' }, member.cookie)).status).toBe(400)
  })
})
