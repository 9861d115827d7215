import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { admissionApplications } from '~/features/admission/schema'
import { ceoSessionComments, ceoSessionLikes, ceoSessionProgress, ceoSessions } from '~/features/ceo-sessions/schema'
import { createEvent, toggleRegistration } from '~/features/events/events.server'
import { eventAttendees } from '~/features/events/schema'
import { communityComments, communityPosts } from '~/features/feed/schema'
import { moderationDecisions, moderationReports } from '~/features/moderation/schema'
import { notifications } from '~/features/notifications/schema'
import * as memberRoute from '~/features/members/member.route'
import { auditLog } from '~/platform/audit/schema'
import { getAuth } from '~/platform/auth/auth.server'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { getStorage } from '~/platform/storage/storage.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { useFakeStripe } from '../../../tests/setup/fake-stripe'
import { createPost, createPostWithFiles, feedAction, feedLoader } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { type createConfirmedUser, formRequest, latestMailTo, queuedMails, readToast, run } from '../../../tests/setup/requests'
import { newSession } from '../../../tests/setup/sessions'
import { codeOf, enrolled } from '../../../tests/setup/two-factor'
import { TWO_FACTOR_MESSAGES } from './auth-action.server'
import { DELETION_MESSAGES } from './account-deletion.server'
import { profiles } from './schema'
import * as profileRoute from './profile.route'
import { SECOND_FACTOR_MESSAGE } from './profile-schemas'

useTestDatabase()

const context = { cspNonce: 'test' }
/** A signed-in persona (never the anonymous one). */
const person = (persona: 'member' | 'premium' | 'moderator' | 'admin', names?: { firstName?: string; lastName?: string }) =>
  createPersona(persona, names) as Promise<Awaited<ReturnType<typeof createConfirmedUser>>>
const profile = (fields: Record<string, string>, cookie?: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as any))
const adminAction = (userId: string, fields: Record<string, string>, cookie?: string) =>
  run(() => memberRoute.action({ request: formRequest(`/usuario/${userId}`, fields, { cookie }), params: { userId }, context } as any))
const deleteOwn = (member: { cookie?: string; password?: string }, fields: Record<string, string> = {}) =>
  profile({ intent: 'delete-account', password: member.password!, writing: 'keep', confirm: 'on', ...fields }, member.cookie)
const isSignedIn = async (cookie: string) => Boolean(await getAuth().api.getSession({ headers: new Headers({ Cookie: cookie }) }))
const rows = async (query: ReturnType<typeof sql>) => ((await getDb().execute(query)) as unknown as { rows: any[] }).rows

/** Tables and columns that name a member, as the database lists them. */
async function memberColumns() {
  return (await rows(sql`select table_name, column_name from information_schema.columns
    where table_schema = 'public' and column_name in ('user_id', 'actor_user_id', 'target_user_id', 'created_by', 'decided_by')
    union all select 'user', 'id'
    -- A report about a member and a decision on their account name them as the item.
    union all select 'moderation_reports', 'item_id' union all select 'moderation_decisions', 'item_id'`)) as Array<{
    table_name: string
    column_name: string
  }>
}

