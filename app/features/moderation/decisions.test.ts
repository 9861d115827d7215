import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import { profiles } from '~/features/account/schema'
import * as videoRoute from '~/features/ceo-sessions/video.route'
import { ceoSessionComments } from '~/features/ceo-sessions/schema'
import { communityComments, communityPosts, postAttachments } from '~/features/feed/schema'
import { notifications } from '~/features/notifications/schema'
import { auditLog } from '~/platform/audit/schema'
import { getDb } from '~/platform/db/client.server'
import { getStorage } from '~/platform/storage/storage.server'
import { type PlanNode, plansOf, useTestDatabase } from '../../../tests/setup/database'
import { createPost, createPostWithFiles, feedAction, feedLoader } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { newSession } from '../../../tests/setup/sessions'
import { type createConfirmedUser, formRequest, getRequest, latestMailTo, readToast, run } from '../../../tests/setup/requests'
import * as queueRoute from './queue.route'
import { decodeQueueCursor, historyQuery, QUEUE_SIZE, type QueueCursor, restrictedQuery, waitingQuery } from './moderation.server'
import { MODERATION_MESSAGES } from './reasons'
import * as reportRoute from './report.route'
import { moderationDecisions, moderationReports } from './schema'

/**
 * Issue 28's second part: reporting a member, 'Eliminar' and 'Advertir al autor' from the queue,
 * the e-mails of warnings, suspensions and expulsions, the accounts under a suspension, older
 * notifications of what is hidden, and the queue's pages.
 */

useTestDatabase()

const context = { cspNonce: 'test' }
type Person = Awaited<ReturnType<typeof createConfirmedUser>>
const person = (persona: 'member' | 'premium' | 'moderator' | 'admin', names: { firstName?: string; lastName?: string } = {}) =>
  createPersona(persona, names) as Promise<Person>
const send = (fields: Record<string, string>, cookie?: string) =>
  run(() => reportRoute.action({ request: formRequest('/moderacion/informar', fields, { cookie }), params: {}, context } as any))
const queue = (cookie?: string, query = '') =>
  run(() => queueRoute.loader({ request: getRequest(`/admin/moderacion${query}`, { cookie }), params: {}, context } as any))
const act = (fields: Record<string, string>, cookie?: string) =>
  run(() => queueRoute.action({ request: formRequest('/admin/moderacion', fields, { cookie }), params: {}, context } as any))
const onMember = (fields: Record<string, string>, cookie?: string) => act({ intent: 'member', ...fields }, cookie)
const decide = (fields: Record<string, string>, cookie?: string) => act({ intent: 'decide', ...fields }, cookie)
const messagesOf = async (userId: string, type: 'moderation_outcome' | 'moderation_decision') =>
  (
    await getDb()
      .select({ title: notifications.title, message: notifications.message })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, type)))
      .orderBy(notifications.createdAt)
  ).map((row) => `${row.title} — ${row.message}`)
const entryOf = async (cookie: string, itemId: string) =>
  (await queue(cookie)).data.queue.find((entry: { itemId: string }) => entry.itemId === itemId)
const auditOf = async (userId: string) =>
  (await getDb().select({ action: auditLog.action, actor: auditLog.actorUserId }).from(auditLog).where(eq(auditLog.targetUserId, userId)))
    .map((line) => line.action)
    .sort()

