import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import { createElement } from 'react'
import { redirect } from 'react-router'
import { displayName } from '~/features/account/display-name'
import { nameColumns, profiles } from '~/features/account/schema'
import { readCounters } from '~/features/community/counters.server'
import { normalizeSearch } from '~/features/members/members.server'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { recordAudit } from '~/platform/audit/audit.server'
import type { AuditAction } from '~/platform/audit/actions'
import { accountExists } from '~/features/account/auth.server'
import type { CurrentUser } from '~/features/account/guards.server'
import { user, userRoles } from '~/platform/auth/schema'
import { readSignedToken, signedToken } from '~/platform/auth/signature.server'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { enqueueMail, enqueueRenderedMail, renderMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { readSettings } from '~/platform/settings/settings.server'
import { site } from '~/site.config'
import {
  ADMISSION_MESSAGES as MESSAGES,
  type ApplicationStatus,
  INVITATION_DAYS,
  RETENTION_MONTHS,
  SECTORS,
  type Sector,
  STATUS_LINK_DAYS,
} from './limits'
import { admissionApplications as applications, admissionEvents as events, admissionStatusEnum, OPEN_STATUSES } from './schema'
import { admissionSettings } from './settings.server'
import { ApplicantIntent, type ApplicationInput, ApplicationSchema, ReviewIntent } from './schemas'

/** Admission inside the product (issue 26, decisions/0025): apply, the private status link, review, invite to pay. */

const DAY_SECONDS = 24 * 60 * 60
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const STATUS_PURPOSE = 'admission-status'
const INVITATION_PURPOSE = 'admission-invitation'

export const statusPath = (id: string, now = Date.now()) =>
  `/admision/estado/${signedToken(STATUS_PURPOSE, id, STATUS_LINK_DAYS * DAY_SECONDS, now)}`
export const invitationPath = (id: string, now = Date.now()) =>
  `/admision/invitacion/${signedToken(INVITATION_PURPOSE, id, INVITATION_DAYS * DAY_SECONDS, now)}`
const absolute = (path: string) => `${getEnv().APP_URL}${path}`

const openCondition = inArray(applications.status, [...OPEN_STATUSES])

const ANSWER_LABELS: Array<[keyof ApplicationInput, string]> = [
  ['firstName', 'Nombre'],
  ['lastName', 'Apellidos'],
  ['email', 'Email'],
  ['phone', 'Teléfono'],
  ['linkedinUrl', 'LinkedIn'],
  ['company', 'Empresa'],
  ['position', 'Cargo'],
  ['sector', 'Sector'],
  ['yearsExperience', 'Años de experiencia'],
  ['targetRole', 'Puesto al que aspiras'],
  ['contribution', 'Qué aportarías'],
  ['expectations', 'Qué esperas'],
  ['referral', 'Cómo nos conociste'],
]

type Answers = Omit<ApplicationInput, 'intent' | 'consent' | 'website' | 'link'>

/** What the applicant sent, labelled as the form labels it (the e-mail, the admin's page). */
export function answersOf(application: Answers): Array<[string, string]> {
  return ANSWER_LABELS.flatMap(([key, label]) => {
    const value = application[key as keyof typeof application]
    if (value === null || value === undefined || value === '') return []
    return [[label, key === 'sector' ? SECTORS[value as Sector] : String(value)]]
  })
}

// ---------------------------------------------------------------------------------------------
// The applicant

export function applyAction(request: Request) {
  return handleIntent(request, ApplicationSchema, {
    apply: { invalid: MESSAGES.invalid, failed: MESSAGES.failed, run: (input) => submitApplication(request, input) },
  })
}

async function submitApplication(request: Request, { intent: _, consent: __, website, link, ...answers }: ApplicationInput) {
  await enforceRateLimits([
    { key: `admission:ip:${clientIp(request)}`, max: 5, windowSeconds: 60 * 60 },
    { key: `admission:email:${answers.email}`, max: 3, windowSeconds: 60 * 60 },
  ])
  // A robot filled the field people never see: it is told what a person is told, and nothing is kept.
  if (website) {
    logger.info({ ip: clientIp(request) }, 'Admission form honeypot filled; nothing stored')
    return redirect('/admision?enviada=1', 303)
  }
  if (link) return changeApplication(statusLinkId(link), answers)
  // An open application is changed only through its private link (decisions/0025): whoever knows
  // only the e-mail is told so, and the link goes again to that address, with nothing they wrote.
  const [open] = await getDb()
    .select({ id: applications.id, firstName: applications.firstName })
    .from(applications)
    .where(and(eq(applications.email, answers.email), openCondition))
  if (open) {
    await enqueueMail({
      to: answers.email,
      subject: 'Tu enlace para ver o cambiar tu solicitud de admisión',
      email: createElement(NoticeEmail, {
        title: 'Tu solicitud de admisión',
        firstName: open.firstName,
        paragraphs: [
          'Alguien ha enviado de nuevo el formulario de admisión con este email. No hemos cambiado tu solicitud: solo se cambia desde tu enlace privado.',
          'Si fuiste tú, ábrelo para verla o cambiarla. Si no, no tienes que hacer nada.',
        ],
        button: { label: 'Ver o cambiar mi solicitud', url: absolute(statusPath(open.id)) },
      }),
    })
    refuse(409, MESSAGES.alreadyOpen, { detail: { applicationId: open.id } })
  }
  // The application, its history line and the admins' bell commit together: a failure leaves
  // nothing behind, and sending again is a new application (admins told).
  const admins = await adminIds()
  const id = await getDb().transaction(async (tx) => {
    // Two sends at once: the partial unique index lets one in, and the other is told as above.
    const [saved] = await tx
      .insert(applications)
      .values(answers)
      .onConflictDoNothing({ target: applications.email, where: openCondition })
      .returning({ id: applications.id })
    if (!saved) refuse(409, MESSAGES.alreadyOpen)
    await tx.insert(events).values({ applicationId: saved.id, kind: 'submitted' })
    await notifyAdmins(
      tx,
      admins,
      saved.id,
      'Nueva solicitud de admisión',
      `${answers.firstName} ${answers.lastName} (${answers.position}, ${answers.company}) ha solicitado la admisión`,
    )
    return saved.id
  })
  await enqueueMail(confirmationMail(id, answers, 'received'))
  return redirect('/admision?enviada=1', 303)
}

/** The applicant's own change, through the private link: every answer but the e-mail, while it is open. */
async function changeApplication(id: string, { email: _, ...changes }: Answers) {
  const { email } = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(applications)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(applications.id, id), openCondition))
      .returning({ email: applications.email })
    if (!row) refuse(409, MESSAGES.closed)
    await tx.insert(events).values({ applicationId: id, kind: 'updated' })
    return row
  })
  await enqueueMail(confirmationMail(id, { ...changes, email }, 'updated'))
  return redirect('/admision?enviada=1', 303)
}

