import type { RouteConfigEntry } from '@react-router/dev/routes'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { profiles } from '~/features/account/schema'
import { auditLog } from '~/platform/audit/schema'
import { getAuth } from '~/platform/auth/auth.server'
import { getDb } from '~/platform/db/client.server'
import routes from '~/routes'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { type createConfirmedUser, formRequest, getRequest, readToast, run } from '../../../tests/setup/requests'
import * as authRoute from '~/features/account/auth.route'
import * as profileRoute from '~/features/account/profile.route'
import * as communityLayout from '~/features/community/layout.route'
import * as queueRoute from './queue.route'
import { MODERATION_MESSAGES } from './reasons'

useTestDatabase()

const context = { cspNonce: 'test' }
type Person = Awaited<ReturnType<typeof createConfirmedUser>>
const person = (persona: 'premium' | 'moderator' | 'admin') => createPersona(persona) as Promise<Person>
const onMember = (fields: Record<string, string>, cookie?: string) =>
  run(() =>
    queueRoute.action({
      request: formRequest('/admin/moderacion', { intent: 'member', ...fields }, { cookie }),
      params: {},
      context,
    } as any),
  )
const isSignedIn = async (cookie: string) => Boolean(await getAuth().api.getSession({ headers: new Headers({ Cookie: cookie }) }))
const READ_ONLY = 'Tu cuenta está en modo lectura'

/**
 * Route modules whose action a suspended member may still use, and why. Every other action of
 * the app must refuse them: a route added later is walked too, and fails here until it does.
 */
const NOT_A_MEMBERS_WRITE: Record<string, string> = {
  'features/account/auth.route.tsx': 'signing in, up and out: not a signed-in member’s write',
  'features/account/forgot-password.route.tsx': 'a recovery link, asked signed out',
  'features/account/reset-password.route.tsx': 'a new password from a recovery link',
  'features/account/logout.route.ts': 'signing out',
  'features/account/auth-api.route.ts': 'better-auth’s endpoint: only the e-mail confirmation link is open',
  'features/notifications/notifications.route.tsx': 'marking notifications read',
  'features/notifications/unsubscribe.route.tsx': 'a signed unsubscribe link, without a session',
  'features/admission/apply.route.tsx': 'applying to join: a visitor’s form',
  'features/admission/status.route.tsx': 'an application’s signed status link',
  'features/billing/checkout.route.ts': 'paying: billing is the admin’s decision, not moderation’s',
  'features/billing/portal.route.ts': 'managing a subscription',
  'features/billing/test-checkout.route.tsx': 'the local stand-in for Stripe Checkout',
  'features/billing/test-portal.route.tsx': 'the local stand-in for the billing portal',
  'features/billing/stripe-webhook.route.ts': 'Stripe, not a member',
  'features/ceo-sessions/mux-webhook.route.ts': 'Mux, not a member',
  'features/site/not-found.route.tsx': 'no page: 404 to any method',
}

/** Every route of app/routes.ts with its URL (parameters filled with an id). */
function flatten(entries: RouteConfigEntry[], prefix = ''): Array<{ file: string; path: string }> {
  return entries.flatMap((entry) => {
    const path = entry.index ? prefix : [prefix, entry.path ?? ''].filter(Boolean).join('/')
    const url =
      `/${path}`
        .replace(/:[A-Za-z]+/g, crypto.randomUUID())
        .replace('*', 'x')
        .replace(/\/+$/, '') || '/'
    return [{ file: entry.file, path: url }, ...flatten(entry.children ?? [], path)]
  })
}

const modules = import.meta.glob<{ action?: (args: unknown) => Promise<unknown> }>('/app/**/*.route.{ts,tsx}', { eager: true })

async function suspendedMember() {
  const member = await person('premium')
  await getDb()
    .update(profiles)
    .set({ suspendedUntil: new Date(Date.now() + 86_400_000), suspensionReason: 'Spam repetido' })
    .where(eq(profiles.userId, member.userId))
  return member
}

