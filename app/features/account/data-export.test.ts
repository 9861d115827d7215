import { and, eq, sql } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'
import * as applicationRoute from '~/features/admission/application.route'
import * as applyRoute from '~/features/admission/apply.route'
import { statusPath } from '~/features/admission/admission.server'
import * as invitationRoute from '~/features/admission/invitation.route'
import { admissionApplications } from '~/features/admission/schema'
import * as statusRoute from '~/features/admission/status.route'
import { invoices, refunds, subscriptions } from '~/features/billing/schema'
import { ceoSessionComments, ceoSessionLikes, ceoSessionProgress } from '~/features/ceo-sessions/schema'
import { createEvent, toggleRegistration } from '~/features/events/events.server'
import { communityComments } from '~/features/feed/schema'
import * as memberRoute from '~/features/members/member.route'
import * as queueRoute from '~/features/moderation/queue.route'
import * as reportRoute from '~/features/moderation/report.route'
import { memberActivityDays, passkey } from '~/platform/auth/schema'
import { signedToken } from '~/platform/auth/signature.server'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { memberTables } from '~/platform/privacy/member-data'
import { getStorage } from '~/platform/storage/storage.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPost, createPostWithFiles, feedAction } from '../../../tests/setup/feed'
import { completeProfile, createPersona } from '../../../tests/setup/members'
import {
  createConfirmedUser,
  firstLink,
  formRequest,
  getRequest,
  latestMailTo,
  readToast,
  run,
  uniqueEmail,
} from '../../../tests/setup/requests'
import { newSession } from '../../../tests/setup/sessions'
import * as exportRoute from './data-export.route'
import { EXPORT_MESSAGES } from './data-export.server'
import * as profileRoute from './profile.route'

useTestDatabase()

const context = { cspNonce: 'test' }
const post = (route: { action: (args: any) => unknown }, path: string, fields: Record<string, string>, cookie?: string, params = {}) =>
  run(() => route.action({ request: formRequest(path, fields, { cookie }), params, context }))
const adminAction = (userId: string, fields: Record<string, string>, cookie?: string) =>
  post(memberRoute, `/usuario/${userId}`, fields, cookie, { userId })
