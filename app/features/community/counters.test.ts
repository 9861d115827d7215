import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import * as dashboardRoute from '~/features/admin/dashboard.route'
import * as membersRoute from '~/features/admin/members.route'
import * as queueRoute from '~/features/admission/queue.route'
import * as directoryRoute from '~/features/members/directory.route'
import * as memberRoute from '~/features/members/member.route'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { createConfirmedUser, formRequest, getRequest, run } from '../../../tests/setup/requests'

/**
 * Issue 38: the totals of the console's dashboard and members table, the directory and the
 * admissions queue are counters kept by triggers (migration 0037). After a mix of sign-ups,
 * completed profiles, premium granted and taken, members leaving the directory, applications
 * moving between states and accounts deleted, each page shows what a count of the rows gives.
 * Run on PGlite and on PostgreSQL (DATABASE_URL), concurrent sign-ups included.
 */
useTestDatabase()

const context = { cspNonce: 'test' }
const STATES = ['pending', 'info_requested', 'waitlisted', 'approved', 'rejected', 'withdrawn'] as const

const one = async (query: ReturnType<typeof sql>) =>
  Number(((await getDb().execute(query)) as unknown as { rows: Array<{ n: number | string }> }).rows[0]!.n)

async function load(route: { loader: (args: any) => unknown }, path: string, cookie: string | undefined) {
  const outcome = await run(() => route.loader({ request: getRequest(path, { cookie }), params: {}, context }))
  expect(outcome.status, path).toBe(200)
  return outcome.data as any
}

/** What the pages show, beside what counting the rows gives. */
async function shownAndCounted(admin: { cookie?: string }, member: { cookie?: string }) {
  const [dashboard, members, directory, queue] = await Promise.all([
    load(dashboardRoute, '/admin', admin.cookie),
    load(membersRoute, '/admin/miembros', admin.cookie),
    load(directoryRoute, '/comunidad/miembros', member.cookie),
    load(queueRoute, '/admin/admisiones', admin.cookie),
  ])
  const pending = await load(queueRoute, '/admin/admisiones?estado=pending', admin.cookie)
  const shown = {
    members: [dashboard.members.total, members.total],
    complete: dashboard.members.complete,
    premium: dashboard.members.premium,
    premiumByAdmin: dashboard.members.premiumByAdmin,
    directory: directory.directory.total,
    applications: queue.total,
    pending: pending.total,
    byState: queue.counts,
  }
  const byState = Object.fromEntries(
    await Promise.all(
      STATES.map(async (state) => [state, await one(sql`select count(*) as n from admission_applications where status = ${state}`)]),
    ),
  )
  const all = await one(sql`select count(*) as n from profiles`)
  const counted = {
    members: [all, await one(sql`select count(*) as n from profiles join "user" u on u.id = profiles.user_id`)],
    complete: await one(sql`select count(*) as n from profiles where is_complete`),
    premium: await one(sql`select count(*) as n from profiles where is_premium`),
    premiumByAdmin: await one(sql`select count(*) as n from profiles where is_premium and premium_source = 'admin'`),
    directory: await one(sql`select count(*) as n from profiles where is_complete and listed_in_directory`),
    applications: await one(sql`select count(*) as n from admission_applications`),
    pending: byState.pending,
    byState,
  }
  return { shown, counted }
}

async function apply(n: number, status: (typeof STATES)[number]) {
  await getDb().execute(sql`
    insert into admission_applications (email, first_name, last_name, linkedin_url, company, position, sector, years_experience,
      target_role, contribution, expectations, status)
    values (${`candidata${n}@example.com`}, 'Candidata', ${`Número ${n}`}, 'https://www.linkedin.com/in/c', 'Empresa', 'Cargo',
      'pharma', 10, 'CEO', 'Experiencia', 'Conversaciones', ${status})`)
}