describe('reporting a member', () => {
  test('a member reports another from their profile; moderators warn them: reporters, the member and the e-mail say so; audited and in the history', async () => {
    const [target, reader, other, moderator] = [
      await person('premium', { firstName: 'Rafael', lastName: 'Insistente' }),
      await person('premium'),
      await person('member'),
      await person('moderator'),
    ]
    const member = (fields: Record<string, string>, cookie?: string) =>
      send({ intent: 'report', kind: 'member', itemId: target.userId, reason: 'offensive', ...fields }, cookie)

    expect((await member({ note: 'Me escribe mensajes insistentes' }, reader.cookie)).data.message.title).toBe(MODERATION_MESSAGES.received)
    expect((await member({ reason: 'spam' }, other.cookie)).status).toBe(200)
    expect((await member({}, reader.cookie)).status).toBe(409)
    expect((await member({}, target.cookie)).data.message.title).toBe(MODERATION_MESSAGES.own)
    const unknown = await send({ intent: 'report', kind: 'member', itemId: crypto.randomUUID(), reason: 'spam' }, reader.cookie)
    expect(unknown.status).toBe(404)
    expect(unknown.data.message.title).toBe(MODERATION_MESSAGES.memberGone)
    expect((await send({ intent: 'report', kind: 'member', itemId: 'nadie', reason: 'spam' }, reader.cookie)).status).toBe(400)

    const entry = await entryOf(moderator.cookie, target.userId)
    expect(entry).toMatchObject({
      kind: 'member',
      reports: 2,
      reasons: expect.arrayContaining(['offensive', 'spam']),
      notes: ['Me escribe mensajes insistentes'],
      link: `/usuario/${target.userId}`,
      author: 'Rafael Insistente',
      authorId: target.userId,
    })
    expect(entry.text).toMatch(/^Perfil de Rafael Insistente/)
    // An item's decisions do not apply to a member.
    expect((await decide({ kind: 'member', itemId: target.userId, action: 'hide', reason: 'x' }, moderator.cookie)).status).toBe(400)

    expect((await onMember({ userId: target.userId, action: 'warn' }, moderator.cookie)).data.message.title).toBe(
      MODERATION_MESSAGES.reasonRequired,
    )
    const warned = await onMember(
      { userId: target.userId, action: 'warn', reason: 'Trata con respeto a los demás miembros' },
      moderator.cookie,
    )
    expect(warned.location).toBe('/admin/moderacion')
    expect(await readToast(warned.headers)).toMatchObject({ title: MODERATION_MESSAGES.warned })
    expect(await entryOf(moderator.cookie, target.userId)).toBeUndefined()
    for (const reporter of [reader, other]) {
      expect(await messagesOf(reporter.userId, 'moderation_outcome')).toEqual([
        'Hemos revisado tu informe — Sobre el perfil de Rafael Insistente: hemos advertido a esa persona. Gracias por avisarnos.',
      ])
    }
    expect(await messagesOf(target.userId, 'moderation_decision')).toEqual([
      'Un aviso del equipo de moderación — El equipo de moderación te envía este aviso: Trata con respeto a los demás miembros',
    ])
    const mail = await latestMailTo(target.email, 'Un aviso del equipo de moderación')
    expect(mail!.text).toContain('Trata con respeto a los demás miembros')
    expect(mail!.text).not.toContain(moderator.email)
    expect(await auditOf(target.userId)).toEqual(['member_warned'])
    expect(
      await getDb().select({ status: moderationReports.status }).from(moderationReports).where(eq(moderationReports.itemId, target.userId)),
    ).toEqual([{ status: 'actioned' }, { status: 'actioned' }])

    // A new report, dismissed: the history shows the warning; a second dismissal finds nothing.
    await member({ reason: 'other' }, reader.cookie)
    expect((await entryOf(moderator.cookie, target.userId)).history).toEqual([
      expect.objectContaining({ action: 'warn', reason: 'Trata con respeto a los demás miembros' }),
    ])
    expect(await readToast((await onMember({ userId: target.userId, action: 'dismiss' }, moderator.cookie)).headers)).toMatchObject({
      title: MODERATION_MESSAGES.dismissed,
    })
    expect((await onMember({ userId: target.userId, action: 'dismiss' }, moderator.cookie)).status).toBe(409)
    expect((await messagesOf(reader.userId, 'moderation_outcome'))[1]).toContain('no infringe las normas')
  })

  test('staff are not warned from the queue; members and premium members cannot decide; hostile fields are refused', async () => {
    const [member, premium, moderator, admin] = [
      await person('member'),
      await person('premium'),
      await person('moderator'),
      await person('admin'),
    ]
    expect((await onMember({ userId: admin.userId, action: 'warn', reason: 'x' }, moderator.cookie)).data.message.title).toBe(
      MODERATION_MESSAGES.staff,
    )
    for (const who of [member, premium]) {
      expect((await onMember({ userId: member.userId, action: 'warn', reason: 'x' }, who.cookie)).status).toBe(404)
    }
    expect((await onMember({ userId: member.userId, action: 'warn', reason: 'x' })).location).toMatch(/^\/auth/)
    for (const fields of [
      { action: 'borrar' },
      { action: 'warn', reason: 'x'.repeat(501) },
      { action: 'suspend', days: '3', reason: 'x' },
      { action: 'suspend', days: '7', reason: 'x', userId: 'x'.repeat(101) },
    ] as Array<Record<string, string>>) {
      expect((await onMember({ userId: member.userId, ...fields }, admin.cookie)).status, JSON.stringify(fields).slice(0, 60)).toBe(400)
    }
    expect(await auditOf(member.userId)).toEqual([])
  })
})

