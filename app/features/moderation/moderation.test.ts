import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { communityComments, communityPosts } from '~/features/feed/schema'
import { listMostActivePosts } from '~/features/feed/posts.server'
import { communityCounters } from '~/features/community/schema'
import { notifications } from '~/features/notifications/schema'
import { auditLog } from '~/platform/audit/schema'
import { getDb } from '~/platform/db/client.server'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction, feedLoader } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { type createConfirmedUser, formRequest, getRequest, readToast, run } from '../../../tests/setup/requests'
import * as queueRoute from './queue.route'
import { MODERATION_MESSAGES } from './reasons'
import * as reportRoute from './report.route'
import { moderationReports } from './schema'

useTestDatabase()

const context = { cspNonce: 'test' }
type Person = Awaited<ReturnType<typeof createConfirmedUser>>
const person = (persona: 'member' | 'premium' | 'moderator' | 'admin') => createPersona(persona) as Promise<Person>
const send = (fields: Record<string, string>, cookie?: string) =>
  run(() => reportRoute.action({ request: formRequest('/moderacion/informar', fields, { cookie }), params: {}, context } as any))
const report = (itemId: string, cookie?: string, fields: Record<string, string> = {}) =>
  send({ intent: 'report', kind: 'post', itemId, reason: 'spam', ...fields }, cookie)
const queue = (cookie?: string) =>
  run(() => queueRoute.loader({ request: getRequest('/admin/moderacion', { cookie }), params: {}, context } as any))
const decide = (fields: Record<string, string>, cookie?: string) =>
  run(() =>
    queueRoute.action({
      request: formRequest('/admin/moderacion', { intent: 'decide', ...fields }, { cookie }),
      params: {},
      context,
    } as any),
  )
const notificationsOf = (userId: string, type: 'moderation_report' | 'moderation_outcome' | 'moderation_decision') =>
  getDb()
    .select({ title: notifications.title, message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)))
const feedIds = async (cookie: string) => (await feedLoader('', cookie)).data.feed.items.map((post: { id: string }) => post.id) as string[]

describe("'Informar'", () => {
  test('a member reports a post once; moderators and admins hear of it; own, unknown and malformed reports are refused', async () => {
    const [author, reader, moderator, admin] = [
      await person('premium'),
      await person('member'),
      await person('moderator'),
      await person('admin'),
    ]
    const postId = await createPost(author.cookie, { title: 'Oferta increíble' })

    const sent = await report(postId, reader.cookie, { reason: 'spam', note: 'Publicidad de su empresa' })
    expect(sent.status).toBe(200)
    expect(sent.data.message.title).toBe(MODERATION_MESSAGES.received)
    for (const staff of [moderator, admin]) {
      expect(await notificationsOf(staff.userId, 'moderation_report')).toEqual([
        { title: 'Nuevo informe', message: expect.stringContaining('Spam: «Oferta increíble') },
      ])
    }
    expect(await notificationsOf(author.userId, 'moderation_report')).toEqual([])

    const again = await report(postId, reader.cookie, { reason: 'offensive' })
    expect(again.status).toBe(409)
    expect(again.data.message.title).toBe(MODERATION_MESSAGES.already)
    const own = await report(postId, author.cookie)
    expect(own.status).toBe(400)
    expect(own.data.message.title).toBe(MODERATION_MESSAGES.own)
    expect((await report(crypto.randomUUID(), reader.cookie)).status).toBe(404)
    for (const fields of [{ reason: 'aburrido' }, { kind: 'usuario' }, { note: 'x'.repeat(501) }, { itemId: "1' or '1'='1" }] as Array<
      Record<string, string>
    >) {
      expect((await report(postId, moderator.cookie, fields)).status, JSON.stringify(fields).slice(0, 40)).toBe(400)
    }
    expect((await report(postId)).location).toMatch(/^\/auth/)
    expect(await getDb().select().from(moderationReports).where(eq(moderationReports.itemId, postId))).toHaveLength(1)
  })

  test('without JavaScript, the form has a page of its own; any other address there goes back to the community', async () => {
    const reader = await person('member')
    const page = (query: string, cookie?: string) =>
      run(() => reportRoute.loader({ request: getRequest(`/moderacion/informar${query}`, { cookie }), params: {}, context } as any))
    const itemId = crypto.randomUUID()
    expect((await page(`?tipo=comment&id=${itemId}`, reader.cookie)).data).toEqual({ kind: 'comment', itemId })
    expect((await page(`?tipo=member&id=${itemId}`, reader.cookie)).data).toEqual({ kind: 'member', itemId })
    for (const query of [
      '',
      '?tipo=post',
      `?tipo=usuario&id=${itemId}`,
      '?tipo=post&id=1%27%20or%201=1',
      `?tipo=post&id=${'a'.repeat(5000)}`,
    ]) {
      expect((await page(query, reader.cookie)).location, query.slice(0, 30)).toBe('/comunidad')
    }
    expect((await page(`?tipo=post&id=${itemId}`)).location).toMatch(/^\/auth/)
  })

  test('ten reports an hour at most', async () => {
    const [author, reader] = [await person('premium'), await person('member')]
    for (let i = 0; i < 10; i++) expect((await report(await createPost(author.cookie), reader.cookie)).status).toBe(200)
    expect((await report(await createPost(author.cookie), reader.cookie)).status).toBe(429)
  })
})