describe('counters kept by triggers (issue 38)', () => {
  test('every total shown equals a count of the rows after a mix of changes', async () => {
    const admin = await createPersona('admin')
    const member = await createPersona('premium')
    let before = await shownAndCounted(admin, member)
    expect(before.shown).toEqual(before.counted)
    expect(before.shown.members).toEqual([2, 2])

    // Sign-ups: a profile without photo is incomplete (not in the directory), one completed later.
    const newcomers = await Promise.all([1, 2, 3, 4].map((n) => createConfirmedUser({ firstName: 'Nueva', lastName: `Persona ${n}` })))
    await getDb().execute(
      sql`update profiles set avatar_url = '/uploads/a.webp', company = 'Empresa', position = 'Cargo' where user_id in (${newcomers[0]!.userId}, ${newcomers[1]!.userId})`,
    )
    // Premium granted by an admin, then taken from one; a member leaves the directory, another hides their work only.
    for (const target of [newcomers[0]!, newcomers[2]!]) {
      const granted = await run(() =>
        memberRoute.action({
          request: formRequest(`/usuario/${target.userId}`, { intent: 'premium', premium: 'true' }, { cookie: admin.cookie }),
          params: { userId: target.userId },
          context,
        } as any),
      )
      expect(granted.status).toBeLessThan(400)
    }
    await getDb().execute(sql`update profiles set is_premium = false where user_id = ${newcomers[2]!.userId}`)
    await getDb().execute(sql`update profiles set listed_in_directory = false where user_id = ${newcomers[1]!.userId}`)
    await getDb().execute(sql`update profiles set shows_work = false where user_id = ${member.userId}`)

    // Applications in every state; some move on, one is deleted.
    for (const [n, state] of STATES.entries()) await apply(n, state)
    for (const n of [10, 11, 12]) await apply(n, 'pending')
    await getDb().execute(sql`update admission_applications set status = 'approved' where email = 'candidata10@example.com'`)
    await getDb().execute(sql`update admission_applications set status = 'info_requested' where email = 'candidata11@example.com'`)
    await getDb().execute(sql`update admission_applications set company = 'Otra' where email = 'candidata12@example.com'`)
    await getDb().execute(sql`delete from admission_applications where email = 'candidata3@example.com'`)

    const middle = await shownAndCounted(admin, member)
    expect(middle.shown).toEqual(middle.counted)
    expect(middle.shown.members).toEqual([6, 6])
    expect(middle.shown.premiumByAdmin).toBe(1)
    expect(middle.shown.applications).toBe(8)
    expect(middle.shown.byState).toMatchObject({ pending: 2, approved: 1, info_requested: 2, waitlisted: 1 })

    // An account deleted as its owner asks (the profile goes with the account, by cascade).
    const deleted = await run(() =>
      profileRoute.action({
        request: formRequest(
          '/perfil',
          { intent: 'delete-account', password: newcomers[0]!.password, writing: 'keep', confirm: 'on' },
          { cookie: newcomers[0]!.cookie },
        ),
        params: {},
        context,
      } as any),
    )
    expect(deleted.status).toBeLessThan(400)
    before = await shownAndCounted(admin, member)
    expect(before.shown).toEqual(before.counted)
    expect(before.shown.members).toEqual([5, 5])
    expect(before.shown.premiumByAdmin).toBe(0)
  }, 60_000)

  test('concurrent sign-ups and state changes leave each counter right', async () => {
    const admin = await createPersona('admin')
    const member = await createPersona('premium')
    const target = await createPersona('member')
    await Promise.all(Array.from({ length: 6 }, (_, n) => createConfirmedUser({ firstName: 'A la vez', lastName: `${n}` })))
    const start = (await shownAndCounted(admin, member)).shown.byState
    for (const n of [20, 21, 22, 23, 24, 25]) await apply(n, 'pending')
    // Six transactions at once, each moving one application (on PostgreSQL, each on its own connection).
    await Promise.all(
      [20, 21, 22, 23, 24, 25].map((n) =>
        getDb().transaction(async (tx) => {
          await tx.execute(
            sql`update admission_applications set status = ${n % 2 ? 'rejected' : 'waitlisted'} where email = ${`candidata${n}@example.com`}`,
          )
          await tx.execute(sql`update profiles set is_premium = true, premium_source = 'admin' where user_id = ${target.userId}`)
        }),
      ),
    )
    const { shown, counted } = await shownAndCounted(admin, member)
    expect(shown).toEqual(counted)
    expect(shown.byState).toMatchObject({ pending: start.pending, rejected: start.rejected + 3, waitlisted: start.waitlisted + 3 })
  }, 60_000)

  test('a search counts what it finds, the directory keeping work hidden from a search of it', async () => {
    const admin = await createPersona('admin')
    const viewer = await createPersona('premium')
    const shows = await createPersona('member', { firstName: 'Rocío', lastName: 'Valdés' })
    const hides = await createPersona('member', { firstName: 'Irene', lastName: 'Soto' })
    await getDb().execute(sql`update profiles set company = 'Farmacéutica Quirón' where user_id in (${shows.userId}, ${hides.userId})`)
    await getDb().execute(sql`update profiles set shows_work = false where user_id = ${hides.userId}`)
    const directory = async (query: string) => (await load(directoryRoute, `/comunidad/miembros?${query}`, viewer.cookie)).directory
    expect((await directory('q=quiron')).total).toBe(1)
    expect((await directory('q=QUIRÓN%20rocio')).members.map((m: { userId: string }) => m.userId)).toEqual([shows.userId])
    expect((await directory('q=soto')).total).toBe(1)
    // The console sees every member's work, and finds them by e-mail too.
    const table = async (query: string) => load(membersRoute, `/admin/miembros?${query}`, admin.cookie)
    expect((await table('q=quiron')).total).toBe(2)
    const byMail = await table(`q=${encodeURIComponent(hides.email!.split('@')[0]!)}`)
    expect(byMail.total).toBe(1)
    expect(byMail.members.map((m: { userId: string }) => m.userId)).toEqual([hides.userId])
  })
})