const eventFields = (title: string) => ({
  title,
  description: 'Networking',
  content: null,
  eventDate: new Date(Date.now() + 10 * 24 * 3600 * 1000),
  timeZone: 'Europe/Madrid',
  durationMinutes: 120,
  location: 'Madrid',
  eventType: 'presencial' as const,
  maxAttendees: 1,
  externalLink: null,
})
const ask = (cookie: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', { intent: 'export-data' }, { cookie }), params: {}, context } as any))
const download = (token: string, cookie?: string) =>
  run(() => exportRoute.loader({ request: getRequest(`/perfil/datos/${token}`, { cookie }), params: { token }, context } as any))
/** The download as the browser gets it (run() would read the ZIP as text). */
const downloadBytes = async (token: string, cookie: string) =>
  (await exportRoute.loader({ request: getRequest(`/perfil/datos/${token}`, { cookie }), params: { token }, context } as any)) as Response

/** The member's ZIP, every file in it. */
async function zipOf(member: { cookie?: string; email?: string }) {
  const { token } = await exported(member)
  const response = await downloadBytes(token, member.cookie!)
  expect(response.status).toBe(200)
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
  return { files, data: JSON.parse(new TextDecoder().decode(files['mis-datos.json'])) }
}

async function exported(member: { cookie?: string; email?: string }) {
  const asked = await ask(member.cookie!)
  expect(asked.status).toBe(302)
  expect(await readToast(asked.headers)).toMatchObject({ title: EXPORT_MESSAGES.queued })
  await runDueJobs({ names: ['account.data-export'] })
  const mail = await latestMailTo(member.email!, 'Tus datos están listos para descargar')
  const token = new URL(firstLink(mail!.text)).pathname.split('/').pop()!
  return { token }
}

describe("'Descargar mis datos'", () => {
  test('the e-mailed link gives a ZIP with everything about the member, readable, with their files, and no secrets', async () => {
    const member = await createPersona('premium', { firstName: 'Carmen', lastName: 'Exporta' })
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
    const created = await createPostWithFiles(
      { title: 'Mi post exportado', postType: 'document' },
      [{ bytes: pdf, name: 'informe.pdf', type: 'application/pdf' }],
      member.cookie,
    )
    const postId = created.data.postId as string
    await feedAction({ intent: 'add-comment', postId, content: 'Mi comentario exportado' }, member.cookie)
    await feedAction({ intent: 'like-post', postId }, member.cookie)
    await getDb().insert(admissionApplications).values({
      email: member.email!,
      firstName: 'Carmen',
      lastName: 'Exporta',
      linkedinUrl: 'https://www.linkedin.com/in/carmen',
      company: 'Pharma SA',
      position: 'CFO',
      sector: 'pharma',
      yearsExperience: 20,
      targetRole: 'CEO',
      contribution: 'Finanzas',
      expectations: 'Red',
      status: 'approved',
      userId: member.userId,
    })
    const admin = await createPersona('admin', { firstName: 'Irene', lastName: 'Concede' })
    await feedAction({ intent: 'like-post', postId }, admin.cookie)
    expect((await adminAction(member.userId!, { intent: 'premium', premium: 'true' }, admin.cookie)).status).toBe(302)
    await getDb()
      .insert(subscriptions)
      .values({
        id: 'sub_carmen',
        userId: member.userId!,
        customerId: 'cus_carmen',
        status: 'active',
        monthlyCents: 8900,
        currency: 'eur',
        startedAt: new Date('2026-10-01T00:00:00Z'),
      })
    await getDb().insert(memberActivityDays).values({ userId: member.userId!, day: '2026-11-20' })
    const eventId = await createEvent(eventFields('Cena de directivas'), admin.userId!)
    expect((await toggleRegistration(eventId, member.userId!)).kind).toBe('registered')

    const { token } = await exported(member)
    const response = await downloadBytes(token, member.cookie!)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toContain('mis-datos-circulo-ceo.zip')
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
    const json = new TextDecoder().decode(files['mis-datos.json'])
    const data = JSON.parse(json)
    expect(data.cuenta[0]).toMatchObject({ email: member.email, first_name: 'Carmen' })
    expect(data.publicaciones.map((post: { title: string }) => post.title)).toEqual(['Mi post exportado'])
    expect(data.comentarios.map((comment: { content: string }) => comment.content)).toEqual(['Mi comentario exportado'])
    expect(data.likes_a_publicaciones).toHaveLength(1)
    expect(data.solicitudes_de_admision[0]).toMatchObject({ company: 'Pharma SA', status: 'approved' })
    expect(data.suscripciones).toEqual([expect.objectContaining({ id: 'sub_carmen', customer_id: 'cus_carmen', status: 'active' })])
    expect(data.dias_de_actividad).toContainEqual({ day: '2026-11-20' })
    expect(data.eventos_inscripciones).toEqual([
      expect.objectContaining({ event_id: eventId, title: 'Cena de directivas', status: 'registered' }),
    ])
    // Whoever liked her post and granted her premium is not named: the kind and the link stay, the words go.
    expect(data.notificaciones).toEqual([
      expect.objectContaining({ type: 'like', title: 'Nuevo like', message: null, related_post_id: postId, is_read: false }),
    ])
    expect(data.registro_de_acciones).toEqual([
      { action: 'premium_granted', details: { source: 'admin' }, ip_address: null, created_at: expect.any(String) },
    ])
    // Its files: the post's attachment, byte for byte.
    const attachment = Object.keys(files).find((name) => name.startsWith('archivos/') && name.endsWith('informe.pdf'))
    expect(Buffer.from(files[attachment!]!)).toEqual(Buffer.from(pdf))
    // No secret of the app: no password hash, no session token.
    const sessionToken = decodeURIComponent(member.cookie!.split('=')[1]!).split('.')[0]!
    expect(json).not.toContain(sessionToken)
    expect(json).not.toMatch(/"password"|"token"/)
  })

  test('once a day; the link works only for its member, signed in, while it is current; the file goes after 48 hours', async () => {
    const member = await createPersona('member')
    const { token } = await exported(member)
    const again = await ask(member.cookie!)
    expect(again.status).toBe(429)
    expect(again.data.message.title).toBe(EXPORT_MESSAGES.once)

    const stranger = await createPersona('member')
    const theirs = await download(token, stranger.cookie)
    expect(theirs.location).toBe('/perfil#tus-datos')
    expect(await readToast(theirs.headers)).toMatchObject({ title: EXPORT_MESSAGES.gone })
    expect((await download(token)).location).toBe(`/auth?redirectTo=${encodeURIComponent(`/perfil/datos/${token}`)}`)
    const forged = `${token.slice(0, -2)}xx`
    expect((await download(forged, member.cookie)).location).toBe('/perfil#tus-datos')
    const exportId = token.split('.')[0]!
    const expired = signedToken('data-export', exportId, -1)
    expect((await download(expired, member.cookie)).location).toBe('/perfil#tus-datos')

    expect((await downloadBytes(token, member.cookie!)).status).toBe(200)
    const key = `exports/${member.userId}/${exportId}.zip`
    expect(await getStorage().size(key)).toBeGreaterThan(0)
    const { expireExportJob } = await import('./data-export.server')
    await expireExportJob.run({ userId: member.userId!, exportId }, { attempts: 1, jobId: 0 })
    expect(await getStorage().size(key)).toBeNull()
    expect((await download(token, member.cookie)).location).toBe('/perfil#tus-datos')
  })
})

describe('what the export covers', () => {
  test('every table with a column naming a member is exported or says why not, in its feature’s part; every section named is in the file', async () => {
    const result = (await getDb().execute(
      sql`select distinct table_name from information_schema.columns
          where table_schema = 'public' and column_name in ('user_id', 'actor_user_id', 'target_user_id', 'created_by', 'decided_by')
          union select 'user'`,
    )) as unknown as { rows: Array<{ table_name: string }> }
    const tables = result.rows.map((row) => row.table_name).sort()
    const MEMBER_TABLES = memberTables()
    expect(
      tables.filter((table) => !(table in MEMBER_TABLES)),
      "tables to declare in their feature's member-data.server.ts",
    ).toEqual([])

    const member = await createPersona('member')
    const { token } = await exported(member)
    const data = JSON.parse(
      new TextDecoder().decode(
        unzipSync(new Uint8Array(await (await downloadBytes(token, member.cookie!)).arrayBuffer()))['mis-datos.json'],
      ),
    )
    const sections = Object.values(MEMBER_TABLES).flatMap((cover) => ('section' in cover ? [cover.section] : []))
    expect(sections.filter((section) => !(section in data))).toEqual([])
  })
})

/**
 * Issue 36 (review S1, S2): an export is the member's alone. Staff and members with history in
 * every table: an admin who decides applications, moderates and hears of applicants; a moderator
 * who was warned and suspended by that admin before being made one; a member they moderated; an
 * applicant who became a member (with an internal note on her application); and a rejected
 * applicant without an account.
 */
describe('each export holds only its member', () => {
  test('no other person’s id, e-mail or name anywhere in the ZIP of the moderated member, the moderator, the admin or the applicant', async () => {
    const admin = await createPersona('admin', { firstName: 'Adela', lastName: 'Zubizarreta' })
    const moderator = await createPersona('premium', { firstName: 'Modesto', lastName: 'Quintanilla' })
    const member = await createPersona('premium', { firstName: 'Ximena', lastName: 'Villalobos' })
    const applicantEmail = uniqueEmail('paula')
    const rejectedEmail = uniqueEmail('quirina')
    const db = getDb()
    const review = (id: string, fields: Record<string, string>) =>
      post(applicationRoute, `/admin/admisiones/${id}`, fields, admin.cookie, { applicationId: id })
    const report = (who: { cookie?: string }, kind: string, itemId: string, reason: string, note = '') =>
      post(reportRoute, '/moderacion/informar', { intent: 'report', kind, itemId, reason, note }, who.cookie)
    // A decision answers with the queue again (a redirect with its toast).
    const queue = async (who: { cookie?: string }, fields: Record<string, string>) =>
      (await post(queueRoute, '/admin/moderacion', fields, who.cookie)).location
    const apply = async (email: string, firstName: string, lastName: string) => {
      const fields = {
        intent: 'apply',
        email,
        firstName,
        lastName,
        phone: '+34 600 123 456',
        linkedinUrl: `https://www.linkedin.com/in/${firstName.toLowerCase()}`,
        company: 'Biofarma Ibérica',
        position: 'Directora de operaciones',
        sector: 'biotech',
        yearsExperience: '15',
        targetRole: 'CEO',
        contribution: 'Quince años llevando plantas de biológicos.',
        expectations: 'Conversaciones francas.',
        referral: '',
        consent: 'on',
      }
      expect((await post(applyRoute, '/admision', fields)).status).toBe(303)
      const [row] = await db
        .select({ id: admissionApplications.id })
        .from(admissionApplications)
        .where(eq(admissionApplications.email, email))
      return row!.id
    }

    // Admission: an applicant with an internal note, a question and her answer, approved; she signs up and takes the invitation.
    const applicationId = await apply(applicantEmail, 'Paula', 'Echeverria')
    const rejectedId = await apply(rejectedEmail, 'Quirina', 'Olabarrieta')
    expect((await review(applicationId, { intent: 'note', note: 'NOTA-INTERNA: referencia verificada por teléfono' })).status).toBe(200)
    expect((await review(applicationId, { intent: 'ask-info', seen: 'pending', question: '¿Cuántas personas diriges?' })).status).toBe(200)
    const statusToken = statusPath(applicationId).split('/').pop()!
    const answered = await post(statusRoute, '/admision/estado', { intent: 'answer', answer: 'Un equipo de cuarenta.' }, undefined, {
      token: statusToken,
    })
    expect(answered.status).toBe(200)
    expect((await review(applicationId, { intent: 'approve', seen: 'pending' })).status).toBe(200)
    expect((await review(rejectedId, { intent: 'reject', seen: 'pending' })).status).toBe(200)
    const applicant = await createConfirmedUser({ email: applicantEmail, firstName: 'Paula', lastName: 'Echeverria' })
    await completeProfile(applicant.userId, { isPremium: true })
    const invitation = new URL(firstLink((await latestMailTo(applicantEmail, 'Tu admisión en Círculo CEO está aprobada'))!.text)).pathname
    const token = invitation.split('/').pop()!
    const opened = await run(() =>
      invitationRoute.loader({ request: getRequest(invitation, { cookie: applicant.cookie }), params: { token }, context } as any),
    )
    expect(opened.data.state).toBe('ready')

    // The feed: her post (with a file), liked and commented by the admin; her reply, her comment and like on the admin's post.
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
    const herPost = (
      await createPostWithFiles(
        { title: 'Ofertas de consultoría', postType: 'document' },
        [{ bytes: pdf, name: 'tarifas.pdf', type: 'application/pdf' }],
        member.cookie,
      )
    ).data.postId as string
    const adminsPost = await createPost(admin.cookie!, { title: 'Normas de la comunidad' })
    await feedAction({ intent: 'like-post', postId: herPost }, admin.cookie)
    await feedAction({ intent: 'add-comment', postId: herPost, content: '¿Es publicidad?' }, admin.cookie)
    const commentOf = async (userId: string) =>
      (await db.select({ id: communityComments.id }).from(communityComments).where(eq(communityComments.userId, userId)))[0]!.id
    await feedAction(
      { intent: 'add-comment', postId: herPost, content: 'No lo es.', parentCommentId: await commentOf(admin.userId!) },
      member.cookie,
    )
    await feedAction({ intent: 'add-comment', postId: adminsPost, content: 'De acuerdo con todo.' }, member.cookie)
    await feedAction({ intent: 'like-post', postId: adminsPost }, member.cookie)
    await feedAction({ intent: 'like-comment', commentId: await commentOf(admin.userId!) }, member.cookie)

    // The moderator, still a member: she reports his profile; the admin warns him, suspends him, lifts it and makes him a moderator.
    expect((await report(member, 'member', moderator.userId!, 'offensive', 'Respuestas agresivas')).status).toBe(200)
    expect(await queue(admin, { intent: 'member', userId: moderator.userId!, action: 'warn', reason: 'Tono inadecuado' })).toBe(
      '/admin/moderacion',
    )
    expect(await queue(admin, { intent: 'member', userId: moderator.userId!, action: 'suspend', days: '7', reason: 'Reincidencia' })).toBe(
      '/admin/moderacion',
    )
    expect(await queue(admin, { intent: 'member', userId: moderator.userId!, action: 'lift' })).toBe('/admin/moderacion')
    expect((await adminAction(moderator.userId!, { intent: 'role', role: 'moderator', grant: 'true' }, admin.cookie)).status).toBe(302)
    expect((await adminAction(member.userId!, { intent: 'premium', premium: 'true' }, admin.cookie)).status).toBe(302)

    // The applicant reports her post, her comment and her profile; the moderator hides the post and dismisses the comment; the admin warns her.
    expect((await report(applicant, 'post', herPost, 'spam', 'Publicidad')).status).toBe(200)
    const herComment = await commentOf(member.userId!)
    expect((await report(applicant, 'comment', herComment, 'off_topic')).status).toBe(200)
    expect((await report(applicant, 'member', member.userId!, 'offensive', 'Insiste en vender')).status).toBe(200)
    expect(
      await queue(moderator, { intent: 'decide', kind: 'post', itemId: herPost, action: 'hide', reason: 'Publicidad no permitida' }),
    ).toBe('/admin/moderacion')
    expect(await queue(moderator, { intent: 'decide', kind: 'comment', itemId: herComment, action: 'dismiss' })).toBe('/admin/moderacion')
    expect(await queue(admin, { intent: 'member', userId: member.userId!, action: 'warn', reason: 'Lenguaje comercial' })).toBe(
      '/admin/moderacion',
    )

    // An event (she has the place, he waits), a session she liked, commented and watched, her subscription, a passkey, a day of activity.
    const eventId = await createEvent(eventFields('Cena de directivas'), admin.userId!)
    expect((await toggleRegistration(eventId, member.userId!)).kind).toBe('registered')
    expect((await toggleRegistration(eventId, moderator.userId!)).kind).toBe('waitlisted')
    const { sessionId } = await newSession(admin.userId!)
    await db.insert(ceoSessionLikes).values({ sessionId, userId: member.userId! })
    await db.insert(ceoSessionComments).values({ sessionId, userId: member.userId!, content: 'Muy útil' })
    await db.insert(ceoSessionProgress).values({ sessionId, userId: member.userId!, positionSeconds: 42 })
    await db.insert(subscriptions).values({
      id: 'sub_ximena',
      userId: member.userId!,
      customerId: 'cus_ximena',
      status: 'active',
      monthlyCents: 8900,
      currency: 'eur',
      startedAt: new Date('2026-10-01T00:00:00Z'),
    })
    // Her invoice (her company's name and NIF) and its refund, which an admin made with a reason.
    await db.insert(invoices).values({
      id: 'in_ximena',
      userId: member.userId!,
      customerId: 'cus_ximena',
      status: 'paid',
      currency: 'eur',
      totalCents: 8900,
      taxCents: 1545,
      billingName: 'Finanzas Ximena, S.L.',
      billingTaxId: 'B11111111',
      issuedAt: new Date('2026-10-01T00:00:00Z'),
    })
    await db.insert(refunds).values({
      invoiceId: 'in_ximena',
      userId: member.userId!,
      amountCents: 8900,
      currency: 'eur',
      withinGuarantee: false,
      reason: 'Lo pidió por escrito',
      status: 'done',
    })
    await db.insert(passkey).values({
      id: 'pk_ximena',
      name: 'Portátil',
      publicKey: 'pk',
      userId: member.userId!,
      credentialID: 'cred_ximena',
      counter: 0,
      deviceType: 'singleDevice',
      backedUp: false,
    })
    for (const who of [admin, moderator, member, applicant])
      await db.insert(memberActivityDays).values({ userId: who.userId!, day: '2026-11-20' })

    const people = {
      admin: [admin.userId!, admin.email!, 'Adela', 'Zubizarreta'],
      moderator: [moderator.userId!, moderator.email!, 'Modesto', 'Quintanilla'],
      member: [member.userId!, member.email!, 'Ximena', 'Villalobos'],
      applicant: [applicant.userId, applicantEmail, 'Paula', 'Echeverria'],
      rejected: [rejectedEmail, 'Quirina', 'Olabarrieta'],
    }
    const exports: Record<string, Awaited<ReturnType<typeof zipOf>>> = {}
    for (const [who, account] of Object.entries({ admin, moderator, member, applicant })) {
      const zip = (exports[who] = await zipOf(account))
      // Every byte of every file in the ZIP, and its name.
      const bytes = Object.entries(zip.files)
        .map(([name, content]) => `${name}\n${Buffer.from(content).toString('utf8')}`)
        .join('\n')
      const others = Object.entries(people).filter(([other]) => other !== who)
      const found = others.flatMap(([other, needles]) =>
        needles.filter((needle) => bytes.toLowerCase().includes(needle.toLowerCase())).map((needle) => `${other}: ${needle}`),
      )
      expect(found, `another person named in the export of the ${who}`).toEqual([])
      // Their own e-mail is there: the search finds what is there.
      expect(bytes).toContain(people[who as keyof typeof people][1])
    }

    // What each holds of their own: the moderated member, what was decided about her and why, never by whom.
    const { data: hers } = exports.member!
    expect(hers.decisiones_de_moderacion.map((d: { action: string; reason: string }) => `${d.action}: ${d.reason}`).sort()).toEqual([
      'dismiss: null',
      'hide: Publicidad no permitida',
      'warn: Lenguaje comercial',
    ])
    expect(hers.informes_enviados).toEqual([
      expect.objectContaining({ kind: 'member', item_id: null, reason: 'offensive', note: 'Respuestas agresivas', status: 'actioned' }),
    ])
    expect(hers.registro_de_acciones.map((line: { action: string }) => line.action).sort()).toEqual([
      'content_hidden',
      'member_warned',
      'premium_granted',
      'report_dismissed',
    ])
    expect(hers.registro_de_acciones.every((line: object) => !('actor_user_id' in line))).toBe(true)
    expect(hers.notificaciones.map((n: { type: string }) => n.type).sort()).toEqual(
      ['comment', 'like', 'moderation_decision', 'moderation_decision', 'moderation_outcome'].sort(),
    )
    expect(hers.notificaciones.find((n: { type: string }) => n.type === 'like').message).toBeNull()
    expect(hers.publicaciones).toEqual([
      expect.objectContaining({ title: 'Ofertas de consultoría', hidden_reason: 'Publicidad no permitida' }),
    ])
    expect(hers.llaves_de_acceso).toEqual([expect.objectContaining({ name: 'Portátil' })])
    expect(Object.keys(exports.member!.files).some((name) => name.endsWith('tarifas.pdf'))).toBe(true)

    // The moderator: what was decided about his account, not what he decided about others.
    const { data: his } = exports.moderator!
    expect(his.decisiones_de_moderacion.map((d: { action: string }) => d.action).sort()).toEqual(['lift', 'suspend', 'warn'])
    expect(his.registro_de_acciones.map((line: { action: string }) => line.action).sort()).toEqual([
      'member_reinstated',
      'member_suspended',
      'member_warned',
      'role_granted',
    ])
    expect(his.notificaciones.find((n: { type: string }) => n.type === 'moderation_report')).toMatchObject({
      title: 'Nuevo informe',
      message: null,
    })

    // The applicant: her application and its history as it was addressed to her, no internal note.
    const { data: applicants, files: applicantFiles } = exports.applicant!
    expect(applicants.solicitudes_de_admision).toEqual([expect.objectContaining({ status: 'approved', company: 'Biofarma Ibérica' })])
    expect(applicants.solicitudes_de_admision_historial.map((e: { kind: string; body: string | null }) => [e.kind, e.body])).toEqual([
      ['submitted', null],
      ['info_requested', '¿Cuántas personas diriges?'],
      ['answered', 'Un equipo de cuarenta.'],
      ['approved', null],
      ['invitation_used', null],
    ])
    expect(new TextDecoder().decode(applicantFiles['mis-datos.json'])).not.toContain('NOTA-INTERNA')

    // The admin: her own account; nothing of the applications she decided or the members she moderated.
    const { data: admins } = exports.admin!
    expect(admins.registro_de_acciones).toEqual([])
    expect(admins.notificaciones.filter((n: { type: string }) => n.type === 'admission_application')).toHaveLength(3)
    expect(admins.notificaciones.every((n: { message: string | null }) => n.message === null)).toBe(true)
    expect(
      await db
        .select({ id: admissionApplications.id })
        .from(admissionApplications)
        .where(and(eq(admissionApplications.id, applicationId), eq(admissionApplications.userId, applicant.userId))),
    ).toHaveLength(1)
  }, 60_000)
})