describe("'Eliminar' from the queue", () => {
  test('a reported post goes with its attachment; reporters and author are told why; audited; a second decision finds nothing', async () => {
    const [author, reader, moderator] = [await person('premium'), await person('member'), await person('moderator')]
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
    const postId = (
      await createPostWithFiles(
        { title: 'Compra seguidores', postType: 'document' },
        [{ bytes: pdf, name: 'oferta.pdf', type: 'application/pdf' }],
        author.cookie,
      )
    ).data.postId as string
    const [attachment] = await getDb()
      .select({ key: postAttachments.filePath })
      .from(postAttachments)
      .where(eq(postAttachments.postId, postId))
    expect(await getStorage().size(attachment!.key)).toBeGreaterThan(0)
    await send({ intent: 'report', kind: 'post', itemId: postId, reason: 'spam' }, reader.cookie)

    expect((await decide({ kind: 'post', itemId: postId, action: 'delete' }, moderator.cookie)).data.message.title).toBe(
      MODERATION_MESSAGES.reasonRequired,
    )
    const deleted = await decide({ kind: 'post', itemId: postId, action: 'delete', reason: 'Publicidad no permitida' }, moderator.cookie)
    expect(await readToast(deleted.headers)).toMatchObject({ title: MODERATION_MESSAGES.deleted })
    expect(await getDb().select().from(communityPosts).where(eq(communityPosts.id, postId))).toEqual([])
    expect(await getStorage().size(attachment!.key)).toBeNull()
    expect((await feedLoader('', author.cookie)).data.feed.items.map((post: { id: string }) => post.id)).not.toContain(postId)
    expect(await messagesOf(reader.userId, 'moderation_outcome')).toEqual([expect.stringContaining('lo hemos eliminado')])
    // The author's notice outlives the post it was about.
    expect(await messagesOf(author.userId, 'moderation_decision')).toEqual([
      'Hemos eliminado un contenido tuyo — «Compra seguidores — »: Publicidad no permitida',
    ])
    expect(await auditOf(author.userId)).toEqual(['content_deleted'])
    const [decision] = await getDb()
      .select({ action: moderationDecisions.action, reason: moderationDecisions.reason })
      .from(moderationDecisions)
      .where(eq(moderationDecisions.itemId, postId))
    expect(decision).toEqual({ action: 'delete', reason: 'Publicidad no permitida' })
    expect((await decide({ kind: 'post', itemId: postId, action: 'delete', reason: 'Otra vez' }, moderator.cookie)).status).toBe(404)
  })

  test('a reported comment goes with its replies and leaves the count right; an unreported one cannot be deleted from the queue', async () => {
    const [author, commenter, replier, moderator] = [
      await person('premium'),
      await person('premium'),
      await person('premium'),
      await person('moderator'),
    ]
    const postId = await createPost(author.cookie)
    await feedAction({ intent: 'add-comment', postId, content: 'Insulto' }, commenter.cookie)
    await feedAction({ intent: 'add-comment', postId, content: 'Opinión' }, commenter.cookie)
    const idOf = async (content: string) =>
      (await getDb().select({ id: communityComments.id }).from(communityComments).where(eq(communityComments.content, content)))[0]!.id
    const insult = await idOf('Insulto')
    await feedAction({ intent: 'add-comment', postId, content: 'Respuesta al insulto', parentCommentId: insult }, replier.cookie)
    await send({ intent: 'report', kind: 'comment', itemId: insult, reason: 'offensive' }, author.cookie)

    expect((await decide({ kind: 'comment', itemId: await idOf('Opinión'), action: 'delete', reason: 'x' }, moderator.cookie)).status).toBe(
      409,
    )
    expect((await decide({ kind: 'comment', itemId: insult, action: 'delete', reason: 'Insultos' }, moderator.cookie)).status).toBe(302)
    const left = await getDb()
      .select({ content: communityComments.content })
      .from(communityComments)
      .where(eq(communityComments.postId, postId))
    expect(left).toEqual([{ content: 'Opinión' }])
    const [post] = await getDb()
      .select({ commentCount: communityPosts.commentCount })
      .from(communityPosts)
      .where(eq(communityPosts.id, postId))
    expect(post!.commentCount).toBe(1)
    expect(await messagesOf(commenter.userId, 'moderation_decision')).toEqual(['Hemos eliminado un contenido tuyo — «Insulto»: Insultos'])
  })
})