describe('a member in read-only mode', () => {
  test('is refused by every action of the app but those of their account, with until when and why', async () => {
    const member = await suspendedMember()
    const walked: string[] = []
    for (const { file, path } of flatten(routes as RouteConfigEntry[])) {
      const module = modules[`/app/${file}`]
      if (!module?.action || file in NOT_A_MEMBERS_WRITE) continue
      walked.push(file)
      const params = Object.fromEntries([...path.matchAll(/[0-9a-f-]{36}/g)].map((match, i) => [`p${i}`, match[0]]))
      const outcome = await run(() =>
        module.action!({ request: formRequest(path, { intent: 'probe' }, { cookie: member.cookie }), params, context }),
      )
      expect(outcome.status, `${file} (${path})`).toBeGreaterThanOrEqual(400)
      // Pages a premium member may act on say why; staff pages refuse them anyway (their guard comes first).
      if (
        !file.includes('features/admin/') &&
        !file.includes('admission/') &&
        !file.includes('moderation/queue') &&
        !file.includes('members/member.route')
      ) {
        expect(outcome.data?.message?.title, `${file} (${path})`).toBe(READ_ONLY)
        expect(outcome.data.message.description).toContain('Spam repetido')
      }
    }
    expect(walked).toEqual(
      expect.arrayContaining([
        'features/feed/feed.route.tsx',
        'features/ceo-sessions/video.route.tsx',
        'features/moderation/report.route.tsx',
      ]),
    )

    // The community's pages tell them until when and why.
    const layout = await run(() =>
      communityLayout.loader({ request: getRequest('/comunidad', { cookie: member.cookie }), params: {}, context } as any),
    )
    expect(layout.data.suspension).toMatch(/^Tu cuenta está en modo lectura hasta el .+\. Motivo: Spam repetido\./)

    // Their account stays theirs: the data export passes, the profile's words do not.
    const profile = (fields: Record<string, string>) =>
      run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie: member.cookie }), params: {}, context } as any))
    expect((await profile({ intent: 'export-data' })).status).toBe(302)
    const bio = await profile({ intent: 'profile', firstName: 'Spam', lastName: 'Spam', bio: 'Compra ya', company: 'X', position: 'Y' })
    expect(bio.status).toBe(403)
    expect(bio.data.message.title).toBe(READ_ONLY)
  })

  test('is read-only once the moment has passed no more', async () => {
    const member = await person('premium')
    await getDb()
      .update(profiles)
      .set({ suspendedUntil: new Date(Date.now() - 1000), suspensionReason: 'Pasado' })
      .where(eq(profiles.userId, member.userId))
    expect((await feedAction({ intent: 'create-post', postType: 'text', title: 'Vuelvo a escribir' }, member.cookie)).status).toBe(200)
  })
})

describe('suspending and expelling from the queue', () => {
  test('a moderator suspends for 1, 7 or 30 days with a reason; the member is told and refused; lifting it ends it', async () => {
    const [author, moderator] = [await person('premium'), await person('moderator')]
    expect((await onMember({ userId: author.userId, action: 'suspend', days: '7' }, moderator.cookie)).data.message.title).toBe(
      MODERATION_MESSAGES.reasonRequired,
    )
    expect((await onMember({ userId: author.userId, action: 'suspend', days: '3', reason: 'Spam' }, moderator.cookie)).status).toBe(400)
    const suspended = await onMember(
      { userId: author.userId, action: 'suspend', days: '7', reason: 'Publicidad repetida' },
      moderator.cookie,
    )
    expect(suspended.location).toBe('/admin/moderacion')
    expect(await readToast(suspended.headers)).toMatchObject({ title: MODERATION_MESSAGES.suspended })
    const [row] = await getDb().select({ until: profiles.suspendedUntil }).from(profiles).where(eq(profiles.userId, author.userId))
    expect((row!.until!.getTime() - Date.now()) / 86_400_000).toBeCloseTo(7, 1)
    const refused = await feedAction({ intent: 'create-post', postType: 'text', title: 'Otra oferta' }, author.cookie)
    expect(refused.status).toBe(403)
    expect(refused.data.message.description).toContain('Publicidad repetida')

    // A moderator cannot expel; nobody suspends staff from the queue; unknown members are not found.
    expect((await onMember({ userId: author.userId, action: 'ban', reason: 'x' }, moderator.cookie)).status).toBe(403)
    const admin = await person('admin')
    expect((await onMember({ userId: admin.userId, action: 'suspend', days: '1', reason: 'x' }, moderator.cookie)).data.message.title).toBe(
      MODERATION_MESSAGES.staff,
    )
    expect((await onMember({ userId: 'nadie', action: 'suspend', days: '1', reason: 'x' }, moderator.cookie)).status).toBe(404)

    expect((await onMember({ userId: author.userId, action: 'lift' }, moderator.cookie)).status).toBe(302)
    expect((await createPost(author.cookie, { title: 'De vuelta' })).length).toBeGreaterThan(0)
    const lines = await getDb().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetUserId, author.userId))
    expect(lines.map((line) => line.action).sort()).toEqual(['member_reinstated', 'member_suspended'])
  })

  test('an admin expels: every session ends and no way in opens another', async () => {
    const [member, admin] = [await person('premium'), await person('admin')]
    const expelled = await onMember({ userId: member.userId, action: 'ban', reason: 'Acoso a otros miembros' }, admin.cookie)
    expect(await readToast(expelled.headers)).toMatchObject({ title: MODERATION_MESSAGES.banDone })
    expect(await isSignedIn(member.cookie)).toBe(false)
    const signIn = await run(() =>
      authRoute.action({
        request: formRequest('/auth', { intent: 'signin', email: member.email, password: member.password }),
        params: {},
        context,
      } as any),
    )
    expect(signIn.status).toBe(403)
    expect(signIn.data.message.title).toBe(MODERATION_MESSAGES.banned)
    expect((await onMember({ userId: member.userId, action: 'lift' }, admin.cookie)).status).toBe(302)
    const back = await run(() =>
      authRoute.action({
        request: formRequest('/auth', { intent: 'signin', email: member.email, password: member.password }),
        params: {},
        context,
      } as any),
    )
    expect(back.status).toBe(302)
  })
})