/** What the applicant sent, with the private link (rendered after the commit: it needs the application's id). */
function confirmationMail(id: string, answers: Answers, step: 'received' | 'updated') {
  return {
    to: answers.email,
    subject: step === 'received' ? 'Hemos recibido tu solicitud de admisión' : 'Hemos actualizado tu solicitud de admisión',
    email: createElement(NoticeEmail, {
      title: step === 'received' ? 'Solicitud recibida' : 'Solicitud actualizada',
      firstName: answers.firstName,
      paragraphs: [
        `Gracias por solicitar tu admisión en ${site.name}. Revisaremos tu solicitud en los próximos días y te escribiremos a este email con nuestra decisión.`,
        'Desde este enlace privado puedes ver en qué estado está, cambiarla, responder si te pedimos más información o retirarla. No lo compartas: quien lo tenga puede verla.',
      ],
      button: { label: 'Ver el estado de mi solicitud', url: absolute(statusPath(id)) },
      details: { heading: 'Lo que nos enviaste', rows: answersOf(answers) },
    }),
  }
}

async function adminIds() {
  const rows = await getDb().select({ id: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin'))
  return rows.map((row) => row.id)
}

/** The bell (and, per their preferences, e-mail: topic 'admissions') of every admin, in the step's transaction. */
async function notifyAdmins(tx: DbExecutor, admins: string[], applicationId: string, title: string, message: string) {
  for (const adminId of admins) {
    // The words name the applicant: the notification goes with the application.
    await notifyInTransaction(tx, { recipientId: adminId, actorId: null, type: 'admission_application', title, message, applicationId })
  }
}

/** The application a status link names; a forged or cut link is refused (404), an old one too (410). */
function statusLinkId(token: string) {
  const link = readSignedToken(STATUS_PURPOSE, token)
  if (link.status !== 'valid')
    refuse(link.status === 'expired' ? 410 : 404, link.status === 'expired' ? MESSAGES.expiredLink : MESSAGES.badLink)
  return link.id
}

/** What the applicant answered: the form's fields. */
const answerColumns = {
  firstName: applications.firstName,
  lastName: applications.lastName,
  email: applications.email,
  phone: applications.phone,
  linkedinUrl: applications.linkedinUrl,
  company: applications.company,
  position: applications.position,
  sector: applications.sector,
  yearsExperience: applications.yearsExperience,
  targetRole: applications.targetRole,
  contribution: applications.contribution,
  expectations: applications.expectations,
  referral: applications.referral,
}

/** An open application's answers, for its applicant to change them (the apply form, opened from the private link). */
export async function answersToChange(token: string) {
  const [application] = await getDb()
    .select(answerColumns)
    .from(applications)
    .where(and(eq(applications.id, statusLinkId(token)), openCondition))
  if (!application) refuse(409, MESSAGES.closed)
  return Object.fromEntries(Object.entries(application).map(([key, value]) => [key, value === null ? '' : String(value)]))
}

/** The application a status link names, or why it cannot be shown. */
export async function readStatusLink(token: string) {
  const link = readSignedToken(STATUS_PURPOSE, token)
  if (link.status !== 'valid') return { status: link.status } as const
  const application = await applicantView(link.id)
  return application ? ({ status: 'valid', application } as const) : ({ status: 'invalid' } as const)
}

async function applicantView(id: string) {
  if (!UUID.test(id)) return null
  const [application] = await getDb()
    .select({ id: applications.id, firstName: applications.firstName, status: applications.status, createdAt: applications.createdAt })
    .from(applications)
    .where(eq(applications.id, id))
  if (!application) return null
  // The applicant sees the questions asked and their answers, never the admins' notes or names.
  const history = await getDb()
    .select({ kind: events.kind, body: events.body, createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.applicationId, id), inArray(events.kind, ['info_requested', 'answered'])))
    .orderBy(asc(events.createdAt))
  return {
    ...application,
    createdAt: application.createdAt.toISOString(),
    history: history.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  }
}

export async function applicantAction(request: Request, token: string) {
  const id = statusLinkId(token)
  return handleIntent(request, ApplicantIntent, {
    withdraw: {
      invalid: 'No se pudo retirar tu solicitud',
      async run() {
        await getDb().transaction(async (tx) => {
          const [row] = await tx
            .update(applications)
            .set({ status: 'withdrawn', closedAt: sql`now()`, updatedAt: sql`now()` })
            .where(and(eq(applications.id, id), openCondition))
            .returning({ id: applications.id })
          if (!row) refuse(409, MESSAGES.closed)
          await tx.insert(events).values({ applicationId: id, kind: 'withdrawn' })
        })
        return success({ withdrawn: true }, { title: MESSAGES.withdrawn })
      },
    },
    answer: {
      invalid: 'Escribe tu respuesta',
      async run({ answer }) {
        const admins = await adminIds()
        await getDb().transaction(async (tx) => {
          // Answered, it is back with the admins as a new one to review.
          const [row] = await tx
            .update(applications)
            .set({ status: 'pending', updatedAt: sql`now()` })
            .where(and(eq(applications.id, id), eq(applications.status, 'info_requested')))
            .returning({ firstName: applications.firstName, lastName: applications.lastName })
          if (!row) refuse(409, 'Ya no esperamos una respuesta a esta solicitud')
          await tx.insert(events).values({ applicationId: id, kind: 'answered', body: answer })
          await notifyAdmins(
            tx,
            admins,
            id,
            'Respuesta de un candidato',
            `${row.firstName} ${row.lastName} ha respondido a vuestra pregunta`,
          )
        })
        return success({ answered: true }, { title: MESSAGES.answered })
      },
    },
  })
}

// ---------------------------------------------------------------------------------------------
// The admins' queue

export const QUEUE_PAGE_SIZE = 25

const STATUS_COUNTERS = admissionStatusEnum.enumValues.map((status) => `applications_${status}` as const)

export interface QueueFilter {
  q: string
  status: ApplicationStatus | null
  sector: Sector | null
  from: Date | null
  to: Date | null
  page: number
}

/** One page of the queue (newest first), its total, and how many there are in each state: three statements. */
export async function listApplications(filter: QueueFilter) {
  const conditions: SQL[] = []
  for (const word of normalizeSearch(filter.q).split(' ').filter(Boolean).slice(0, 6)) {
    conditions.push(sql`${applications.search} like ${`%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}`)
  }
  if (filter.status) conditions.push(eq(applications.status, filter.status))
  if (filter.sector) conditions.push(eq(applications.sector, filter.sector))
  if (filter.from) conditions.push(gte(applications.createdAt, filter.from))
  if (filter.to) conditions.push(lt(applications.createdAt, filter.to))
  const where = conditions.length ? and(...conditions) : undefined
  const db = getDb()
  const [rows, counters, [searched]] = await Promise.all([
    db
      .select({
        id: applications.id,
        firstName: applications.firstName,
        lastName: applications.lastName,
        email: applications.email,
        company: applications.company,
        position: applications.position,
        sector: applications.sector,
        yearsExperience: applications.yearsExperience,
        status: applications.status,
        createdAt: applications.createdAt,
      })
      .from(applications)
      .where(where)
      .orderBy(desc(applications.createdAt), desc(applications.id))
      .limit(QUEUE_PAGE_SIZE)
      .offset((filter.page - 1) * QUEUE_PAGE_SIZE),
    // The counts by state, and the total of the queue or of one state, are counters kept by a
    // trigger (migration 0035); only a search, a sector or dates count the rows they keep.
    readCounters(STATUS_COUNTERS),
    filter.q.trim() || filter.sector || filter.from || filter.to ? db.select({ n: count() }).from(applications).where(where) : [],
  ])
  const counts = Object.fromEntries(admissionStatusEnum.enumValues.map((status) => [status, counters[`applications_${status}`]])) as Record<
    ApplicationStatus,
    number
  >
  const total = searched ? searched.n : filter.status ? counts[filter.status] : Object.values(counts).reduce((sum, n) => sum + n, 0)
  return { rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), total, counts }
}

/** One application for its admin page: the answers, whether the e-mail has an account, the history with who acted. */
export async function getApplication(id: string) {
  if (!UUID.test(id)) return null
  const [application] = await getDb()
    .select({
      id: applications.id,
      ...answerColumns,
      status: applications.status,
      createdAt: applications.createdAt,
      userId: applications.userId,
    })
    .from(applications)
    .where(eq(applications.id, id))
  if (!application) return null
  const [history, account] = await Promise.all([
    getDb()
      .select({
        id: events.id,
        kind: events.kind,
        body: events.body,
        createdAt: events.createdAt,
        // Columns of two tables: never null as a whole, an absent account leaves `name` null.
        actor: { name: user.name, ...nameColumns },
      })
      .from(events)
      .leftJoin(user, eq(user.id, events.actorUserId))
      .leftJoin(profiles, eq(profiles.userId, events.actorUserId))
      .where(eq(events.applicationId, id))
      .orderBy(asc(events.createdAt)),
    getDb().select({ id: user.id }).from(user).where(eq(user.email, application.email)),
  ])
  return {
    ...application,
    createdAt: application.createdAt.toISOString(),
    accountId: account[0]?.id ?? null,
    history: history.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      body: entry.body,
      createdAt: entry.createdAt.toISOString(),
      actor: entry.actor.name ? displayName(entry.actor, entry.actor.name) : null,
    })),
  }
}

type Decision = 'approved' | 'rejected' | 'waitlisted' | 'info_requested'

/** From which states each decision may be taken; approved and rejected are final. */
const DECIDABLE_FROM: Record<Decision, ApplicationStatus[]> = {
  approved: [...OPEN_STATUSES],
  rejected: [...OPEN_STATUSES],
  waitlisted: ['pending', 'info_requested'],
  info_requested: ['pending', 'waitlisted'],
}

const DECISION_AUDIT: Record<Decision, AuditAction> = {
  approved: 'admission_approved',
  rejected: 'admission_rejected',
  waitlisted: 'admission_waitlisted',
  info_requested: 'admission_info_requested',
}

const DECISION_TOAST: Record<Decision, string> = {
  approved: 'Solicitud aprobada: invitación enviada',
  rejected: 'Solicitud rechazada: email enviado',
  waitlisted: 'Solicitud en lista de espera',
  info_requested: 'Pregunta enviada al candidato',
}

export function reviewAction(request: Request, admin: CurrentUser, id: string) {
  const decide = (decision: Decision) => (input: { seen: ApplicationStatus; question?: string }) =>
    decideApplication(admin, id, decision, input)
  return handleIntent(request, ReviewIntent, {
    approve: { invalid: 'No se pudo aprobar la solicitud', run: decide('approved') },
    reject: { invalid: 'No se pudo rechazar la solicitud', run: decide('rejected') },
    waitlist: { invalid: 'No se pudo poner en lista de espera', run: decide('waitlisted') },
    'ask-info': { invalid: 'Escribe la pregunta para el candidato', run: decide('info_requested') },
    note: {
      invalid: 'Escribe la nota',
      async run({ note }) {
        if (!(await applicationExists(id))) refuse(404, 'Esa solicitud no existe')
        await getDb().insert(events).values({ applicationId: id, kind: 'note', actorUserId: admin.id, body: note })
        return success({ noted: true }, { title: 'Nota guardada' })
      },
    },
  })
}

async function applicationExists(id: string) {
  if (!UUID.test(id)) return false
  const [row] = await getDb().select({ id: applications.id }).from(applications).where(eq(applications.id, id))
  return Boolean(row)
}

/**
 * One decision, taken once: the update names the state the admin saw, so of two admins deciding at
 * once the first wins and the other is told (409). That condition is the only check of the state
 * (a read before it would pass for both). The e-mail is rendered before the transaction and queued
 * in it, with the history line and the audit line.
 */
async function decideApplication(
  admin: CurrentUser,
  id: string,
  decision: Decision,
  { seen, question }: { seen: ApplicationStatus; question?: string },
) {
  if (!UUID.test(id)) refuse(404, 'Esa solicitud no existe')
  const [application] = await getDb()
    .select({ email: applications.email, firstName: applications.firstName, status: applications.status })
    .from(applications)
    .where(eq(applications.id, id))
  if (!application) refuse(404, 'Esa solicitud no existe')
  if (!DECIDABLE_FROM[decision].includes(seen)) refuse(409, MESSAGES.decidedElsewhere, { detail: { id, seen, decision } })
  const mail = await renderMail({ to: application.email, ...(await decisionMail(id, decision, application.firstName, question)) })
  const final = decision === 'approved' || decision === 'rejected'
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(applications)
      .set({ status: decision, updatedAt: sql`now()`, ...(final ? { closedAt: sql`now()` } : {}) })
      .where(and(eq(applications.id, id), eq(applications.status, seen)))
      .returning({ id: applications.id })
    if (!row) refuse(409, MESSAGES.decidedElsewhere, { detail: { id, seen } })
    await tx.insert(events).values({ applicationId: id, kind: decision, actorUserId: admin.id, body: question ?? null })
    await recordAudit({ action: DECISION_AUDIT[decision], actorUserId: admin.id, details: { applicationId: id } }, tx)
    await enqueueRenderedMail(mail, tx)
  })
  return success({ status: decision }, { title: DECISION_TOAST[decision] })
}

async function decisionMail(id: string, decision: Decision, firstName: string, question?: string) {
  const statusButton = { label: 'Ver mi solicitud', url: absolute(statusPath(id)) }
  switch (decision) {
    case 'approved':
      return {
        subject: `Tu admisión en ${site.name} está aprobada`,
        email: createElement(NoticeEmail, {
          title: '¡Enhorabuena! Tu solicitud está aprobada',
          firstName,
          paragraphs: [
            `Hemos revisado tu solicitud y nos encantará contar contigo en ${site.name}.`,
            `Con esta invitación personal creas tu cuenta (o entras con la que ya tengas) con este mismo email y eliges tu plan. Es válida ${INVITATION_DAYS} días y solo para ti.`,
          ],
          button: { label: 'Aceptar la invitación', url: absolute(invitationPath(id)) },
        }),
      }
    case 'rejected':
      return {
        subject: `Tu solicitud de admisión en ${site.name}`,
        email: createElement(NoticeEmail, {
          title: 'Sobre tu solicitud',
          firstName,
          paragraphs: [(await readSettings(admissionSettings)).rejectionText],
        }),
      }
    case 'waitlisted':
      return {
        subject: `Tu solicitud está en lista de espera`,
        email: createElement(NoticeEmail, {
          title: 'Tu solicitud está en lista de espera',
          firstName,
          paragraphs: [
            'Tu perfil nos interesa, pero en esta convocatoria las plazas están completas. Hemos guardado tu solicitud en la lista de espera y te escribiremos en cuanto podamos ofrecerte una plaza.',
          ],
          button: statusButton,
        }),
      }
    case 'info_requested':
      return {
        subject: 'Necesitamos algo más sobre tu solicitud',
        email: createElement(NoticeEmail, {
          title: 'Una pregunta sobre tu solicitud',
          firstName,
          paragraphs: [
            'Para decidir sobre tu solicitud necesitamos saber algo más:',
            question ?? '',
            'Puedes responder desde tu enlace privado:',
          ],
          button: statusButton,
        }),
      }
  }
}

// ---------------------------------------------------------------------------------------------
// The invitation, and who may pay

export type InvitationView =
  | { state: 'invalid' | 'expired' | 'used' | 'other-email' }
  | { state: 'sign-in' | 'sign-up'; email: string; token: string }
  | { state: 'ready'; firstName: string; isPremium: boolean }

/**
 * What an invitation link opens for whoever follows it. The first signed-in account with the
 * invited e-mail takes it (one use): from then on it works only for that account.
 */
export async function openInvitation(token: string, viewer: CurrentUser | null): Promise<InvitationView> {
  const link = readSignedToken(INVITATION_PURPOSE, token)
  if (link.status === 'invalid') return { state: 'invalid' }
  const [application] = await getDb()
    .select({
      id: applications.id,
      email: applications.email,
      firstName: applications.firstName,
      status: applications.status,
      userId: applications.userId,
    })
    .from(applications)
    .where(eq(applications.id, link.id))
  if (!application || application.status !== 'approved') return { state: 'invalid' }
  // Once taken by this account, the link keeps working for it (coming back to pay later).
  if (viewer && application.userId === viewer.id)
    return { state: 'ready', firstName: application.firstName, isPremium: Boolean(viewer.profile?.isPremium) }
  // Taken: its account signs in to come back; any other account is refused.
  if (application.userId) return viewer ? { state: 'used' } : { state: 'sign-in', email: application.email, token }
  if (link.status === 'expired') return { state: 'expired' }
  if (!viewer) return { state: (await accountExists(application.email)) ? 'sign-in' : 'sign-up', email: application.email, token }
  if (viewer.email.toLowerCase() !== application.email) return { state: 'other-email' }
  const taken = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(applications)
      .set({ userId: viewer.id, invitationUsedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(applications.id, application.id), isNull(applications.userId)))
      .returning({ id: applications.id })
    if (row) await tx.insert(events).values({ applicationId: application.id, kind: 'invitation_used', actorUserId: viewer.id })
    return Boolean(row)
  })
  if (!taken) return { state: 'used' }
  return { state: 'ready', firstName: application.firstName, isPremium: Boolean(viewer.profile?.isPremium) }
}

/** For sign-up from an invitation: the e-mail it was sent to, when the link is genuine, current and unused. */
export async function invitedEmail(token: string) {
  const link = readSignedToken(INVITATION_PURPOSE, token)
  if (link.status !== 'valid') return null
  const [application] = await getDb()
    .select({ email: applications.email })
    .from(applications)
    .where(and(eq(applications.id, link.id), eq(applications.status, 'approved'), isNull(applications.userId)))
  return application?.email ?? null
}

/**
 * 'Admisión obligatoria' (the console's setting): when on, only a member with an approved
 * application (taken by their account, or sent from their e-mail) starts a checkout. Premium
 * granted by an admin needs no checkout; Stripe's webhook stays the source of truth for premium.
 */
export async function mayStartCheckout(member: CurrentUser, executor: DbExecutor = getDb()) {
  if (!(await readSettings(admissionSettings)).admissionRequired || member.isAdmin) return true
  const [approved] = await executor
    .select({ id: applications.id })
    .from(applications)
    .where(
      and(eq(applications.status, 'approved'), or(eq(applications.userId, member.id), eq(applications.email, member.email.toLowerCase()))),
    )
    .limit(1)
  return Boolean(approved)
}

// ---------------------------------------------------------------------------------------------
// Retention

/**
 * Rejected and withdrawn applications go 12 months after they closed, with their history, and so
 * do approved ones no account ever took (privacy page). One taken by an account goes with it.
 */
export async function deleteClosedApplications(now = new Date()) {
  const cutoff = new Date(now)
  cutoff.setMonth(cutoff.getMonth() - RETENTION_MONTHS)
  const deleted = await getDb()
    .delete(applications)
    .where(
      and(
        lt(applications.closedAt, cutoff),
        or(inArray(applications.status, ['rejected', 'withdrawn']), and(eq(applications.status, 'approved'), isNull(applications.userId))),
      ),
    )
    .returning({ id: applications.id })
  return deleted.length
}

export const admissionRetentionJob = defineJob<Record<string, never>>({
  name: 'admission.retention',
  label: 'Borrado de solicitudes cerradas',
  async run() {
    await scheduleAdmissionRetention(new Date(Date.now() + DAY_SECONDS * 1000))
    const deleted = await deleteClosedApplications()
    if (deleted) logger.info({ deleted }, 'Closed admission applications deleted')
  },
})

/** Start-up (declared in parts.server.ts) and every run: once a day, one run across processes (keyed by the day). */
export function scheduleAdmissionRetention(at = new Date()) {
  return enqueue(admissionRetentionJob, {}, { runAt: at, dedupeKey: at.toISOString().slice(0, 10) })
}
