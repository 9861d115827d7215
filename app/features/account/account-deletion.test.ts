import { and, eq, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { describe, expect, test } from 'vitest'
import * as applicationRoute from '~/features/admission/application.route'
import * as applyRoute from '~/features/admission/apply.route'
import { admissionApplications } from '~/features/admission/schema'
import * as queueRoute from '~/features/moderation/queue.route'
import * as reportRoute from '~/features/moderation/report.route'
import { ceoSessionComments, ceoSessionLikes, ceoSessionProgress, ceoSessions } from '~/features/ceo-sessions/schema'
import { createEvent, toggleRegistration } from '~/features/events/events.server'
import { eventAttendees } from '~/features/events/schema'
import { communityComments, communityPosts } from '~/features/feed/schema'
import { notifications } from '~/features/notifications/schema'
import * as memberRoute from '~/features/members/member.route'
import { auditLog } from '~/platform/audit/schema'
import { getAuth } from '~/features/account/auth.server'
import { getDb } from '~/platform/db/client.server'
import { housekeepingJob } from '~/platform/jobs/housekeeping.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { getStorage } from '~/platform/storage/storage.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { useFakeStripe } from '../../../tests/setup/fake-stripe'
import { createPost, createPostWithFiles, feedAction, feedLoader } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import {
  cookiesFrom,
  type createConfirmedUser,
  formRequest,
  latestMailTo,
  queuedMails,
  readToast,
  run,
} from '../../../tests/setup/requests'
import { newSession } from '../../../tests/setup/sessions'
import { enrolled } from '../../../tests/setup/two-factor'
import { TWO_FACTOR_MESSAGES } from './auth-action.server'
import * as authRoute from './auth.route'
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

/**
 * Every text and JSON column of every table, read for the member's id, e-mail and names (column →
 * rows): not only the columns that name a member by id, but the words of notifications, the
 * payloads of jobs, the details of audit lines.
 */
async function textsNaming({ userId, email, names = [] }: { userId: string; email: string; names?: string[] }) {
  const columns = (await rows(sql`select table_name, column_name from information_schema.columns
    where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying', 'ARRAY')`)) as Array<{
    table_name: string
    column_name: string
  }>
  const needles = [userId, email, ...names].map((needle) => sql`lower(${sql.identifier('c')}::text) like ${`%${needle.toLowerCase()}%`}`)
  const left: Record<string, number> = {}
  for (const { table_name, column_name } of columns) {
    const [row] = await rows(
      sql`select count(*)::int as n from (select ${sql.identifier(column_name)} as c from ${sql.identifier(table_name)}) t
          where ${sql.join(needles, sql` or `)}`,
    )
    if (row.n > 0) left[`${table_name}.${column_name}`] = row.n
  }
  return left
}
const naming = (member: { userId?: string; email?: string }, names: string[] = []) =>
  textsNaming({ userId: member.userId!, email: member.email!, names })

/** A member with something in every part of the community, and the others their actions touched. */
async function busyMember() {
  const member = await person('premium', { firstName: 'Elena', lastName: 'Olvidada' })
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
  await feedAction({ intent: 'add-comment', postId: othersPost, content: 'Mi comentario en este post' }, member.cookie)
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
  await feedAction({ intent: 'add-comment', postId: ownPost, content: 'Óscar comenta este post' }, other.cookie)

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

  // She applied before joining: the admins heard of it by name; an admin approved it (audited with her e-mail).
  const applied = await run(() =>
    applyRoute.action({
      request: formRequest('/admision', {
        intent: 'apply',
        email: member.email!,
        firstName: 'Elena',
        lastName: 'Olvidada',
        linkedinUrl: 'https://www.linkedin.com/in/elena',
        company: 'Biotech SL',
        position: 'COO',
        sector: 'biotech',
        yearsExperience: '18',
        targetRole: 'CEO',
        contribution: 'Operaciones',
        expectations: 'Red',
        consent: 'on',
      }),
      params: {},
      context,
    } as any),
  )
  expect(applied.status).toBe(303)
  const [application] = await db
    .select({ id: admissionApplications.id })
    .from(admissionApplications)
    .where(eq(admissionApplications.email, member.email!))
  const approved = await run(() =>
    applicationRoute.action({
      request: formRequest(`/admin/admisiones/${application!.id}`, { intent: 'approve', seen: 'pending' }, { cookie: admin.cookie }),
      params: { applicationId: application!.id },
      context,
    } as any),
  )
  expect(approved.status).toBe(200)
  const avatarKey = `avatars/${member.userId}/avatar_1_test.webp`
  await getStorage().put(avatarKey, Buffer.from('webp'), 'image/webp')
  await db
    .update(profiles)
    .set({ avatarUrl: `/uploads/${avatarKey}?v=1` })
    .where(eq(profiles.userId, member.userId!))
  await profile({ intent: 'export-data' }, member.cookie)
  await runDueJobs({ names: ['account.data-export'] })
  // Reported by another member (the moderators are told her name), and warned by the team (the reporter is told her name).
  const reported = await run(() =>
    reportRoute.action({
      request: formRequest(
        '/moderacion/informar',
        { intent: 'report', kind: 'member', itemId: member.userId!, reason: 'spam' },
        { cookie: other.cookie },
      ),
      params: {},
      context,
    } as any),
  )
  expect(reported.status).toBe(200)
  const warned = await run(() =>
    queueRoute.action({
      request: formRequest(
        '/admin/moderacion',
        { intent: 'member', userId: member.userId!, action: 'warn', reason: 'Aviso' },
        { cookie: admin.cookie },
      ),
      params: {},
      context,
    } as any),
  )
  expect(warned.location).toBe('/admin/moderacion')
  // Someone typed her address with a wrong password (audited with the address), and an e-mail to her was refused for good.
  const signIn = await run(() =>
    authRoute.action({
      request: formRequest('/auth', { intent: 'signin', email: member.email!, password: 'no-es-la-clave' }),
      params: {},
      context,
    } as any),
  )
  expect(signIn.status).toBe(400)
  await refusedMail(member.email!, 'Elena')

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

/** An e-mail to `to` that the SMTP server refused for good (three permanent 5xx): the queue keeps it as failed, payload and all. */
async function refusedMail(to: string, firstName: string) {
  const subject = `Aviso ${Math.random()}`
  await enqueueMail({ to, subject, email: createElement(NoticeEmail, { title: 'Aviso', firstName, paragraphs: ['Un aviso.'] }) })
  await getDb()
    .update(jobs)
    .set({ status: 'failed', attempts: 3, lastError: '550 mailbox unavailable', finishedAt: sql`now()` })
    .where(sql`${jobs.payload}->>'subject' = ${subject}`)
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

    // Nothing anywhere names them (the admins' 'Nueva solicitud de…', the moderators' 'Perfil de…', the reporter's 'Sobre el
    // perfil de…', the audit's e-mails, the failed e-mail to them) but, by id, the audit lines of the warning and of the deletion,
    // and the work the deletion queued: its e-mail to them and the deletion of their files.
    const names = ['Elena', 'Olvidada']
    expect(await naming(member, names)).toEqual({ 'audit_log.target_user_id': 2, 'jobs.payload': 2 })
    const audit = await getDb()
      .select({ action: auditLog.action, actorUserId: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, member.userId!))
      .orderBy(auditLog.id)
    expect(audit).toEqual([
      { action: 'member_warned', actorUserId: seeded.admin.userId, details: { days: null, reports: 1 } },
      { action: 'account_deleted', actorUserId: null, details: { writing: 'keep' } },
    ])
    expect(await getDb().select().from(admissionApplications).where(eq(admissionApplications.email, member.email!))).toEqual([])

    // Their post and comments stay, without an author; the feed shows them as «Miembro eliminado», with no profile link.
    expect(await post(seeded.ownPost)).toMatchObject({ userId: null, commentCount: 1 })
    const feed = await feedLoader(`?comentarios=${seeded.othersPost}`, third.cookie)
    const kept = feed.data.feed.items.find((candidate: { id: string }) => candidate.id === seeded.ownPost)
    expect(kept.author).toMatchObject({ userId: null, name: 'Miembro eliminado', avatarUrl: null })
    const comments = feed.data.openComments.comments as Array<{
      content: string
      author: { userId: string | null; name: string }
      canEdit: boolean
    }>
    expect(comments.find((c) => c.content === 'Mi comentario en este post')).toMatchObject({
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

    // After the commit, a job deletes their photo and their data export; the kept post keeps its attachment, moved out of
    // the folder named after them.
    expect(await getStorage().size(seeded.avatarKey)).toBeGreaterThan(0)
    await runDueJobs({ names: ['account.deletion-files'] })
    expect(await getStorage().size(seeded.avatarKey)).toBeNull()
    expect(await getStorage().size(exportKey)).toBeNull()
    expect(await getStorage().size(seeded.attachmentKey)).toBeNull()
    const [attachment] = await rows(sql`select file_path from post_attachments where post_id = ${seeded.ownPost}`)
    expect(attachment.file_path).toBe(seeded.attachmentKey.replace(`attachments/${member.userId}/`, 'attachments/kept/'))
    expect(await getStorage().size(attachment.file_path)).toBeGreaterThan(0)
    const mail = await latestMailTo(member.email!, 'Tu cuenta se ha eliminado')
    expect(mail!.text).toContain('«Miembro eliminado»')

    // The queued work is done; the e-mail to them is refused for good. Once housekeeping has run past their keeping
    // (done jobs 14 days, failed ones addressed to nobody here 30 days), only the audit lines' ids are left.
    await getDb()
      .update(jobs)
      .set({ status: 'failed', attempts: 3, lastError: '550 mailbox unavailable', finishedAt: sql`now()` })
      .where(and(eq(jobs.name, 'mail.send'), sql`${jobs.payload}->>'to' = ${member.email}`))
    await refusedMail(other.email!, 'Óscar')
    await getDb()
      .update(jobs)
      .set({ finishedAt: sql`now() - interval '31 days'` })
      .where(sql`${jobs.status} in ('done', 'failed')`)
    await housekeepingJob.run({}, { attempts: 1, jobId: 0 })
    expect(await naming(member, names)).toEqual({ 'audit_log.target_user_id': 2 })
    // A failed e-mail to someone still here stays for the operator to see.
    expect(await rows(sql`select id from jobs where status = 'failed' and payload->>'to' = ${other.email}`)).toHaveLength(1)
  })

  test('deleting what they wrote too: their posts (with files), comments and the replies to them go; counters are counted again', async () => {
    const seeded = await busyMember()
    const deleted = await deleteOwn(seeded.member, { writing: 'delete' })
    expect(deleted.status).toBe(302)
    expect(await post(seeded.ownPost)).toBeUndefined()
    await runDueJobs({ names: ['account.deletion-files'] })
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
    expect(await naming(seeded.member, ['Elena', 'Olvidada'])).toEqual({ 'audit_log.target_user_id': 2, 'jobs.payload': 2 })
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
    expect(await naming(member)).toHaveProperty(['user.id'], 1)
  })

  test('with two-factor sign-in on, a code is needed too: none, a wrong one and a replayed recovery code are refused', async () => {
    const member = await enrolled()
    const none = await deleteOwn(member)
    expect(none.status).toBe(400)
    expect(none.data.message.title).toBe(SECOND_FACTOR_MESSAGE)
    const wrong = await deleteOwn(member, { code: '000000' })
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    // A recovery code used to sign in, sent again: refused, the account stays.
    const [used, unused] = member.backupCodes
    const step = await run(() =>
      authRoute.action({
        request: formRequest('/auth', { intent: 'signin', email: member.email, password: member.password }),
        params: {},
        context,
      } as any),
    )
    const signedIn = await run(() =>
      authRoute.action({
        request: formRequest('/auth?tab=codigo', { intent: 'two-factor', code: used! }, { cookie: cookiesFrom(step.headers) }),
        params: {},
        context,
      } as any),
    )
    expect(signedIn.status).toBe(302)
    const replayed = await deleteOwn(member, { code: used!.replace('-', '') })
    expect(replayed.status).toBe(400)
    expect(replayed.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    expect(await isSignedIn(member.cookie)).toBe(true)
    const deleted = await deleteOwn(member, { code: unused!.replace('-', '') })
    expect(deleted.status).toBe(302)
    // Kept, by id: the audit lines of turning two-factor on, of the recovery code that signed in, and of the deletion.
    expect(await naming(member)).toEqual({ 'audit_log.target_user_id': 3, 'audit_log.actor_user_id': 2, 'jobs.payload': 1 })
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

  /** A paying member (a live subscription and an old one) holding an event's last place, with Óscar queued behind. */
  async function payingMember() {
    const member = await person('premium')
    const other = await person('premium', { firstName: 'Óscar', lastName: 'Espera' })
    const customer = `cus_${crypto.randomUUID().slice(0, 8)}`
    await getDb().update(profiles).set({ stripeCustomerId: customer }).where(eq(profiles.userId, member.userId!))
    const live = {
      id: `sub_${crypto.randomUUID().slice(0, 8)}`,
      customer,
      status: 'active',
      current_period_end: Math.floor(Date.now() / 1000) + 86_400,
    }
    fake.subscriptions.push(live, {
      id: `sub_${crypto.randomUUID().slice(0, 8)}`,
      customer,
      status: 'canceled',
      current_period_end: 1_700_000_000,
    })
    const eventId = await createEvent(
      {
        title: 'Desayuno de consejeros',
        description: 'Networking',
        content: null,
        eventDate: new Date(Date.now() + 10 * 24 * 3600 * 1000),
        timeZone: 'Europe/Madrid',
        durationMinutes: 60,
        location: 'Madrid',
        eventType: 'presencial',
        maxAttendees: 1,
        externalLink: null,
      },
      member.userId!,
    )
    expect((await toggleRegistration(eventId, member.userId!)).kind).toBe('registered')
    expect((await toggleRegistration(eventId, other.userId!)).kind).toBe('waitlisted')
    return { member, other, live, eventId }
  }
  const places = async (eventId: string) =>
    (
      await getDb()
        .select({ userId: eventAttendees.userId, status: eventAttendees.status })
        .from(eventAttendees)
        .where(eq(eventAttendees.eventId, eventId))
    )
      .map((place) => `${place.userId}:${place.status}`)
      .sort()
  const cancelJobs = () => rows(sql`select status, attempts, last_error from jobs where name = 'billing.cancel-subscriptions' order by id`)

  test('all or nothing: when the deletion fails after where Stripe used to be called, the account, the subscription and the places are as they were', async () => {
    const { member, other, live, eventId } = await payingMember()
    const before = await places(eventId)
    const requestsBefore = fake.requests.length
    // The account row refuses to go: the transaction fails after the events and the subscription were dealt with.
    await getDb().execute(
      sql.raw(`create function refuse_deletion() returns trigger language plpgsql as $$ begin raise exception 'simulated failure'; end $$`),
    )
    await getDb().execute(
      sql.raw(
        `create trigger refuse_deletion before delete on "user" for each row when (old.id = '${member.userId}') execute function refuse_deletion()`,
      ),
    )
    try {
      const failed = await deleteOwn(member)
      expect(failed.status).toBe(500)
    } finally {
      await getDb().execute(sql.raw('drop trigger refuse_deletion on "user"'))
      await getDb().execute(sql.raw('drop function refuse_deletion()'))
    }
    expect(await isSignedIn(member.cookie!)).toBe(true)
    expect(fake.requests.slice(requestsBefore).filter((request) => request.method === 'DELETE')).toEqual([])
    expect(live.status).toBe('active')
    expect(await cancelJobs()).toEqual([])
    expect(await places(eventId)).toEqual(before)
    expect(before).toEqual([`${member.userId}:registered`, `${other.userId}:waitlisted`].sort())
    expect(await queuedMails(member.email!, 'Tu cuenta se ha eliminado')).toHaveLength(0)
  })

  test('after the commit a job cancels it, retried while Stripe is away; Stripe away no longer keeps the account', async () => {
    const { member, other, live, eventId } = await payingMember()
    fake.failNextWith(500, 100)
    const deleted = await deleteOwn(member)
    expect(deleted.status).toBe(302)
    expect(await isSignedIn(member.cookie!)).toBe(false)
    // The place went to the queue in the deletion's transaction.
    expect(await places(eventId)).toEqual([`${other.userId}:registered`])
    expect((await latestMailTo(member.email!, 'Tu cuenta se ha eliminado'))!.text).toContain(
      'Si tenías una suscripción, la estamos cancelando',
    )

    // Stripe away: the job fails and waits its turn again; the subscription is still live.
    await runDueJobs({ names: ['billing.cancel-subscriptions'] })
    expect(await cancelJobs()).toEqual([{ status: 'queued', attempts: 1, last_error: expect.any(String) }])
    expect(live.status).toBe('active')

    // Stripe back: the next try cancels the live one, once, with its idempotency key.
    fake.failNextWith(500, 0)
    await getDb().execute(sql`update jobs set run_at = now() where name = 'billing.cancel-subscriptions'`)
    await runDueJobs({ names: ['billing.cancel-subscriptions'] })
    expect(await cancelJobs()).toEqual([{ status: 'done', attempts: 2, last_error: null }])
    const cancels = fake.requests.filter((request) => request.method === 'DELETE' && request.path.endsWith(live.id))
    expect(cancels.map((request) => request.path)).toEqual([`/v1/subscriptions/${live.id}`])
    expect(cancels[0]!.idempotencyKey).toBe(`account-deletion:${live.id}`)
    expect(live.status).toBe('canceled')
    // The job names the Stripe customer only, never the member.
    expect(await naming(member)).toEqual({ 'audit_log.target_user_id': 1, 'jobs.payload': 1 })
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
