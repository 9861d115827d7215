import type { RouteConfigEntry } from '@react-router/dev/routes'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test, vi } from 'vitest'
import { profiles } from '~/features/account/schema'
import { ceoSessionComments } from '~/features/ceo-sessions/schema'
import * as videoRoute from '~/features/ceo-sessions/video.route'
import { communityComments, communityPosts } from '~/features/feed/schema'
import * as notificationsRoute from '~/features/notifications/notifications.route'
import { auditLog } from '~/platform/audit/schema'
import { getAuth } from '~/features/account/auth.server'
import { getDb } from '~/platform/db/client.server'
import { fullDateTime } from '~/platform/dates'
import routes from '~/routes'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { type createConfirmedUser, formRequest, getRequest, latestMailTo, queuedMails, readToast, run } from '../../../tests/setup/requests'
import { newSession } from '../../../tests/setup/sessions'
import * as authRoute from '~/features/account/auth.route'
import * as profileRoute from '~/features/account/profile.route'
import * as communityLayout from '~/features/community/layout.route'
import * as queueRoute from './queue.route'
import { MODERATION_MESSAGES } from './reasons'
import * as reportRoute from './report.route'
import { moderationDecisions } from './schema'

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
  'features/push/subscribe.route.ts': 'this device receiving the member’s own notifications (JSON, not a form): reading, not writing',
  'features/admission/apply.route.tsx': 'applying to join: a visitor’s form',
  'features/admission/status.route.tsx': 'an application’s signed status link',
  'features/billing/checkout.route.ts': 'paying: billing is the admin’s decision, not moderation’s',
  'features/billing/portal.route.ts': 'managing a subscription',
  'features/billing/test-checkout.route.tsx': 'the local stand-in for Stripe Checkout',
  'features/billing/test-portal.route.tsx': 'the local stand-in for the billing portal',
  'features/billing/membership.route.ts': 'keeping a membership and saying why one cancels: billing, not moderation',
  'features/billing/stripe-webhook.route.ts': 'Stripe, not a member',
  'features/ceo-sessions/mux-webhook.route.ts': 'Mux, not a member',
  'features/site/not-found.route.tsx': 'no page: 404 to any method',
}

/** Every route of app/routes.ts with its URL and its parameters (each an id). */
function flatten(entries: RouteConfigEntry[], prefix = ''): Array<{ file: string; path: string; params: Record<string, string> }> {
  return entries.flatMap((entry) => {
    const path = entry.index ? prefix : [prefix, entry.path ?? ''].filter(Boolean).join('/')
    const params: Record<string, string> = {}
    const url =
      `/${path}`
        .replace(/:([A-Za-z]+)/g, (_, name: string) => (params[name] = crypto.randomUUID()))
        .replace('*', 'x')
        .replace(/\/+$/, '') || '/'
    return [{ file: entry.file, path: url, params }, ...flatten(entry.children ?? [], path)]
  })
}

const modules = import.meta.glob<{ action?: (args: unknown) => Promise<unknown> }>('/app/**/*.route.{ts,tsx}', { eager: true })

async function suspendedMember(persona: 'premium' | 'admin' = 'premium', reason = 'Spam repetido') {
  const member = await person(persona)
  await getDb()
    .update(profiles)
    .set({ suspendedUntil: new Date(Date.now() + 86_400_000), suspensionReason: reason })
    .where(eq(profiles.userId, member.userId))
  return member
}