/** Every row, in any table, that still names `userId` (table → count). */
async function rowsNaming(userId: string) {
  const left: Record<string, number> = {}
  for (const { table_name, column_name } of await memberColumns()) {
    const [row] = await rows(
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)} = ${userId}`,
    )
    if (row.n > 0) left[`${table_name}.${column_name}`] = row.n
  }
  return left
}

/** A member with something in every part of the community, and the others their actions touched. */
async function busyMember() {
  const member = await person('premium', { firstName: 'Elena', lastName: 'Borrada' })
  const other = await person('premium', { firstName: 'Óscar', lastName: 'Sigue' })
  const third = await person('premium', { firstName: 'Inés', lastName: 'Responde' })
  const admin = await person('admin')
  const db = getDb()

  const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
  const ownPost = (
    await createPostWithFiles(
      { title: 'Mi post con adjunto', postType: 'document' },
      [{ bytes: pdf, name: 'plan.pdf', type: 'application/pdf' }],
      member.cookie,
    )
  ).data.postId as string
  const othersPost = await createPost(other.cookie!, { title: 'El post de Óscar' })
  await feedAction({ intent: 'like-post', postId: othersPost }, member.cookie)
  await feedAction({ intent: 'add-comment', postId: othersPost, content: 'Comentario de Elena' }, member.cookie)
  const [comment] = await db
    .select({ id: communityComments.id })
    .from(communityComments)
    .where(eq(communityComments.userId, member.userId!))
  await feedAction({ intent: 'add-comment', postId: othersPost, content: 'Respuesta de Inés', parentCommentId: comment!.id }, third.cookie)
  await feedAction({ intent: 'add-comment', postId: othersPost, content: 'Comentario de Inés' }, third.cookie)
  const [thirdsComment] = await db
    .select({ id: communityComments.id })
    .from(communityComments)
    .where(and(eq(communityComments.userId, third.userId!), eq(communityComments.content, 'Comentario de Inés')))
  await feedAction({ intent: 'like-comment', commentId: thirdsComment!.id }, member.cookie)
  await feedAction({ intent: 'add-comment', postId: ownPost, content: 'Óscar comenta el post de Elena' }, other.cookie)

  const { sessionId } = await newSession(admin.userId!)
  await db.insert(ceoSessionLikes).values({ sessionId, userId: member.userId! })
  await db.update(ceoSessions).set({ likeCount: 1, commentCount: 1 }).where(eq(ceoSessions.id, sessionId))
  await db.insert(ceoSessionComments).values({ sessionId, userId: member.userId!, content: 'Gran sesión' })
  await db.insert(ceoSessionProgress).values({ sessionId, userId: member.userId!, positionSeconds: 42 })

  // The last place of an event, with Óscar queued behind her.
  const eventId = await createEvent(
    {
      title: 'Cena de directivos',
      description: 'Networking',
      content: null,
      eventDate: new Date(Date.now() + 10 * 24 * 3600 * 1000),
      timeZone: 'Europe/Madrid',
      durationMinutes: 120,
      location: 'Madrid',
      eventType: 'presencial',
      maxAttendees: 1,
      externalLink: null,
    },
    admin.userId!,
  )
  expect((await toggleRegistration(eventId, member.userId!)).kind).toBe('registered')
  expect((await toggleRegistration(eventId, other.userId!)).kind).toBe('waitlisted')

  await db.insert(admissionApplications).values({
    email: member.email!,
    firstName: 'Elena',
    lastName: 'Borrada',
    linkedinUrl: 'https://www.linkedin.com/in/elena',
    company: 'Biotech SL',
    position: 'COO',
    sector: 'biotech',
    yearsExperience: 18,
    targetRole: 'CEO',
    contribution: 'Operaciones',
    expectations: 'Red',
    status: 'approved',
  })
  const avatarKey = `avatars/${member.userId}/avatar_1_test.webp`
  await getStorage().put(avatarKey, Buffer.from('webp'), 'image/webp')
  await db
    .update(profiles)
    .set({ avatarUrl: `/uploads/${avatarKey}?v=1` })
    .where(eq(profiles.userId, member.userId!))
  await profile({ intent: 'export-data' }, member.cookie)
  await runDueJobs({ names: ['account.data-export'] })
  // Reported by another member, and warned by the team.
  await db.insert(moderationReports).values({ userId: other.userId!, kind: 'member', itemId: member.userId!, reason: 'spam' })
  await db
    .insert(moderationDecisions)
    .values({ kind: 'member', itemId: member.userId!, userId: member.userId!, decidedBy: admin.userId!, action: 'warn', reason: 'Aviso' })

  const [attachment] = await rows(sql`select file_path from post_attachments where post_id = ${ownPost}`)
  return {
    member,
    other,
    third,
    admin,
    ownPost,
    othersPost,
    comment: comment!.id,
    thirdsComment: thirdsComment!.id,
    sessionId,
    eventId,
    avatarKey,
    attachmentKey: attachment.file_path as string,
  }
}

const post = async (id: string) =>
  (
    await getDb()
      .select({ userId: communityPosts.userId, likeCount: communityPosts.likeCount, commentCount: communityPosts.commentCount })
      .from(communityPosts)
      .where(eq(communityPosts.id, id))
  )[0]

describe("'Eliminar mi cuenta'", () => {
  test('keeping what they wrote: every row naming them goes, their writing stays as «Miembro eliminado», counters and places put right', async () => {
    const seeded = await busyMember()
    const { member, other, third } = seeded
    const unreadBefore = (
      await getDb().select({ n: profiles.unreadNotifications }).from(profiles).where(eq(profiles.userId, other.userId!))
    )[0]!.n
    const exportsBefore = await rows(
      sql`select payload->>'exportId' as id from jobs where name = 'account.data-export.expire' and payload->>'userId' = ${member.userId}`,
    )
    expect(exportsBefore).toHaveLength(1)
    const exportKey = `exports/${member.userId}/${exportsBefore[0].id}.zip`
    expect(await getStorage().size(exportKey)).toBeGreaterThan(0)

    const deleted = await deleteOwn(member)
    expect(deleted.status).toBe(302)
    expect(deleted.location).toBe('/')
    expect(await readToast(deleted.headers)).toMatchObject({ type: 'success', title: DELETION_MESSAGES.done })
    // Signed out: the cookie is cleared and the session is gone.
    expect(deleted.headers.getSetCookie().some((cookie) => /session_token=;/.test(cookie))).toBe(true)
    expect(await isSignedIn(member.cookie!)).toBe(false)

    // No row of theirs anywhere but the audit line that records the deletion.
    expect(await rowsNaming(member.userId!)).toEqual({ 'audit_log.target_user_id': 1 })
    const [audit] = await getDb().select().from(auditLog).where(eq(auditLog.targetUserId, member.userId!))
    expect(audit).toMatchObject({ action: 'account_deleted', actorUserId: null, details: { writing: 'keep' } })
    expect(await getDb().select().from(admissionApplications).where(eq(admissionApplications.email, member.email!))).toEqual([])

    // Their post and comments stay, without an author; the feed shows them as «Miembro eliminado», with no profile link.
    expect(await post(seeded.ownPost)).toMatchObject({ userId: null, commentCount: 1 })
    const feed = await feedLoader(`?comentarios=${seeded.othersPost}`, third.cookie)
    const kept = feed.data.feed.posts.find((candidate: { id: string }) => candidate.id === seeded.ownPost)
    expect(kept.author).toMatchObject({ userId: null, name: 'Miembro eliminado', avatarUrl: null })
    const comments = feed.data.openComments.comments as Array<{
      content: string
      author: { userId: string | null; name: string }
      canEdit: boolean
    }>
    expect(comments.find((c) => c.content === 'Comentario de Elena')).toMatchObject({
      author: { userId: null, name: 'Miembro eliminado' },
      canEdit: false,
    })
    expect(comments.find((c) => c.content === 'Respuesta de Inés')).toBeDefined()
    const [sessionComment] = await getDb()
      .select({ userId: ceoSessionComments.userId })
      .from(ceoSessionComments)
      .where(eq(ceoSessionComments.sessionId, seeded.sessionId))
    expect(sessionComment).toEqual({ userId: null })

    // Their likes are gone and the counters say so; the comment count keeps their kept comment.
    expect(await post(seeded.othersPost)).toMatchObject({ likeCount: 0, commentCount: 3 })
    const [liked] = await getDb()
      .select({ likeCount: communityComments.likeCount })
      .from(communityComments)
      .where(eq(communityComments.id, seeded.thirdsComment))
    expect(liked!.likeCount).toBe(0)
    const [session] = await getDb()
      .select({ likeCount: ceoSessions.likeCount, commentCount: ceoSessions.commentCount })
      .from(ceoSessions)
      .where(eq(ceoSessions.id, seeded.sessionId))
    expect(session).toEqual({ likeCount: 0, commentCount: 1 })

    // 'A Elena le gusta tu post' is withdrawn, and Óscar's bell counts one less; his place in the event comes from the queue.
    expect(
      await getDb()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, other.userId!), eq(notifications.type, 'like'))),
    ).toEqual([])
    const unreadAfter = (
      await getDb().select({ n: profiles.unreadNotifications }).from(profiles).where(eq(profiles.userId, other.userId!))
    )[0]!.n
    expect(unreadAfter).toBeLessThan(unreadBefore)
    const [place] = await getDb()
      .select({ status: eventAttendees.status })
      .from(eventAttendees)
      .where(eq(eventAttendees.userId, other.userId!))
    expect(place!.status).toBe('registered')

    // Their photo and their data export are deleted; the kept post keeps its attachment.
    expect(await getStorage().size(seeded.avatarKey)).toBeNull()
    expect(await getStorage().size(exportKey)).toBeNull()
    expect(await getStorage().size(seeded.attachmentKey)).toBeGreaterThan(0)
    const mail = await latestMailTo(member.email!, 'Tu cuenta se ha eliminado')
    expect(mail!.text).toContain('«Miembro eliminado»')
  })

  test('deleting what they wrote too: their posts (with files), comments and the replies to them go; counters are counted again', async () => {
    const seeded = await busyMember()
    const deleted = await deleteOwn(seeded.member, { writing: 'delete' })
    expect(deleted.status).toBe(302)
    expect(await post(seeded.ownPost)).toBeUndefined()
    expect(await getStorage().size(seeded.attachmentKey)).toBeNull()
    const left = await getDb()
      .select({ content: communityComments.content })
      .from(communityComments)
      .where(eq(communityComments.postId, seeded.othersPost))
    expect(left.map((c) => c.content)).toEqual(['Comentario de Inés'])
    expect(await post(seeded.othersPost)).toMatchObject({ likeCount: 0, commentCount: 1 })
    const [session] = await getDb()
      .select({ commentCount: ceoSessions.commentCount })
      .from(ceoSessions)
      .where(eq(ceoSessions.id, seeded.sessionId))
    expect(session!.commentCount).toBe(0)
    expect(await rowsNaming(seeded.member.userId!)).toEqual({ 'audit_log.target_user_id': 1 })
    expect((await latestMailTo(seeded.member.email!, 'Tu cuenta se ha eliminado'))!.text).toContain(
      'También hemos eliminado tus publicaciones',
    )
  })

  test('refused without the password, the confirmation or a choice; nothing is deleted', async () => {
    const member = await person('member')
    const wrong = await deleteOwn(member, { password: 'no-es-la-clave' })
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe('La contraseña actual no es correcta')
    const unconfirmed = await profile({ intent: 'delete-account', password: member.password!, writing: 'keep' }, member.cookie)
    expect(unconfirmed.status).toBe(400)
    expect(JSON.stringify(unconfirmed.data)).toContain('Confirma que entiendes que no se puede deshacer')
    const odd = await deleteOwn(member, { writing: 'everything' })
    expect(odd.status).toBe(400)
    expect(JSON.stringify(odd.data)).toContain('Elige qué hacer con lo que escribiste')
    const anonymous = await deleteOwn({ password: member.password })
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toMatch(/^\/auth/)
    expect(await isSignedIn(member.cookie!)).toBe(true)
    expect(await rowsNaming(member.userId!)).toHaveProperty(['user.id'], 1)
  })

  test('with two-factor sign-in on, a code is needed too: none, a wrong one and a replayed recovery code are refused', async () => {
    const member = await enrolled()
    const none = await deleteOwn(member)
    expect(none.status).toBe(400)
    expect(none.data.message.title).toBe(SECOND_FACTOR_MESSAGE)
    const wrong = await deleteOwn(member, { code: '000000' })
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    expect(await isSignedIn(member.cookie)).toBe(true)
    const deleted = await deleteOwn(member, { code: await codeOf(member.totpURI) })
    expect(deleted.status).toBe(302)
    // Kept: the audit lines of turning two-factor on (by them, about them) and of the deletion.
    expect(await rowsNaming(member.userId)).toEqual({ 'audit_log.target_user_id': 2, 'audit_log.actor_user_id': 1 })
  })

  test('the last admin cannot delete their account; with a second admin they can', async () => {
    const admin = await person('admin')
    await getDb().execute(sql`delete from user_roles where role = 'admin' and user_id <> ${admin.userId}`)
    const refused = await deleteOwn(admin)
    expect(refused.status).toBe(409)
    expect(refused.data.message.title).toBe(DELETION_MESSAGES.lastAdmin)
    expect(await isSignedIn(admin.cookie!)).toBe(true)
    await person('admin')
    expect((await deleteOwn(admin)).status).toBe(302)
  })
})

describe('an admin, at the member’s request', () => {
  test('sends them their data and deletes their account, audited; nobody else may', async () => {
    const member = await person('premium')
    const people = { member: await person('member'), premium: await person('premium'), moderator: await person('moderator') }
    for (const [who, person] of Object.entries(people)) {
      for (const fields of [{ intent: 'export-data' }, { intent: 'delete-account', writing: 'keep', confirm: 'on' }] as Array<
        Record<string, string>
      >) {
        const refused = await adminAction(member.userId!, fields, person.cookie)
        expect(refused.status, `${who} ${fields.intent}`).toBe(403)
      }
    }
    expect((await adminAction(member.userId!, { intent: 'export-data' })).location).toMatch(/^\/auth/)

    const admin = await person('admin')
    const exported = await adminAction(member.userId!, { intent: 'export-data' }, admin.cookie)
    expect(exported.status).toBe(302)
    await runDueJobs({ names: ['account.data-export'] })
    expect(await queuedMails(member.email!, 'Tus datos están listos para descargar')).toHaveLength(1)

    const unconfirmed = await adminAction(member.userId!, { intent: 'delete-account', writing: 'keep' }, admin.cookie)
    expect(unconfirmed.status).toBe(400)
    expect(await isSignedIn(member.cookie!)).toBe(true)
    const deleted = await adminAction(member.userId!, { intent: 'delete-account', writing: 'delete', confirm: 'on' }, admin.cookie)
    expect(deleted.location).toBe('/admin/miembros')
    expect(await readToast(deleted.headers)).toMatchObject({ title: DELETION_MESSAGES.doneByAdmin })
    expect(await isSignedIn(member.cookie!)).toBe(false)
    const audit = await getDb()
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, member.userId!))
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'member_data_exported', actor: admin.userId },
        { action: 'account_deleted', actor: admin.userId },
      ]),
    )
    expect((await latestMailTo(member.email!, 'Tu cuenta se ha eliminado'))!.text).toContain('un administrador ha eliminado tu cuenta')
    // A member already deleted is not found; a malformed id is refused.
    expect((await adminAction(member.userId!, { intent: 'delete-account', writing: 'keep', confirm: 'on' }, admin.cookie)).status).toBe(404)
    expect((await adminAction(member.userId!, { intent: 'export-data' }, admin.cookie)).status).toBe(404)
    expect((await adminAction('../../etc', { intent: 'export-data' }, admin.cookie)).status).toBe(400)
  })
})

describe('the subscription at Stripe', () => {
  const fake = useFakeStripe()

  test('is cancelled first; when Stripe cannot be reached nothing is deleted (503, Retry-After)', async () => {
    const member = await person('premium')
    await getDb().update(profiles).set({ stripeCustomerId: 'cus_borrar' }).where(eq(profiles.userId, member.userId!))
    fake.subscriptions.push(
      { id: 'sub_activa', customer: 'cus_borrar', status: 'active', current_period_end: Math.floor(Date.now() / 1000) + 86_400 },
      { id: 'sub_vieja', customer: 'cus_borrar', status: 'canceled', current_period_end: 1_700_000_000 },
    )
    fake.failNextWith(500)
    const away = await deleteOwn(member)
    expect(away.status).toBe(503)
    expect(away.headers.get('Retry-After')).toBeTruthy()
    expect(away.data.message).toEqual(DELETION_MESSAGES.billing)
    expect(await isSignedIn(member.cookie!)).toBe(true)
    expect(fake.subscriptions[0]!.status).toBe('active')

    const deleted = await deleteOwn(member)
    expect(deleted.status).toBe(302)
    const cancels = fake.requests.filter((request) => request.method === 'DELETE')
    expect(cancels.map((request) => request.path)).toEqual(['/v1/subscriptions/sub_activa'])
    expect(cancels[0]!.idempotencyKey).toBe('account-deletion:sub_activa')
    expect(fake.subscriptions[0]!.status).toBe('canceled')
    expect(await rowsNaming(member.userId!)).toEqual({ 'audit_log.target_user_id': 1 })
  })
})

describe('what a deletion covers', () => {
  test('every column naming a member goes with the account (cascade) or lets go of it (set null), but the audit log', async () => {
    const rules = (await rows(sql`
      select cl.relname as table_name, a.attname as column_name, c.confdeltype as on_delete
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = '"user"'::regclass`)) as Array<{ table_name: string; column_name: string; on_delete: string }>
    const ruleOf = new Map(rules.map((rule) => [`${rule.table_name}.${rule.column_name}`, rule.on_delete]))
    // The audit log names people by id alone and outlives them: it records who did what, deletions included (ADR 0028).
    // A member as a reported item has no foreign key (the column names posts and comments too):
    // deleteAccount removes those rows itself, which the busy member's deletion above proves.
    const kept = new Set([
      'audit_log.actor_user_id',
      'audit_log.target_user_id',
      'user.id',
      'moderation_reports.item_id',
      'moderation_decisions.item_id',
    ])
    const loose = (await memberColumns())
      .map(({ table_name, column_name }) => `${table_name}.${column_name}`)
      .filter((column) => !kept.has(column) && !['c', 'n'].includes(ruleOf.get(column) ?? ''))
    expect(loose, 'columns naming a member that an account deletion would leave behind').toEqual([])
  })
})