describe('what moderation tells and keeps', () => {
  test('a hidden post leaves the bells of everyone but its author; a hidden comment, the bell of the one it answered', async () => {
    const [author, commenter, replier, reader, moderator] = [
      await person('premium'),
      await person('premium'),
      await person('premium'),
      await person('member'),
      await person('moderator'),
    ]
    const postId = await createPost(author.cookie, { title: 'Hilo polémico' })
    await feedAction({ intent: 'add-comment', postId, content: 'Primer comentario' }, commenter.cookie)
    const [first] = await getDb().select({ id: communityComments.id }).from(communityComments).where(eq(communityComments.postId, postId))
    await feedAction({ intent: 'add-comment', postId, content: 'Respuesta grosera', parentCommentId: first!.id }, replier.cookie)
    const [rude] = await getDb()
      .select({ id: communityComments.id })
      .from(communityComments)
      .where(eq(communityComments.content, 'Respuesta grosera'))
    const bell = async (userId: string) =>
      (await getDb().select({ type: notifications.type }).from(notifications).where(eq(notifications.userId, userId)))
        .map((row) => row.type)
        .sort()
    expect(await bell(commenter.userId)).toEqual(['comment_reply'])
    expect(await bell(author.userId)).toEqual(['comment', 'comment'])

    await send({ intent: 'report', kind: 'comment', itemId: rude!.id, reason: 'offensive' }, reader.cookie)
    await decide({ kind: 'comment', itemId: rude!.id, action: 'hide', reason: 'Falta de respeto' }, moderator.cookie)
    expect(await bell(commenter.userId)).toEqual([])
    expect(await bell(author.userId)).toEqual(['comment'])

    await send({ intent: 'report', kind: 'post', itemId: postId, reason: 'off_topic' }, reader.cookie)
    await decide({ kind: 'post', itemId: postId, action: 'hide', reason: 'Fuera de tema' }, moderator.cookie)
    // The author keeps what was said on their post, and hears why it was hidden.
    expect(await bell(author.userId)).toEqual(['comment', 'moderation_decision'])
  })

  test('suspending and expelling reach the member by e-mail; the queue lists limited accounts; only an admin lets an expelled member back', async () => {
    const [suspended, expelled, moderator, admin] = [
      await person('premium', { firstName: 'Sara', lastName: 'Suspendida' }),
      await person('premium', { firstName: 'Ernesto', lastName: 'Expulsado' }),
      await person('moderator'),
      await person('admin'),
    ]
    await onMember({ userId: suspended.userId, action: 'suspend', days: '30', reason: 'Spam reiterado' }, moderator.cookie)
    await onMember({ userId: expelled.userId, action: 'ban', reason: 'Acoso' }, admin.cookie)
    const suspension = await latestMailTo(suspended.email, 'Tu cuenta está en modo lectura')
    expect(suspension!.text).toContain('Durante 30 días podrás leer la comunidad')
    expect(suspension!.text).toContain('Spam reiterado')
    const expulsion = await latestMailTo(expelled.email, 'Ya no tienes acceso a la comunidad')
    expect(expulsion!.text).toContain('Motivo: Acoso')

    const { restricted } = (await queue(moderator.cookie)).data
    expect(restricted).toEqual(
      expect.arrayContaining([
        { userId: suspended.userId, name: 'Sara Suspendida', reason: 'Spam reiterado', until: expect.any(String) },
        { userId: expelled.userId, name: 'Ernesto Expulsado', reason: 'Acoso', until: null },
      ]),
    )
    expect((await onMember({ userId: expelled.userId, action: 'lift' }, moderator.cookie)).status).toBe(403)
    expect((await onMember({ userId: expelled.userId, action: 'lift' }, admin.cookie)).status).toBe(302)
    expect((await onMember({ userId: suspended.userId, action: 'lift' }, moderator.cookie)).status).toBe(302)
    expect((await queue(moderator.cookie)).data.restricted.map((member: { userId: string }) => member.userId)).not.toEqual(
      expect.arrayContaining([suspended.userId]),
    )
    // A suspension that has run out is not listed.
    await onMember({ userId: suspended.userId, action: 'suspend', days: '1', reason: 'Otra vez' }, moderator.cookie)
    await getDb()
      .update(profiles)
      .set({ suspendedUntil: new Date(Date.now() - 1000) })
      .where(eq(profiles.userId, suspended.userId))
    expect((await queue(moderator.cookie)).data.restricted).toEqual([])
    const history = await getDb()
      .select({ action: moderationDecisions.action })
      .from(moderationDecisions)
      .where(eq(moderationDecisions.userId, suspended.userId))
    expect(history.map((row) => row.action).sort()).toEqual(['lift', 'suspend', 'suspend'])
  })

  test('the queue comes in pages of 25, oldest first, after the last one shown: decisions on a page do not shift the next', async () => {
    const [authors, reader, moderator] = [
      [await person('premium'), await person('premium')],
      await person('member'),
      await person('moderator'),
    ]
    const ids: string[] = []
    for (let i = 0; i < 27; i++) {
      // Two authors: one may publish 20 posts an hour.
      const postId = await createPost(authors[i % 2]!.cookie, { title: `Post ${i}` })
      await getDb()
        .insert(moderationReports)
        .values({ userId: reader.userId, kind: 'post', itemId: postId, reason: 'spam', createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) })
      ids.push(postId)
    }
    const first = (await queue(moderator.cookie)).data
    expect(first.queue.map((entry: { itemId: string }) => entry.itemId)).toEqual(ids.slice(0, 25))
    expect(first.next).toEqual(expect.any(String))
    // Three decisions on the first page: the second page still starts where the first ended.
    for (const itemId of ids.slice(0, 3)) await decide({ kind: 'post', itemId, action: 'dismiss' }, moderator.cookie)
    const second = (await queue(moderator.cookie, `?desde=${first.next}`)).data
    expect(second.queue.map((entry: { itemId: string }) => entry.itemId)).toEqual(ids.slice(25))
    expect(second.next).toBeNull()
    expect((await queue(moderator.cookie)).data.queue.map((entry: { itemId: string }) => entry.itemId)).toEqual(ids.slice(3))
    // A cursor that is not one starts at the beginning; one past the end goes back to it.
    for (const query of ['?desde=abc', '?desde=1_x', `?desde=${'9'.repeat(400)}`]) {
      expect((await queue(moderator.cookie, query)).data.queue[0].itemId, query.slice(0, 20)).toBe(ids[3])
    }
    expect((await queue(moderator.cookie, `?desde=9999999999999999_${ids[0]}`)).location).toBe('/admin/moderacion')
  })

  test("'Cuentas limitadas' comes in pages too, not cut at a hundred", async () => {
    const moderator = await person('moderator')
    const limited: string[] = []
    for (let i = 0; i < QUEUE_SIZE + 1; i++) {
      const member = await person('premium')
      await getDb()
        .update(profiles)
        .set({ suspendedUntil: new Date(Date.now() + 86_400_000), suspensionReason: `Motivo ${i}` })
        .where(eq(profiles.userId, member.userId))
      limited.push(member.userId)
    }
    limited.sort()
    const first = (await queue(moderator.cookie)).data
    expect(first.restricted.map((member: { userId: string }) => member.userId)).toEqual(limited.slice(0, QUEUE_SIZE))
    expect(first.nextRestricted).toBe(limited[QUEUE_SIZE - 1])
    const second = (await queue(moderator.cookie, `?limitadas=${first.nextRestricted}`)).data
    expect(second.restricted.map((member: { userId: string }) => member.userId)).toEqual(limited.slice(QUEUE_SIZE))
    expect(second.nextRestricted).toBeNull()
  })
})