describe('a member in read-only mode', () => {
  test('is refused by every action of the app but those of their account, with until when and why; staff too', async () => {
    // A suspended admin passes every route's guard (the console's too): what refuses them is the suspension alone.
    const [member, admin] = [await suspendedMember(), await suspendedMember('admin')]
    const walked: string[] = []
    for (const { file, path, params } of flatten(routes as RouteConfigEntry[])) {
      const module = modules[`/app/${file}`]
      if (!module?.action || file in NOT_A_MEMBERS_WRITE) continue
      walked.push(file)
      const staffOnly =
        file.includes('features/admin/') ||
        file.includes('admission/') ||
        file.includes('moderation/queue') ||
        file.includes('members/member.route') ||
        // The console's pages that billing declares (/admin/codigos, /admin/miembros/:userId/cobro).
        file.includes('billing/codes.route') ||
        file.includes('billing/member-billing.route')
      for (const who of staffOnly ? [admin] : [member, admin]) {
        const outcome = await run(() =>
          module.action!({ request: formRequest(path, { intent: 'probe' }, { cookie: who.cookie }), params, context }),
        )
        expect(outcome.status, `${file} (${path})`).toBe(403)
        expect(outcome.data?.message?.title, `${file} (${path})`).toBe(READ_ONLY)
        expect(outcome.data.message.description).toContain('Spam repetido')
      }
    }
    expect(walked).toEqual(
      expect.arrayContaining([
        'features/feed/feed.route.tsx',
        'features/ceo-sessions/video.route.tsx',
        'features/moderation/report.route.tsx',
        'features/moderation/queue.route.tsx',
        'features/admin/settings.route.tsx',
      ]),
    )

    // The community's pages tell them until when and why.
    const layout = await run(() =>
      communityLayout.loader({ request: getRequest('/comunidad', { cookie: member.cookie }), params: {}, context } as any),
    )
    expect(layout.data.suspension).toMatch(/^Tu cuenta está en modo lectura\. Hasta el .+\. Motivo: Spam repetido\. Puedes leer/)

    // Their account stays theirs: the data export passes, the profile's words do not.
    const profile = (fields: Record<string, string>) =>
      run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie: member.cookie }), params: {}, context } as any))
    expect((await profile({ intent: 'export-data' })).status).toBe(302)
    const bio = await profile({ intent: 'profile', firstName: 'Spam', lastName: 'Spam', bio: 'Compra ya', company: 'X', position: 'Y' })
    expect(bio.status).toBe(403)
    expect(bio.data.message.title).toBe(READ_ONLY)
    const read = await run(() =>
      notificationsRoute.action({
        request: formRequest('/notificaciones', { intent: 'mark-all-read' }, { cookie: member.cookie }),
        params: {},
        context,
      } as any),
    )
    expect(read.status).toBe(200)
  })

  test('a reason that ends in a full stop is not given a second one', async () => {
    const member = await suspendedMember('premium', 'Spam repetido.')
    const refused = await feedAction({ intent: 'create-post', postType: 'text', title: 'Otra oferta' }, member.cookie)
    expect(refused.data.message.description).toContain('Motivo: Spam repetido. Puedes leer')
    const layout = await run(() =>
      communityLayout.loader({ request: getRequest('/comunidad', { cookie: member.cookie }), params: {}, context } as any),
    )
    expect(layout.data.suspension).toContain('Motivo: Spam repetido. Puedes leer')
    expect(`${refused.data.message.description} ${layout.data.suspension}`).not.toContain('..')
  })

  test('can still appeal: edit their own hidden post, comment or session comment and ask for a review; nothing else of theirs', async () => {
    const [member, moderator] = [await person('premium'), await person('moderator')]
    const hidden = await createPost(member.cookie, { title: 'Oculto' })
    const visible = await createPost(member.cookie, { title: 'Visible' })
    await feedAction({ intent: 'add-comment', postId: visible, content: 'Comentario oculto' }, member.cookie)
    await feedAction({ intent: 'add-comment', postId: visible, content: 'Comentario visible' }, member.cookie)
    const commentOf = async (content: string) =>
      (await getDb().select({ id: communityComments.id }).from(communityComments).where(eq(communityComments.content, content)))[0]!.id
    const [hiddenComment, visibleComment] = [await commentOf('Comentario oculto'), await commentOf('Comentario visible')]
    const { sessionId } = await newSession(moderator.userId)
    const [sessionComment] = await getDb()
      .insert(ceoSessionComments)
      .values({ sessionId, userId: member.userId, content: 'En la sesión', hiddenAt: new Date(), hiddenReason: 'Fuera de tema' })
      .returning({ id: ceoSessionComments.id })
    const hide = { hiddenAt: new Date(), hiddenReason: 'Publicidad' }
    await getDb().update(communityPosts).set(hide).where(eq(communityPosts.id, hidden))
    await getDb().update(communityComments).set(hide).where(eq(communityComments.id, hiddenComment))
    await getDb()
      .update(profiles)
      .set({ suspendedUntil: new Date(Date.now() + 86_400_000), suspensionReason: 'Spam repetido' })
      .where(eq(profiles.userId, member.userId))

    const edit = (postId: string) =>
      feedAction({ intent: 'update-post', postId, title: 'Sin enlaces', content: 'Corregido' }, member.cookie)
    expect((await edit(hidden)).data.message.title).toBe('Post actualizado')
    expect((await edit(visible)).data.message.title).toBe(READ_ONLY)
    const comment = (commentId: string) => feedAction({ intent: 'update-comment', commentId, content: 'Corregido' }, member.cookie)
    expect((await comment(hiddenComment)).data.message.title).toBe('Comentario actualizado')
    expect((await comment(visibleComment)).data.message.title).toBe(READ_ONLY)
    const video = (fields: Record<string, string>) =>
      run(() =>
        videoRoute.action({
          request: formRequest(`/video/${sessionId}`, fields, { cookie: member.cookie }),
          params: { sessionId },
          context,
        } as any),
      )
    expect((await video({ intent: 'update-comment', commentId: sessionComment!.id, content: 'Corregido' })).data.message.title).toBe(
      'Comentario actualizado',
    )
    expect((await video({ intent: 'add-comment', sessionId, content: 'Hola' })).data.message.title).toBe(READ_ONLY)

    const review = (kind: string, itemId: string) =>
      run(() =>
        reportRoute.action({
          request: formRequest('/moderacion/informar', { intent: 'request-review', kind, itemId }, { cookie: member.cookie }),
          params: {},
          context,
        } as any),
      )
    for (const [kind, itemId] of [
      ['post', hidden],
      ['comment', hiddenComment],
      ['session_comment', sessionComment!.id],
    ]) {
      expect((await review(kind!, itemId!)).data.message.title, kind).toBe(MODERATION_MESSAGES.reviewAsked)
    }
    const reported = await run(() =>
      reportRoute.action({
        request: formRequest(
          '/moderacion/informar',
          { intent: 'report', kind: 'post', itemId: visible, reason: 'spam' },
          { cookie: member.cookie },
        ),
        params: {},
        context,
      } as any),
    )
    expect(reported.data.message.title).toBe(READ_ONLY)
    const [post] = await getDb()
      .select({ title: communityPosts.title, reviewRequestedAt: communityPosts.reviewRequestedAt })
      .from(communityPosts)
      .where(eq(communityPosts.id, hidden))
    expect(post).toEqual({ title: 'Sin enlaces', reviewRequestedAt: expect.any(Date) })
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

describe('decisions about one member, one at a time', () => {
  concurrencyTest('two moderators suspending one member at once: one suspension and one e-mail; the other is told', async () => {
    const [member, first, second] = [await person('premium'), await person('moderator'), await person('moderator')]
    const outcomes = await Promise.all([
      onMember({ userId: member.userId, action: 'suspend', days: '7', reason: 'Publicidad' }, first.cookie),
      onMember({ userId: member.userId, action: 'suspend', days: '30', reason: 'Spam' }, second.cookie),
    ])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 409])
    expect(outcomes.find((outcome) => outcome.status === 409)!.data.message.title).toBe(MODERATION_MESSAGES.memberTaken)
    expect(await queuedMails(member.email, 'Tu cuenta está en modo lectura')).toHaveLength(1)
    const decided = await getDb()
      .select({ action: moderationDecisions.action })
      .from(moderationDecisions)
      .where(eq(moderationDecisions.userId, member.userId))
    expect(decided).toEqual([{ action: 'suspend' }])
  })

  test('a suspension after an expulsion does not overwrite it', async () => {
    const [member, moderator, admin] = [await person('premium'), await person('moderator'), await person('admin')]
    expect((await onMember({ userId: member.userId, action: 'ban', reason: 'Acoso' }, admin.cookie)).status).toBe(302)
    const late = await onMember({ userId: member.userId, action: 'suspend', days: '1', reason: 'Spam' }, moderator.cookie)
    expect(late.status).toBe(409)
    expect(late.data.message.title).toBe(MODERATION_MESSAGES.memberTaken)
    const [row] = await getDb()
      .select({ until: profiles.suspendedUntil, reason: profiles.suspensionReason, bannedAt: profiles.bannedAt })
      .from(profiles)
      .where(eq(profiles.userId, member.userId))
    expect(row).toEqual({ until: null, reason: 'Acoso', bannedAt: expect.any(Date) })
    expect(await queuedMails(member.email, 'Tu cuenta está en modo lectura')).toHaveLength(0)
  })

  concurrencyTest('a lift racing an expulsion cannot undo it', async () => {
    const [member, moderator] = [await person('premium'), await person('moderator')]
    await onMember({ userId: member.userId, action: 'suspend', days: '7', reason: 'Spam' }, moderator.cookie)
    let lifted: ReturnType<typeof onMember> | undefined
    // An admin's expulsion, held open: the moderator's 'Levantar' arrives meanwhile.
    await getDb().transaction(async (tx) => {
      await tx.update(profiles).set({ bannedAt: new Date(), suspensionReason: 'Acoso' }).where(eq(profiles.userId, member.userId))
      lifted = onMember({ userId: member.userId, action: 'lift' }, moderator.cookie)
      await new Promise((resolve) => setTimeout(resolve, 600))
    })
    expect((await lifted!).status).toBe(403)
    const [row] = await getDb()
      .select({ bannedAt: profiles.bannedAt, reason: profiles.suspensionReason })
      .from(profiles)
      .where(eq(profiles.userId, member.userId))
    expect(row).toEqual({ bannedAt: expect.any(Date), reason: 'Acoso' })
  })

  test('the suspension e-mail and the stored end agree across a change of time in Madrid', async () => {
    const [member, moderator] = [await person('premium'), await person('moderator')]
    // 10:00 in Madrid on Tuesday 20 October 2026; the clocks go back on Sunday the 25th.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-10-20T08:00:00Z'))
    // A database server set to the community's zone, as one in Spain may be: its intervals count days on the wall clock.
    await getDb().execute(sql`set timezone to 'Europe/Madrid'`)
    try {
      expect((await onMember({ userId: member.userId, action: 'suspend', days: '7', reason: 'Spam' }, moderator.cookie)).status).toBe(302)
    } finally {
      vi.useRealTimers()
      await getDb().execute(sql`reset timezone`)
    }
    const [row] = await getDb().select({ until: profiles.suspendedUntil }).from(profiles).where(eq(profiles.userId, member.userId))
    expect(row!.until).toEqual(new Date('2026-10-27T08:00:00Z'))
    const mail = await latestMailTo(member.email, 'Tu cuenta está en modo lectura')
    expect(mail!.text).toContain(`hasta el ${fullDateTime(row!.until!)}`)
    expect(fullDateTime(row!.until!)).toBe('27 de octubre de 2026, 09:00')
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