describe('the queue at /admin/moderacion', () => {
  test('moderators and admins only: a visitor signs in, members do not find it', async () => {
    const [member, premium, moderator, admin] = [
      await person('member'),
      await person('premium'),
      await person('moderator'),
      await person('admin'),
    ]
    expect((await queue()).location).toMatch(/^\/auth/)
    for (const who of [member, premium]) {
      expect((await queue(who.cookie)).status).toBe(404)
      expect((await decide({ kind: 'post', itemId: crypto.randomUUID(), action: 'dismiss' }, who.cookie)).status).toBe(404)
    }
    expect((await queue(moderator.cookie)).status).toBe(200)
    expect((await queue(admin.cookie)).status).toBe(200)
  })

  test('hiding with a reason: others no longer see the post, its author sees why; reporters and author are told; audited; a second decision is refused', async () => {
    const [author, reader, other, moderator, admin] = [
      await person('premium'),
      await person('member'),
      await person('premium'),
      await person('moderator'),
      await person('admin'),
    ]
    const postId = await createPost(author.cookie, { title: 'Datos de un paciente' })
    await report(postId, reader.cookie, { reason: 'confidential', note: 'Nombre y diagnóstico' })
    await report(postId, other.cookie, { reason: 'confidential' })

    const listed = await queue(moderator.cookie)
    const entry = listed.data.queue.find((item: { itemId: string }) => item.itemId === postId)
    expect(entry).toMatchObject({
      kind: 'post',
      reports: 2,
      reasons: ['confidential'],
      notes: ['Nombre y diagnóstico'],
      review: false,
      hidden: false,
    })
    expect(entry.text).toContain('Datos de un paciente')

    expect((await decide({ kind: 'post', itemId: postId, action: 'hide' }, moderator.cookie)).data.message.title).toBe(
      MODERATION_MESSAGES.reasonRequired,
    )
    const postsCounted = async () =>
      (await getDb().select({ value: communityCounters.value }).from(communityCounters).where(eq(communityCounters.name, 'posts')))[0]!
        .value
    const before = await postsCounted()
    const hidden = await decide(
      { kind: 'post', itemId: postId, action: 'hide', reason: 'Contiene datos personales de un paciente' },
      moderator.cookie,
    )
    expect(hidden.location).toBe('/admin/moderacion')
    expect(await readToast(hidden.headers)).toMatchObject({ title: MODERATION_MESSAGES.hidden })
    expect((await decide({ kind: 'post', itemId: postId, action: 'dismiss' }, admin.cookie)).status).toBe(409)

    expect(await feedIds(reader.cookie)).not.toContain(postId)
    expect(await feedIds(other.cookie)).not.toContain(postId)
    // The stats panel and the digest count only what members can see.
    expect(await postsCounted()).toBe(before - 1)
    expect((await listMostActivePosts(new Date(Date.now() - 3_600_000), 50)).map((post) => post.id)).not.toContain(postId)
    const mine = (await feedLoader('', author.cookie)).data.feed.items.find((post: { id: string }) => post.id === postId)
    expect(mine.moderation).toEqual({ reason: 'Contiene datos personales de un paciente', reviewRequested: false })
    // Reporting what is hidden finds nothing.
    expect((await report(postId, admin.cookie)).status).toBe(404)

    for (const reporter of [reader, other]) {
      const [told] = await notificationsOf(reporter.userId, 'moderation_outcome')
      expect(told!.message).toContain('lo hemos ocultado')
      expect(JSON.stringify(told)).not.toContain('moderator')
    }
    expect(await notificationsOf(author.userId, 'moderation_decision')).toEqual([
      { title: 'Hemos ocultado un contenido tuyo', message: expect.stringContaining('Contiene datos personales de un paciente') },
    ])
    const [line] = await getDb()
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, author.userId))
    expect(line).toEqual({ action: 'content_hidden', actor: moderator.userId })
    expect((await queue(moderator.cookie)).data.queue.find((item: { itemId: string }) => item.itemId === postId)).toBeUndefined()

    // The author asks for a review; it comes back to the queue; restored, everyone sees it again.
    const asked = await send({ intent: 'request-review', kind: 'post', itemId: postId }, author.cookie)
    expect(asked.data.message.title).toBe(MODERATION_MESSAGES.reviewAsked)
    expect((await send({ intent: 'request-review', kind: 'post', itemId: postId }, reader.cookie)).status).toBe(409)
    const review = (await queue(admin.cookie)).data.queue.find((item: { itemId: string }) => item.itemId === postId)
    expect(review).toMatchObject({
      review: true,
      hidden: true,
      history: [{ action: 'hide', reason: 'Contiene datos personales de un paciente' }],
    })
    expect((await decide({ kind: 'post', itemId: postId, action: 'restore' }, admin.cookie)).status).toBe(302)
    expect(await feedIds(reader.cookie)).toContain(postId)
    expect(await postsCounted()).toBe(before)
    expect((await decide({ kind: 'post', itemId: postId, action: 'restore' }, moderator.cookie)).status).toBe(409)
  })

  test('a hidden comment leaves its thread and its count; with replies, others see a placeholder; dismissing keeps it', async () => {
    const [author, commenter, replier, moderator] = [
      await person('premium'),
      await person('premium'),
      await person('premium'),
      await person('moderator'),
    ]
    const postId = await createPost(author.cookie)
    await feedAction({ intent: 'add-comment', postId, content: 'Comentario ofensivo' }, commenter.cookie)
    await feedAction({ intent: 'add-comment', postId, content: 'Comentario correcto' }, commenter.cookie)
    const [offensive] = await getDb()
      .select({ id: communityComments.id })
      .from(communityComments)
      .where(eq(communityComments.content, 'Comentario ofensivo'))
    const [fine] = await getDb()
      .select({ id: communityComments.id })
      .from(communityComments)
      .where(eq(communityComments.content, 'Comentario correcto'))
    await feedAction({ intent: 'add-comment', postId, content: 'Una respuesta', parentCommentId: offensive!.id }, replier.cookie)

    await send({ intent: 'report', kind: 'comment', itemId: offensive!.id, reason: 'offensive' }, author.cookie)
    await send({ intent: 'report', kind: 'comment', itemId: fine!.id, reason: 'off_topic' }, author.cookie)
    expect(
      (await decide({ kind: 'comment', itemId: offensive!.id, action: 'hide', reason: 'Lenguaje ofensivo' }, moderator.cookie)).status,
    ).toBe(302)
    expect((await decide({ kind: 'comment', itemId: fine!.id, action: 'dismiss' }, moderator.cookie)).status).toBe(302)

    const [post] = await getDb()
      .select({ commentCount: communityPosts.commentCount })
      .from(communityPosts)
      .where(eq(communityPosts.id, postId))
    expect(post!.commentCount).toBe(2)
    const seen = (await feedLoader(`?comentarios=${postId}`, author.cookie)).data.openComments.comments
    const placeholder = seen.find((comment: { id: string }) => comment.id === offensive!.id)
    expect(placeholder).toMatchObject({ content: '', author: { userId: null, name: '' }, moderation: { reason: null } })
    expect(JSON.stringify(seen)).not.toContain('Comentario ofensivo')
    expect(seen.map((comment: { content: string }) => comment.content)).toEqual(
      expect.arrayContaining(['Comentario correcto', 'Una respuesta']),
    )
    const theirs = (await feedLoader(`?comentarios=${postId}`, commenter.cookie)).data.openComments.comments
    expect(theirs.find((comment: { id: string }) => comment.id === offensive!.id)).toMatchObject({
      content: 'Comentario ofensivo',
      moderation: { reason: 'Lenguaje ofensivo', reviewRequested: false },
    })
    // Without the reply, others see nothing of it.
    await feedAction({ intent: 'delete-comment', commentId: offensive!.id }, commenter.cookie)
    const [after] = await getDb()
      .select({ commentCount: communityPosts.commentCount })
      .from(communityPosts)
      .where(eq(communityPosts.id, postId))
    expect(after!.commentCount).toBe(1)
    const [told] = await notificationsOf(author.userId, 'moderation_outcome')
    expect(told!.message).toMatch(/no infringe las normas|lo hemos ocultado/)
  })

  concurrencyTest('two moderators deciding on one item at once: one decision wins, the other is told', async () => {
    const [author, reader, first, second] = [
      await person('premium'),
      await person('member'),
      await person('moderator'),
      await person('admin'),
    ]
    const postId = await createPost(author.cookie)
    await report(postId, reader.cookie)
    const outcomes = await Promise.all([
      decide({ kind: 'post', itemId: postId, action: 'hide', reason: 'Spam' }, first.cookie),
      decide({ kind: 'post', itemId: postId, action: 'dismiss' }, second.cookie),
    ])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 409])
    expect(outcomes.find((outcome) => outcome.status === 409)!.data.message.title).toBe(MODERATION_MESSAGES.taken)
    const decisions = await getDb().select().from(auditLog).where(eq(auditLog.targetUserId, author.userId))
    expect(decisions).toHaveLength(1)
  })

  // Here only the item's lock decides: no report is closed, so nothing else makes the second wait.
  concurrencyTest('two moderators deciding one review request at once: one decision wins, the other is told', async () => {
    const [author, reader, first, second] = [
      await person('premium'),
      await person('member'),
      await person('moderator'),
      await person('admin'),
    ]
    const postId = await createPost(author.cookie)
    await report(postId, reader.cookie)
    await decide({ kind: 'post', itemId: postId, action: 'hide', reason: 'Spam' }, first.cookie)
    await send({ intent: 'request-review', kind: 'post', itemId: postId }, author.cookie)
    const outcomes = await Promise.all([
      decide({ kind: 'post', itemId: postId, action: 'restore' }, first.cookie),
      decide({ kind: 'post', itemId: postId, action: 'restore' }, second.cookie),
    ])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 409])
    const restored = await getDb()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, author.userId), eq(auditLog.action, 'content_restored')))
    expect(restored).toHaveLength(1)
    expect(await notificationsOf(author.userId, 'moderation_decision')).toHaveLength(2)
  })

  test('a decision that finds the item already decided changes nothing: the reports it found stay open for the next one', async () => {
    const [author, reader, late, moderator] = [
      await person('premium'),
      await person('member'),
      await person('member'),
      await person('moderator'),
    ]
    const postId = await createPost(author.cookie)
    await report(postId, reader.cookie)
    await decide({ kind: 'post', itemId: postId, action: 'hide', reason: 'Spam' }, moderator.cookie)
    // A report that reached the item while it was being hidden (as one could, before reports read it under its lock).
    await getDb().insert(moderationReports).values({ userId: late.userId, kind: 'post', itemId: postId, reason: 'spam' })
    const again = await decide({ kind: 'post', itemId: postId, action: 'hide', reason: 'Otra vez' }, moderator.cookie)
    expect(again.status).toBe(409)
    expect(again.data.message.title).toBe(MODERATION_MESSAGES.taken)
    const lateReports = await getDb()
      .select({ status: moderationReports.status })
      .from(moderationReports)
      .where(and(eq(moderationReports.itemId, postId), eq(moderationReports.userId, late.userId)))
    expect(lateReports).toEqual([{ status: 'open' }])
    expect(await notificationsOf(late.userId, 'moderation_outcome')).toEqual([])
    const audited = await getDb().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetUserId, author.userId))
    expect(audited).toEqual([{ action: 'content_hidden' }])
  })

  concurrencyTest('a report sent while a decision hides the item is refused and leaves no open report behind', async () => {
    const [author, reader] = [await person('premium'), await person('member')]
    const postId = await createPost(author.cookie)
    let reported: ReturnType<typeof report> | undefined
    // A moderator's decision, held open: the report arrives meanwhile.
    await getDb().transaction(async (tx) => {
      await tx.update(communityPosts).set({ hiddenAt: new Date(), hiddenReason: 'Spam' }).where(eq(communityPosts.id, postId))
      reported = report(postId, reader.cookie)
      await new Promise((resolve) => setTimeout(resolve, 600))
    })
    const outcome = await reported!
    expect(outcome.status).toBe(404)
    expect(outcome.data.message.title).toBe(MODERATION_MESSAGES.gone)
    expect(
      await getDb()
        .select({ id: moderationReports.id })
        .from(moderationReports)
        .where(and(eq(moderationReports.itemId, postId), eq(moderationReports.status, 'open'))),
    ).toEqual([])
  })
})