describe('reports of what no longer exists', () => {
  test('close with it and are never counted: deleted by its author, with its post, with the account, or a member who left', async () => {
    const [author, commenter, leaver, reader, moderator] = [
      await person('premium'),
      await person('premium'),
      await person('premium'),
      await person('member'),
      await person('moderator'),
    ]
    // From an empty queue: earlier tests of this file leave reports waiting.
    await getDb().update(moderationReports).set({ status: 'dismissed' }).where(eq(moderationReports.status, 'open'))
    const reportOf = (kind: string, itemId: string) => send({ intent: 'report', kind, itemId, reason: 'spam' }, reader.cookie)
    const idOf = async (content: string) =>
      (await getDb().select({ id: communityComments.id }).from(communityComments).where(eq(communityComments.content, content)))[0]!.id

    // A post its author deletes.
    const own = await createPost(author.cookie, { title: 'Lo borro yo' })
    // A comment that goes with the post it was on, and one its author deletes.
    const thread = await createPost(author.cookie, { title: 'Hilo' })
    await feedAction({ intent: 'add-comment', postId: thread, content: 'Comentario del hilo' }, commenter.cookie)
    await feedAction({ intent: 'add-comment', postId: thread, content: 'Comentario que borro' }, commenter.cookie)
    const inThread = await idOf('Comentario del hilo')
    const deletedComment = await idOf('Comentario que borro')
    // A session comment its author deletes.
    const { sessionId } = await newSession(moderator.userId)
    const [sessionComment] = await getDb()
      .insert(ceoSessionComments)
      .values({ sessionId, userId: commenter.userId, content: 'En la sesión' })
      .returning({ id: ceoSessionComments.id })
    // What a member wrote, and the member, when they delete their account and what they wrote.
    const leaversPost = await createPost(leaver.cookie, { title: 'Me voy' })
    const reported = [
      ['post', own],
      ['comment', inThread],
      ['comment', deletedComment],
      ['session_comment', sessionComment!.id],
      ['post', leaversPost],
      ['member', leaver.userId],
    ] as const
    for (const [kind, itemId] of reported) expect((await reportOf(kind, itemId)).status, `${kind} ${itemId}`).toBe(200)
    expect((await queue(moderator.cookie)).data.queue).toHaveLength(6)

    expect((await feedAction({ intent: 'delete-post', postId: own }, author.cookie)).status).toBe(200)
    expect((await feedAction({ intent: 'delete-comment', commentId: deletedComment }, commenter.cookie)).status).toBe(200)
    expect((await feedAction({ intent: 'delete-post', postId: thread }, author.cookie)).status).toBe(200)
    const video = await run(() =>
      videoRoute.action({
        request: formRequest(
          `/video/${sessionId}`,
          { intent: 'delete-comment', commentId: sessionComment!.id },
          { cookie: commenter.cookie },
        ),
        params: { sessionId },
        context,
      } as any),
    )
    expect(video.status).toBe(200)
    const left = await run(() =>
      profileRoute.action({
        request: formRequest(
          '/perfil',
          { intent: 'delete-account', password: leaver.password!, writing: 'delete', confirm: 'on' },
          { cookie: leaver.cookie },
        ),
        params: {},
        context,
      } as any),
    )
    expect(left.status).toBe(302)

    const reports = await getDb()
      .select({ kind: moderationReports.kind, status: moderationReports.status, closedAt: moderationReports.closedAt })
      .from(moderationReports)
      .where(eq(moderationReports.userId, reader.userId))
    // Those about the member went with their account; the others are closed as gone.
    expect(reports.map((row) => `${row.kind}:${row.status}`).sort()).toEqual([
      'comment:gone',
      'comment:gone',
      'post:gone',
      'post:gone',
      'session_comment:gone',
    ])
    expect(reports.every((row) => row.closedAt)).toBe(true)
    expect(((await getDb().execute(waitingQuery(null))) as unknown as { rows: unknown[] }).rows).toEqual([])
    const page = (await queue(moderator.cookie)).data
    expect(page.queue).toEqual([])
    expect(page.next).toBeNull()
  })
})

test('the queue reads no whole table: reports, review requests, limited accounts and authors’ histories each through an index', async () => {
  // Each table's partial indexes: both of moderation_reports' hold only the open reports.
  const MEANT: Record<string, string[]> = {
    moderation_reports: ['moderation_reports_open_idx', 'moderation_reports_open_item_idx'],
    community_posts: ['community_posts_review_idx'],
    community_comments: ['community_comments_review_idx'],
    ceo_session_comments: ['ceo_session_comments_review_idx'],
    profiles: ['profiles_restricted_idx'],
    moderation_decisions: ['moderation_decisions_user_idx'],
  }
  const scans = (node: PlanNode): Array<[string, string]> => [
    // A bitmap heap scan names its index in the bitmap index scan under it.
    ...(node['Relation Name']
      ? [
          [node['Relation Name'] as string, (node['Index Name'] ?? node.Plans?.[0]?.['Index Name'] ?? node['Node Type']) as string] as [
            string,
            string,
          ],
        ]
      : []),
    ...(node.Plans ?? []).flatMap(scans),
  ]
  const cursor = { micros: '1767225600000000', itemId: crypto.randomUUID() }
  const plans = await plansOf([
    waitingQuery(null),
    waitingQuery(cursor),
    restrictedQuery().getSQL(),
    restrictedQuery(crypto.randomUUID()).getSQL(),
    historyQuery([crypto.randomUUID(), crypto.randomUUID()]),
  ])
  const found = plans.flatMap(scans)
  expect([...new Set(found.map(([table]) => table))].sort()).toEqual(Object.keys(MEANT).sort())
  expect(found.filter(([table, index]) => !MEANT[table]!.includes(index))).toEqual([])
  // An author's history is cut at five in the database: a limit over the index, per author.
  const limited = (node: PlanNode): boolean =>
    (node['Node Type'] === 'Limit' && JSON.stringify(node).includes('moderation_decisions_user_idx')) || (node.Plans ?? []).some(limited)
  expect(limited(plans[4]!)).toBe(true)
})

describe("the queue's order at any backlog (issue 38)", () => {
  const REPORTERS = 6
  const reporters = async () => {
    const prefix = crypto.randomUUID().slice(0, 8)
    await getDb().execute(sql`insert into "user" (id, name, email, email_verified)
      select ${prefix} || '-' || n, 'Informante', ${prefix} || '-' || n || '@example.com', true from generate_series(1, ${REPORTERS}) n`)
    return Array.from({ length: REPORTERS }, (_, n) => `${prefix}-${n + 1}`)
  }
  const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n))
  type Row = { kind: string; itemId: string; reports: number; micros: string }
  const pageOf = async (after: QueueCursor | null) => ((await getDb().execute(waitingQuery(after))) as unknown as { rows: Row[] }).rows

  /** The queue as issue 28 defined it: each item with open reports at its oldest one, by (since, item id), after the cursor. */
  const expected = async (after: QueueCursor | null) => {
    const open = await getDb()
      .select({ kind: moderationReports.kind, itemId: moderationReports.itemId, createdAt: moderationReports.createdAt })
      .from(moderationReports)
      .where(eq(moderationReports.status, 'open'))
    const items = new Map<string, { kind: string; itemId: string; since: bigint; reports: number }>()
    for (const report of open) {
      const key = `${report.kind}:${report.itemId}`
      const since = BigInt(report.createdAt.getTime()) * 1000n
      const item = items.get(key) ?? { kind: report.kind, itemId: report.itemId, since, reports: 0 }
      items.set(key, { ...item, since: since < item.since ? since : item.since, reports: item.reports + 1 })
    }
    const cursor = after ? { since: BigInt(after.micros), itemId: after.itemId } : null
    return [...items.values()]
      .filter((item) => !cursor || item.since > cursor.since || (item.since === cursor.since && item.itemId > cursor.itemId))
      .sort((a, b) => (a.since === b.since ? (a.itemId < b.itemId ? -1 : 1) : a.since < b.since ? -1 : 1))
      .slice(0, QUEUE_SIZE + 1)
      .map((item) => `${item.kind}:${item.itemId}:${item.reports}:${item.since}`)
  }

  test('pages follow the oldest open report of each item, ties on the minute included, while decisions and new reports come between pages', async () => {
    const users = await reporters()
    // 140 items on 8 minutes: most share their first minute with others, and an item's reports often share theirs.
    const items = Array.from({ length: 140 }, (_, i) => ({
      kind: (['post', 'comment', 'member'] as const)[i % 3]!,
      itemId: crypto.randomUUID(),
      i,
    }))
    await getDb()
      .insert(moderationReports)
      .values(
        items.flatMap(({ kind, itemId, i }) =>
          Array.from({ length: 1 + (i % 4) }, (_, r) => ({
            userId: users[r]!,
            kind,
            itemId,
            reason: 'spam' as const,
            createdAt: minute((i % 8) + (r === 0 ? 0 : (i * r) % 3)),
          })),
        ),
      )
    let after: QueueCursor | null = null
    let pages = 0
    let shown = 0
    for (;;) {
      const rows = await pageOf(after)
      expect(
        rows.map((row) => `${row.kind}:${row.itemId}:${row.reports}:${row.micros}`),
        `page ${pages + 1}`,
      ).toEqual(await expected(after))
      pages++
      shown += Math.min(rows.length, QUEUE_SIZE)
      if (rows.length <= QUEUE_SIZE) break
      const last = rows[QUEUE_SIZE - 1]!
      after = decodeQueueCursor(`${last.micros}_${last.itemId}`)
      // Between pages: decisions on two items shown and one not yet shown; a report of later
      // minutes on one shown (back at the end of the queue), one ahead and one new item.
      const ahead = rows[QUEUE_SIZE]!
      for (const { kind, itemId } of [rows[0]!, rows[3]!, ahead]) {
        await getDb()
          .update(moderationReports)
          .set({ status: 'dismissed', closedAt: new Date() })
          .where(
            and(eq(moderationReports.kind, kind as 'post'), eq(moderationReports.itemId, itemId), eq(moderationReports.status, 'open')),
          )
      }
      await getDb()
        .insert(moderationReports)
        .values([
          { userId: users[5]!, kind: rows[0]!.kind as 'post', itemId: rows[0]!.itemId, reason: 'other', createdAt: minute(10 + pages) },
          { userId: users[5]!, kind: rows[5]!.kind as 'post', itemId: rows[5]!.itemId, reason: 'other', createdAt: minute(10 + pages) },
          { userId: users[5]!, kind: 'post', itemId: crypto.randomUUID(), reason: 'other', createdAt: minute(10 + pages) },
        ])
        .onConflictDoNothing()
    }
    expect(pages).toBeGreaterThanOrEqual(6)
    expect(shown).toBeGreaterThan(140)
  })

  test("a page reads its items' open reports through the partial indexes, in order, never the whole backlog sorted", async () => {
    const users = await reporters()
    // 1,000 items with three open reports each (on 100 minutes: ties), beside 20,000 closed reports.
    await getDb().execute(sql`
      insert into moderation_reports (user_id, kind, item_id, reason, created_at)
      select ${users[0]!.slice(0, 8)} || '-' || r, 'post', md5('open-' || n)::uuid, 'spam', timestamptz '2026-01-01' + (n % 100) * interval '1 minute'
      from generate_series(1, 1000) n cross join generate_series(1, 3) r`)
    await getDb().execute(sql`
      insert into moderation_reports (user_id, kind, item_id, reason, status, created_at, closed_at)
      select ${users[0]!}, 'post', md5('closed-' || n)::uuid, 'spam', 'dismissed', timestamptz '2025-01-01' + n * interval '1 minute', now()
      from generate_series(1, 20000) n`)
    await getDb().execute(sql`analyze moderation_reports`)
    const middle = (await pageOf(null)).at(-2)!
    const queries = [waitingQuery(null), waitingQuery({ micros: middle.micros, itemId: middle.itemId })]
    // With whole reads and sorts priced out: each read of the reports through the partial indexes, no sort anywhere.
    const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)]
    for (const plan of await plansOf(queries, { sorts: false })) {
      const all = nodes(plan)
      expect(all.filter((node) => node['Node Type'] === 'Sort')).toEqual([])
      expect(
        [...new Set(all.filter((node) => node['Relation Name'] === 'moderation_reports').map((node) => node['Index Name']))].sort(),
      ).toEqual(['moderation_reports_open_idx', 'moderation_reports_open_item_idx'])
    }
    // As the planner runs it: a page reads some 26 items' reports (and the anti-join's look back), not the 3,000 open ones.
    for (const query of queries) {
      const result = (await getDb().execute(sql`explain (analyze, format json) ${query}`)) as unknown as {
        rows: Array<Record<string, unknown>>
      }
      const json = Object.values(result.rows[0]!)[0]
      const plan = (typeof json === 'string' ? JSON.parse(json) : json)[0].Plan as PlanNode
      const read = nodes(plan)
        .filter((node) => node['Relation Name'] === 'moderation_reports')
        .reduce(
          (sum, node) =>
            sum + ((node['Actual Rows'] as number) + ((node['Rows Removed by Filter'] as number) ?? 0)) * (node['Actual Loops'] as number),
          0,
        )
      expect(read).toBeLessThan(400)
    }
  })
})
