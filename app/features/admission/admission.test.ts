import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import * as authRoute from '~/features/account/auth.route'
import * as checkoutRoute from '~/features/billing/checkout.route'
import { notifications } from '~/features/notifications/schema'
import { auditLog } from '~/platform/audit/schema'
import { signedToken } from '~/platform/auth/signature.server'
import { failStatements, getDb } from '~/platform/db/client.server'
import { jobs } from '~/platform/jobs/schema'
import { rateLimits } from '~/platform/rate-limit/schema'
import { appSettings } from '~/platform/settings/schema'
import { settingDefaults } from '~/platform/settings/settings.server'
import { admissionSettings } from './settings.server'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { createPeople, createPersona, type People, type Persona } from '../../../tests/setup/members'
import {
  createConfirmedUser,
  firstLink,
  formRequest,
  getRequest,
  latestMailTo,
  readToast,
  run,
  TEST_IP,
  uniqueEmail,
} from '../../../tests/setup/requests'
import { deleteClosedApplications, invitationPath, mayStartCheckout, statusPath } from './admission.server'
import { ADMISSION_MESSAGES } from './limits'
import { admissionApplications, admissionEvents } from './schema'
import * as applicationRoute from './application.route'
import * as applyRoute from './apply.route'
import * as invitationRoute from './invitation.route'
import * as queueRoute from './queue.route'
import * as statusRoute from './status.route'

useTestDatabase()

const DEFAULT_SETTINGS = settingDefaults(admissionSettings)

const context = { cspNonce: 'test' }
let people: People
let ipCounter = 0
/** Each application from its own address, so the per-address limit is tested only where meant. */
const nextIp = () => `198.51.100.${++ipCounter % 250}`

const load = (route: { loader: (args: any) => unknown }, path: string, params: Record<string, string> = {}, cookie?: string) =>
  run(() => route.loader({ request: getRequest(path, { cookie }), params, context }))
const post = (
  route: { action: (args: any) => unknown },
  path: string,
  fields: Record<string, string>,
  { params = {}, cookie, ip = TEST_IP }: { params?: Record<string, string>; cookie?: string; ip?: string } = {},
) => run(() => route.action({ request: formRequest(path, fields, { cookie, ip }), params, context }))

function answers(overrides: Record<string, string> = {}) {
  return {
    intent: 'apply',
    firstName: 'Lucía',
    lastName: 'Martín Peña',
    email: uniqueEmail('candidata'),
    phone: '+34 600 123 456',
    linkedinUrl: 'https://www.linkedin.com/in/lucia-martin',
    company: 'Biofarma Ibérica',
    position: 'Directora de operaciones',
    sector: 'biotech',
    yearsExperience: '15',
    targetRole: 'CEO',
    contribution: 'Quince años llevando plantas de biológicos.',
    expectations: 'Conversaciones francas con quien ya ha llegado.',
    referral: 'Un compañero',
    consent: 'on',
    ...overrides,
  }
}

async function apply(overrides: Record<string, string> = {}, ip = nextIp()) {
  const fields = answers(overrides)
  const outcome = await post(applyRoute, '/admision', fields, { ip })
  return { outcome, email: fields.email }
}

async function applicationOf(email: string) {
  const rows = await getDb()
    .select({ id: admissionApplications.id, status: admissionApplications.status, company: admissionApplications.company })
    .from(admissionApplications)
    .where(eq(admissionApplications.email, email))
  return rows
}

async function applied(overrides: Record<string, string> = {}) {
  const { outcome, email } = await apply(overrides)
  expect(outcome.status).toBe(303)
  const [application] = await applicationOf(email)
  return { id: application!.id, email }
}

const review = (id: string, fields: Record<string, string>, cookie = people.admin.cookie) =>
  post(applicationRoute, `/admin/admisiones/${id}`, fields, { params: { applicationId: id }, cookie })

const tokenOf = (path: string) => path.split('/').pop()!

beforeAll(async () => {
  people = await createPeople()
})

beforeEach(async () => {
  // Limits per address and e-mail are tested on their own; other tests would share the test's address.
  await getDb()
    .delete(rateLimits)
    .where(sql`${rateLimits.key} like 'admission:%'`)
})

describe('the application form', () => {
  test('a complete application is stored, answered with "Solicitud recibida", and mailed back with its status link', async () => {
    const { outcome, email } = await apply()
    expect(outcome.location).toBe('/admision?enviada=1')
    const page = await load(applyRoute, '/admision?enviada=1')
    expect(page.data.received).toBe(true)
    const [application] = await applicationOf(email)
    expect(application).toMatchObject({ status: 'pending', company: 'Biofarma Ibérica' })
    const mail = await latestMailTo(email, 'Hemos recibido tu solicitud de admisión')
    expect(mail!.text).toContain('Quince años llevando plantas de biológicos.')
    expect(mail!.text).toContain('Biotech')
    expect(firstLink(mail!.text)).toMatch(/\/admision\/estado\/[0-9a-f-]{36}\.\d+\.[\w-]+$/)
    const history = await getDb()
      .select({ kind: admissionEvents.kind })
      .from(admissionEvents)
      .where(eq(admissionEvents.applicationId, application!.id))
    expect(history.map((entry) => entry.kind)).toEqual(['submitted'])
  })

  test.each([
    ['firstName', '', 'El nombre es requerido'],
    ['email', 'no-es-un-email', 'Por favor ingresa un email válido'],
    ['linkedinUrl', 'https://evil.example/in/lucia', 'Indica la dirección de tu perfil de LinkedIn (https://www.linkedin.com/in/…)'],
    ['linkedinUrl', 'javascript:alert(1)//linkedin.com', 'Indica la dirección de tu perfil de LinkedIn (https://www.linkedin.com/in/…)'],
    ['phone', '<script>', 'Indica un teléfono válido, por ejemplo +34 600 000 000'],
    ['sector', 'astrologia', 'Elige tu sector'],
    ['yearsExperience', '61', 'Indica tus años de experiencia (de 0 a 60)'],
    ['yearsExperience', '-1', 'Indica tus años de experiencia (de 0 a 60)'],
    ['contribution', 'x'.repeat(1501), 'Máximo 1500 caracteres'],
    ['company', 'Empresa\u202Eoculta', 'Contiene caracteres no válidos'],
    ['consent', '', 'Debes aceptar la política de privacidad para enviar tu solicitud'],
  ])('%s = %j is refused: %s', async (field, value, message) => {
    const fields = answers()
    if (value === '') delete (fields as Record<string, string>)[field]
    else (fields as Record<string, string>)[field] = value
    const outcome = await post(applyRoute, '/admision', fields, { ip: nextIp() })
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe(ADMISSION_MESSAGES.invalid)
    expect(outcome.data.submission.error[field]).toEqual([message])
    // What was typed comes back.
    expect(outcome.data.submission.initialValue.company).toBe(field === 'company' ? value : 'Biofarma Ibérica')
    expect(await applicationOf(fields.email)).toEqual([])
  })

  test('a signed-in member finds their name, e-mail, company and position filled in; a visitor an empty form', async () => {
    const signedIn = await load(applyRoute, '/admision', {}, people.member.cookie)
    expect(signedIn.data.known).toMatchObject({ email: people.member.email, company: expect.any(String) })
    expect((await load(applyRoute, '/admision')).data.known).toBeUndefined()
  })

  test('without the phone and how they heard of us it is still complete', async () => {
    const { email } = await applied({ phone: '', referral: '' })
    expect(await applicationOf(email)).toHaveLength(1)
  })

  test('someone who knows only the e-mail cannot rewrite an open application: told to use the link, which goes to its owner', async () => {
    const { id, email } = await applied()
    // Every column of the row, as the database prints it.
    const stored = async () =>
      (
        (await getDb().execute(sql`select to_jsonb(a)::text as row from admission_applications a where id = ${id}`)) as unknown as {
          rows: Array<{ row: string }>
        }
      ).rows[0]!.row
    const before = await stored()
    const mailsBefore = await getDb().select({ id: jobs.id }).from(jobs).where(eq(jobs.name, 'mail.send'))
    const attack = await apply({
      email,
      firstName: 'Impostor',
      linkedinUrl: 'https://www.linkedin.com/in/impostor',
      contribution: 'Texto del impostor: llamad a este número.',
    })
    expect(attack.outcome.status).toBe(409)
    expect(attack.outcome.data.message.title).toBe(ADMISSION_MESSAGES.alreadyOpen)
    // Byte for byte as it was, its history too.
    expect(await stored()).toBe(before)
    const history = await getDb().select({ kind: admissionEvents.kind }).from(admissionEvents).where(eq(admissionEvents.applicationId, id))
    expect(history).toEqual([{ kind: 'submitted' }])
    // One e-mail, to the application's address: its private link, and nothing the sender wrote.
    const sent = await getDb()
      .select({ payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.name, 'mail.send'), sql`${jobs.id} not in ${mailsBefore.map((row) => row.id)}`))
    expect(sent.map((row) => (row.payload as { to: string; subject: string }).subject)).toEqual([
      'Tu enlace para ver o cambiar tu solicitud de admisión',
    ])
    const mail = await latestMailTo(email, 'Tu enlace para ver o cambiar tu solicitud de admisión')
    expect(tokenOf(new URL(firstLink(mail!.text)).pathname).split('.')[0]).toBe(id)
    expect(mail!.text).not.toContain('Impostor')
    expect(mail!.text).not.toContain('llamad a este número')
  })

  test('its owner changes it through the private link (the e-mail stays); a closed one or a bad link is refused', async () => {
    const { id, email } = await applied()
    const token = tokenOf(statusPath(id))
    const form = await load(applyRoute, `/admision?solicitud=${token}`)
    expect(form.data.link).toBe(token)
    expect(form.data.known).toMatchObject({
      email,
      company: 'Biofarma Ibérica',
      yearsExperience: '15',
      contribution: 'Quince años llevando plantas de biológicos.',
    })
    const changed = await apply({ email: uniqueEmail('otra'), link: token, company: 'Nueva Pharma', position: 'CEO' })
    expect(changed.outcome.status).toBe(303)
    expect(await applicationOf(email)).toEqual([{ id, status: 'pending', company: 'Nueva Pharma' }])
    expect(await applicationOf(changed.email)).toEqual([])
    const mail = await latestMailTo(email, 'Hemos actualizado tu solicitud de admisión')
    expect(mail!.text).toContain('Nueva Pharma')
    expect(await latestMailTo(changed.email)).toBeUndefined()
    const history = await getDb().select({ kind: admissionEvents.kind }).from(admissionEvents).where(eq(admissionEvents.applicationId, id))
    expect(history.map((entry) => entry.kind)).toEqual(['submitted', 'updated'])

    const forged = await apply({ email, link: `${token.slice(0, -2)}xx`, company: 'Falsa SA' })
    expect(forged.outcome.status).toBe(404)
    expect(forged.outcome.data.message.title).toBe(ADMISSION_MESSAGES.badLink)
    expect((await review(id, { intent: 'reject', seen: 'pending' })).status).toBe(200)
    const late = await apply({ email, link: token, company: 'Tarde SA' })
    expect(late.outcome.status).toBe(409)
    expect(late.outcome.data.message.title).toBe(ADMISSION_MESSAGES.closed)
    expect((await load(applyRoute, `/admision?solicitud=${token}`)).status).toBe(409)
    // Closed, the e-mail may apply again (past its hourly limit of sends): a new application.
    await getDb()
      .delete(rateLimits)
      .where(eq(rateLimits.key, `admission:email:${email}`))
    expect((await apply({ email, company: 'Tercera SA' })).outcome.status).toBe(303)
    const rows = await applicationOf(email)
    expect(rows.map((row) => [row.status, row.company]).sort()).toEqual([
      ['pending', 'Tercera SA'],
      ['rejected', 'Nueva Pharma'],
    ])
  })

  concurrencyTest('two sends of one e-mail at once leave one application', async () => {
    const fields = answers()
    const outcomes = await Promise.all([0, 1, 2].map(() => post(applyRoute, '/admision', fields, { ip: nextIp() })))
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([303, 409, 409])
    expect(await applicationOf(fields.email)).toHaveLength(1)
  })

  test('a robot that fills the hidden field is told what a person is told, and nothing is stored', async () => {
    const { outcome, email } = await apply({ website: 'http://spam.example' })
    expect(outcome.location).toBe('/admision?enviada=1')
    expect(await applicationOf(email)).toEqual([])
    expect(await latestMailTo(email)).toBeUndefined()
  })

  test('more than 3 sends an hour from one e-mail, or 5 from one address, are refused with a Spanish message', async () => {
    const email = uniqueEmail('insistente')
    for (const status of [303, 409, 409]) expect((await apply({ email })).outcome.status).toBe(status)
    const fourth = await apply({ email })
    expect(fourth.outcome.status).toBe(429)
    expect(fourth.outcome.data.message.title).toMatch(/^Demasiados intentos\. Espera \d+ minutos? y vuelve a intentarlo\.$/)
    const ip = '198.51.100.251'
    for (let i = 0; i < 5; i++) expect((await apply({}, ip)).outcome.status).toBe(303)
    expect((await apply({}, ip)).outcome.status).toBe(429)
  })

  test('the database lost mid-way: a 503 with the words typed, and nothing half-stored (sending again tells the admins)', async () => {
    const fields = answers({ firstName: 'Elena', lastName: 'Caída' })
    const disarm = failStatements(/insert into "admission_events"/, { times: 1 })
    let outcome
    try {
      outcome = await post(applyRoute, '/admision', fields, { ip: nextIp() })
    } finally {
      disarm()
    }
    expect(outcome.status).toBe(503)
    expect(outcome.headers.get('Retry-After')).toBeTruthy()
    expect(outcome.data.submission.initialValue).toMatchObject({ company: 'Biofarma Ibérica', contribution: fields.contribution })
    expect(await applicationOf(fields.email)).toEqual([])
    expect(await latestMailTo(fields.email)).toBeUndefined()
    expect((await post(applyRoute, '/admision', fields, { ip: nextIp() })).status).toBe(303)
    const bell = await getDb()
      .select({ message: notifications.message })
      .from(notifications)
      .where(and(eq(notifications.userId, people.admin.userId!), eq(notifications.type, 'admission_application')))
    expect(bell.some((row) => row.message.startsWith('Elena Caída'))).toBe(true)
  })

  test('a body that is not a form is a 415, and the process goes on', async () => {
    const request = new Request('http://localhost:3000/admision', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:3000', 'x-app-client-ip': nextIp() },
      body: JSON.stringify(answers()),
    })
    const outcome = await run(() => applyRoute.action({ request, params: {}, context } as any))
    expect(outcome.status).toBe(415)
  })

  test('new applications ring every admin\'s bell and wait for their e-mail (topic "Nuevas solicitudes de admisión")', async () => {
    const { email } = await applied({ firstName: 'Rosa', lastName: 'Campana' })
    const rows = await getDb()
      .select({ title: notifications.title, message: notifications.message, emailPending: notifications.emailPending })
      .from(notifications)
      .where(and(eq(notifications.userId, people.admin.userId!), eq(notifications.type, 'admission_application')))
    expect(rows.find((row) => row.message.startsWith('Rosa Campana'))).toMatchObject({
      title: 'Nueva solicitud de admisión',
      emailPending: true,
    })
    const others = await getDb()
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, people.moderator.userId!), eq(notifications.type, 'admission_application')))
    expect(others).toEqual([])
    expect(email).toBeTruthy()
  })
})

describe('the private status link', () => {
  test('shows the state without a session; withdrawing closes it once', async () => {
    const { id } = await applied()
    const token = tokenOf(statusPath(id))
    const page = await load(statusRoute, `/admision/estado/${token}`, { token })
    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({ id, status: 'pending', firstName: 'Lucía' })
    const withdrawn = await post(statusRoute, `/admision/estado/${token}`, { intent: 'withdraw' }, { params: { token } })
    expect(withdrawn.data.message.title).toBe('Has retirado tu solicitud')
    const again = await post(statusRoute, `/admision/estado/${token}`, { intent: 'withdraw' }, { params: { token } })
    expect(again.status).toBe(409)
    expect(again.data.message.title).toBe(ADMISSION_MESSAGES.closed)
  })

  test('a forged or cut link is a 404 and an expired one a 410, each with its Spanish message', async () => {
    const { id } = await applied()
    const genuine = tokenOf(statusPath(id))
    const forged = `${genuine.slice(0, -2)}xx`
    const otherId = `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`
    for (const token of [
      forged,
      genuine.split('.').slice(0, 2).join('.'),
      `${otherId}.${genuine.split('.')[1]}.${genuine.split('.')[2]}`,
      'x'.repeat(300),
    ]) {
      const outcome = await load(statusRoute, `/admision/estado/${token}`, { token })
      expect(outcome.status).toBe(404)
      expect(outcome.data.message.title).toBe(ADMISSION_MESSAGES.badLink)
    }
    const expired = tokenOf(statusPath(id, Date.now() - 181 * 24 * 60 * 60 * 1000))
    const outcome = await load(statusRoute, `/admision/estado/${expired}`, { token: expired })
    expect(outcome.status).toBe(410)
    expect(outcome.data.message.title).toBe(ADMISSION_MESSAGES.expiredLink)
    const write = await post(statusRoute, `/admision/estado/${forged}`, { intent: 'withdraw' }, { params: { token: forged } })
    expect(write.status).toBe(404)
    // The invitation's signature does not open the status page (one purpose per signature).
    const invitation = tokenOf(invitationPath(id))
    expect((await load(statusRoute, `/admision/estado/${invitation}`, { token: invitation })).status).toBe(404)
  })

  test("'Pedir más información' mails the question; the answer arrives through the link and shows in the history", async () => {
    const { id, email } = await applied()
    const asked = await review(id, { intent: 'ask-info', seen: 'pending', question: '¿Cuántas personas dependen de ti?' })
    expect(asked.data.message.title).toBe('Pregunta enviada al candidato')
    const mail = await latestMailTo(email, 'Necesitamos algo más sobre tu solicitud')
    expect(mail!.text).toContain('¿Cuántas personas dependen de ti?')
    const token = tokenOf(new URL(firstLink(mail!.text)).pathname)
    const before = await load(statusRoute, `/admision/estado/${token}`, { token })
    expect(before.data.status).toBe('info_requested')
    const answered = await post(
      statusRoute,
      `/admision/estado/${token}`,
      { intent: 'answer', answer: 'Un equipo de 120 personas.' },
      { params: { token } },
    )
    expect(answered.data.message.title).toBe('Respuesta enviada')
    const after = await load(statusRoute, `/admision/estado/${token}`, { token })
    expect(after.data.status).toBe('pending')
    expect(after.data.history.map((entry: { kind: string; body: string }) => [entry.kind, entry.body])).toEqual([
      ['info_requested', '¿Cuántas personas dependen de ti?'],
      ['answered', 'Un equipo de 120 personas.'],
    ])
    // The admins' page shows it with who asked; a second answer is not expected any more.
    const page = await load(applicationRoute, `/admin/admisiones/${id}`, { applicationId: id }, people.admin.cookie)
    expect(page.data.application.history.map((entry: { kind: string }) => entry.kind)).toEqual(['submitted', 'info_requested', 'answered'])
    expect(page.data.application.history[1].actor).toBeTruthy()
    const late = await post(statusRoute, `/admision/estado/${token}`, { intent: 'answer', answer: 'Otra' }, { params: { token } })
    expect(late.status).toBe(409)
  })
})

describe('who reviews', () => {
  const expected: Record<Persona, number> = { anonymous: 302, member: 404, premium: 404, moderator: 404, admin: 200 }

  test.each(Object.keys(expected) as Persona[])('the queue and an application as %s', async (persona) => {
    const { id } = await applied()
    const cookie = people[persona].cookie
    const queue = await load(queueRoute, '/admin/admisiones', {}, cookie)
    expect(queue.status).toBe(expected[persona])
    const page = await load(applicationRoute, `/admin/admisiones/${id}`, { applicationId: id }, cookie)
    expect(page.status).toBe(expected[persona])
    const decision = await post(
      applicationRoute,
      `/admin/admisiones/${id}`,
      { intent: 'approve', seen: 'pending' },
      { params: { applicationId: id }, cookie },
    )
    expect(decision.status).toBe(expected[persona])
    const [row] = await getDb()
      .select({ status: admissionApplications.status })
      .from(admissionApplications)
      .where(eq(admissionApplications.id, id))
    expect(row!.status).toBe(persona === 'admin' ? 'approved' : 'pending')
  })

  test('the queue filters by state, sector, words (accents aside) and date, with counts per state', async () => {
    const { email } = await applied({ firstName: 'Íñigo', lastName: 'Zubizarreta', sector: 'medtech' })
    const found = await load(queueRoute, '/admin/admisiones?q=inigo%20zubi&sector=medtech&estado=pending', {}, people.admin.cookie)
    expect(found.data.rows.map((row: { email: string }) => row.email)).toEqual([email])
    expect(found.data.counts.pending).toBeGreaterThan(0)
    const none = await load(queueRoute, '/admin/admisiones?q=inigo&sector=pharma', {}, people.admin.cookie)
    expect(none.data.rows).toEqual([])
    const future = await load(queueRoute, '/admin/admisiones?q=inigo&desde=2999-01-01', {}, people.admin.cookie)
    expect(future.data.total).toBe(0)
    // Nonsense in the query string is ignored, never a failure.
    const odd = await load(queueRoute, '/admin/admisiones?estado=%27%3Bdrop&sector=x&desde=ayer&pagina=-4&q=%25_', {}, people.admin.cookie)
    expect(odd.status).toBe(200)
  })

  test("'Recibidas desde' and 'Recibidas hasta' are the community's days, 'hasta' included", async () => {
    const { id } = await applied({ firstName: 'Úrsula', lastName: 'Madrugada' })
    // 23:30 UTC on 1 March is 00:30 on 2 March in Madrid.
    await getDb()
      .update(admissionApplications)
      .set({ createdAt: new Date('2026-03-01T23:30:00Z') })
      .where(eq(admissionApplications.id, id))
    const ids = async (days: string) =>
      (await load(queueRoute, `/admin/admisiones?q=madrugada&${days}`, {}, people.admin.cookie)).data.rows.map(
        (row: { id: string }) => row.id,
      )
    expect(await ids('desde=2026-03-02&hasta=2026-03-02')).toEqual([id])
    expect(await ids('hasta=2026-03-01')).toEqual([])
    expect(await ids('desde=2026-03-03')).toEqual([])
  })

  test('an unknown or malformed application is a 404, also for a decision', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'no-es-un-id', "1' or '1'='1"]) {
      expect((await load(applicationRoute, `/admin/admisiones/${id}`, { applicationId: id }, people.admin.cookie)).status).toBe(404)
      const decision = await review(id, { intent: 'approve', seen: 'pending' })
      expect(decision.status).toBe(404)
      expect(decision.data.message.title).toBe('Esa solicitud no existe')
    }
  })

  test('a decision on a state the admin did not see is refused; approved and rejected are final', async () => {
    const { id } = await applied()
    const stale = await review(id, { intent: 'reject', seen: 'waitlisted' })
    expect(stale.status).toBe(409)
    expect(stale.data.message.title).toBe(ADMISSION_MESSAGES.decidedElsewhere)
    expect((await review(id, { intent: 'waitlist', seen: 'pending' })).status).toBe(200)
    expect((await review(id, { intent: 'approve', seen: 'waitlisted' })).status).toBe(200)
    for (const intent of ['reject', 'waitlist', 'approve']) expect((await review(id, { intent, seen: 'approved' })).status).toBe(409)
    const audit = await getDb()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(sql`${auditLog.details}->>'applicationId' = ${id}`)
    expect(audit.map((line) => line.action).sort()).toEqual(['admission_approved', 'admission_waitlisted'])
  })

  /**
   * On PostgreSQL, `decide` runs while another transaction holds the application's row, until two
   * statements wait for it: both decisions have read the application before either writes. PGlite
   * has one connection, so there they are taken one after the other.
   */
  async function bothWaiting<T>(id: string, decide: () => Promise<T>) {
    if (!process.env.DATABASE_URL) return decide()
    let outcomes: Promise<T> | undefined
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`select id from admission_applications where id = ${id} for update`)
      outcomes = decide()
      await vi.waitFor(
        async () => {
          const waiting = (await getDb().execute(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          )) as unknown as { rows: Array<{ n: number }> }
          expect(waiting.rows[0]!.n).toBe(2)
        },
        { timeout: 10_000, interval: 20 },
      )
    })
    return outcomes!
  }

  concurrencyTest('two admins deciding at once: one decision wins, the other is told', async () => {
    const { id, email } = await applied()
    const second = await createPersona('admin')
    const outcomes = await bothWaiting(id, () =>
      Promise.all([review(id, { intent: 'approve', seen: 'pending' }), review(id, { intent: 'reject', seen: 'pending' }, second.cookie)]),
    )
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([200, 409])
    expect(outcomes.find((outcome) => outcome.status === 409)!.data.message.title).toBe(ADMISSION_MESSAGES.decidedElsewhere)
    const [row] = await applicationOf(email)
    const decisions = await getDb()
      .select({ kind: admissionEvents.kind })
      .from(admissionEvents)
      .where(and(eq(admissionEvents.applicationId, id), sql`${admissionEvents.kind} in ('approved', 'rejected')`))
    expect(decisions).toEqual([{ kind: row!.status }])
  })

  test('the rejection e-mail carries the words of the settings', async () => {
    await getDb()
      .insert(appSettings)
      .values({ key: 'rejectionText', value: 'Gracias de corazón; esta vez no.' })
      .onConflictDoUpdate({
        target: appSettings.key,
        set: { value: 'Gracias de corazón; esta vez no.' },
      })
    try {
      const { id, email } = await applied()
      await review(id, { intent: 'reject', seen: 'pending' })
      const mail = await latestMailTo(email, 'Tu solicitud de admisión en Círculo CEO')
      expect(mail!.text).toContain('Gracias de corazón; esta vez no.')
    } finally {
      await getDb().delete(appSettings).where(eq(appSettings.key, 'rejectionText'))
    }
    expect(DEFAULT_SETTINGS.rejectionText).toMatch(/^Gracias por tu interés/)
  })

  test('an internal note is kept with its author, never shown to the applicant', async () => {
    const { id } = await applied()
    expect((await review(id, { intent: 'note', note: 'Conozco a su jefe: muy recomendable.' })).data.message.title).toBe('Nota guardada')
    const token = tokenOf(statusPath(id))
    const applicantPage = await load(statusRoute, `/admision/estado/${token}`, { token })
    expect(JSON.stringify(applicantPage.data)).not.toContain('Conozco a su jefe')
    expect((await review(id, { intent: 'note', note: '' })).status).toBe(400)
  })
})

describe('the invitation', () => {
  async function approved(email?: string) {
    const { id, email: invited } = await applied(email ? { email } : {})
    expect((await review(id, { intent: 'approve', seen: 'pending' })).status).toBe(200)
    const mail = await latestMailTo(invited, 'Tu admisión en Círculo CEO está aprobada')
    const path = new URL(firstLink(mail!.text)).pathname
    return { id, email: invited, path, token: tokenOf(path) }
  }
  const open = (token: string, cookie?: string) => load(invitationRoute, `/admision/invitacion/${token}`, { token }, cookie)

  test('a new applicant signs up with the invited e-mail fixed, confirms, and the link then opens the plans', async () => {
    const { token, email } = await approved()
    const first = await open(token)
    expect(first.data).toMatchObject({ state: 'sign-up', email })
    const signUpPage = await load(authRoute, `/auth?tab=registro&invitacion=${token}`)
    expect(signUpPage.data.invitation).toEqual({ token, email })
    const fields = {
      intent: 'signup',
      firstName: 'Lucía',
      lastName: 'Martín',
      password: 'contraseña-segura-1',
      confirmPassword: 'contraseña-segura-1',
      invitation: token,
    }
    const wrong = await post(authRoute, '/auth?tab=registro', { ...fields, email: uniqueEmail('otra') })
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe(ADMISSION_MESSAGES.invitationOtherEmail)
    const signedUp = await post(authRoute, '/auth?tab=registro', { ...fields, email })
    expect(signedUp.status).toBe(200)
    const confirmation = await latestMailTo(email, 'Confirma tu email')
    expect(decodeURIComponent(firstLink(confirmation!.text))).toContain(`callbackURL=/admision/invitacion/${token}`)
  })

  test('the invited account takes it once: the plans for it, "ya se ha usado" for anyone else, sign-in when signed out', async () => {
    const email = uniqueEmail('invitada')
    const member = await createConfirmedUser({ email })
    const { token, id } = await approved(email)
    expect((await open(token)).data).toMatchObject({ state: 'sign-in', email })
    const ready = await open(token, member.cookie)
    expect(ready.data).toMatchObject({ state: 'ready', firstName: 'Lucía', isPremium: false })
    expect((await open(token, member.cookie)).data.state).toBe('ready')
    const other = await open(token, people.member.cookie)
    expect(other.status).toBe(409)
    expect(other.data.message).toBe(ADMISSION_MESSAGES.invitationUsed)
    expect((await open(token)).data.state).toBe('sign-in')
    const [row] = await getDb()
      .select({ userId: admissionApplications.userId })
      .from(admissionApplications)
      .where(eq(admissionApplications.id, id))
    expect(row!.userId).toBe(member.userId)
    // Signing up again with it is refused: it no longer names an account to create.
    const again = await post(authRoute, '/auth?tab=registro', {
      intent: 'signup',
      firstName: 'Otra',
      lastName: 'Vez',
      email,
      password: 'contraseña-segura-1',
      confirmPassword: 'contraseña-segura-1',
      invitation: token,
    })
    expect(again.data.message.title).toBe(ADMISSION_MESSAGES.invitationInvalid)
  })

  test('another signed-in address is refused; a forged, expired, or not-approved link says so', async () => {
    const { token, id } = await approved()
    const otherEmail = await open(token, people.premium.cookie)
    expect(otherEmail.status).toBe(403)
    expect(otherEmail.data.message).toBe(ADMISSION_MESSAGES.invitationOtherEmail)
    const forged = `${token.slice(0, -3)}abc`
    expect((await open(forged)).status).toBe(404)
    const expired = tokenOf(invitationPath(id, Date.now() - 15 * 24 * 60 * 60 * 1000))
    const outcome = await open(expired)
    expect(outcome.status).toBe(410)
    expect(outcome.data.message).toBe(ADMISSION_MESSAGES.invitationExpired)
    const pending = await applied()
    const notApproved = tokenOf(invitationPath(pending.id))
    expect((await open(notApproved)).status).toBe(404)
    // The status link's signature does not pass for an invitation.
    const statusToken = signedToken('admission-status', id, 3600)
    expect((await open(statusToken)).status).toBe(404)
  })
})

describe("'admisión obligatoria' at checkout", () => {
  const LOCAL = '127.0.0.1'
  const checkout = (cookie: string) =>
    post(checkoutRoute, '/billing/checkout', { intent: 'checkout', plan: 'monthly' }, { cookie, ip: LOCAL })
  const setRequired = async (on: boolean) => {
    if (on)
      await getDb()
        .insert(appSettings)
        .values({ key: 'admissionRequired', value: true })
        .onConflictDoUpdate({ target: appSettings.key, set: { value: true } })
    else await getDb().delete(appSettings).where(eq(appSettings.key, 'admissionRequired'))
  }

  test('off (the default): any member starts a checkout', async () => {
    const member = await createPersona('member')
    const outcome = await checkout(member.cookie!)
    expect(outcome.location).toMatch(/^\/billing\/test-checkout\?session=/)
  })

  test('on: a member without an approved application is told to apply; with one (or as admin) the checkout starts', async () => {
    await setRequired(true)
    try {
      const member = await createPersona('member')
      const refused = await checkout(member.cookie!)
      expect(refused.location).toBe('/pricing')
      expect(await readToast(refused.headers)).toMatchObject({
        title: 'Primero, tu admisión',
        description: ADMISSION_MESSAGES.admissionRequired,
      })
      // Approved from the member's own e-mail.
      const { id } = await applied({ email: member.email! })
      expect(await mayStartCheckout({ id: member.userId, email: member.email, isAdmin: false } as any)).toBe(false)
      await review(id, { intent: 'approve', seen: 'pending' })
      expect((await checkout(member.cookie!)).location).toMatch(/^\/billing\/test-checkout\?session=/)
      // A rejected one does not open it.
      const other = await createPersona('member')
      const rejected = await applied({ email: other.email! })
      await review(rejected.id, { intent: 'reject', seen: 'pending' })
      expect((await checkout(other.cookie!)).location).toBe('/pricing')
    } finally {
      await setRequired(false)
    }
  })
})

describe('retention', () => {
  test('rejected, withdrawn, and approved but never taken applications go 12 months after they closed (with their history); open and taken ones stay', async () => {
    const rejected = await applied()
    await review(rejected.id, { intent: 'reject', seen: 'pending' })
    const withdrawn = await applied()
    const token = tokenOf(statusPath(withdrawn.id))
    await post(statusRoute, `/admision/estado/${token}`, { intent: 'withdraw' }, { params: { token } })
    const open = await applied()
    const untaken = await applied()
    await review(untaken.id, { intent: 'approve', seen: 'pending' })
    const member = await createConfirmedUser({ email: uniqueEmail('tomada') })
    const taken = await applied({ email: member.email })
    await review(taken.id, { intent: 'approve', seen: 'pending' })
    const invitation = tokenOf(invitationPath(taken.id))
    expect((await load(invitationRoute, `/admision/invitacion/${invitation}`, { token: invitation }, member.cookie)).data.state).toBe(
      'ready',
    )
    const ids = [rejected.id, withdrawn.id, open.id, untaken.id, taken.id]
    const remaining = async () =>
      (
        await getDb()
          .select({ id: admissionApplications.id })
          .from(admissionApplications)
          .where(sql`${admissionApplications.id} in ${ids}`)
      )
        .map((row) => row.id)
        .sort()

    // Eleven months on, nothing goes.
    const month = 31 * 24 * 60 * 60 * 1000
    await deleteClosedApplications(new Date(Date.now() + 11 * month))
    expect(await remaining()).toEqual([...ids].sort())
    // Thirteen months on (the clock moved), the closed ones no account took go.
    await deleteClosedApplications(new Date(Date.now() + 13 * month))
    expect(await remaining()).toEqual([open.id, taken.id].sort())
    const orphans = await getDb()
      .select({ id: admissionEvents.id })
      .from(admissionEvents)
      .where(sql`${admissionEvents.applicationId} in ${[rejected.id, withdrawn.id, untaken.id]}`)
    expect(orphans).toEqual([])
    // Nothing else names the applicants who went: the admins' notifications went with their
    // applications, and the decisions' audit lines name the application, not its e-mail.
    const gone = [rejected, withdrawn, untaken]
    const naming = await getDb()
      .select({ message: notifications.message })
      .from(notifications)
      .where(sql`${notifications.applicationId} in ${gone.map(({ id }) => id)}`)
    expect(naming).toEqual([])
    const lines = await getDb().select({ details: auditLog.details }).from(auditLog)
    for (const { email } of gone) expect(JSON.stringify(lines)).not.toContain(email)
  })

  test("the admins' notifications of an application name it, and go with it", async () => {
    const { id } = await applied()
    const told = await getDb()
      .select({ userId: notifications.userId, message: notifications.message })
      .from(notifications)
      .where(eq(notifications.applicationId, id))
    expect(told.map((row) => row.userId)).toContain(people.admin.userId)
    expect(told[0]!.message).toMatch(/ha solicitado la admisión$/)
    await getDb().delete(admissionApplications).where(eq(admissionApplications.id, id))
    expect(await getDb().select({ id: notifications.id }).from(notifications).where(eq(notifications.applicationId, id))).toEqual([])
  })

  test('an application taken by an account is deleted with the account', async () => {
    const member = await createConfirmedUser({ email: uniqueEmail('borrada') })
    const { id } = await applied({ email: member.email })
    await review(id, { intent: 'approve', seen: 'pending' })
    const invitation = tokenOf(invitationPath(id))
    await load(invitationRoute, `/admision/invitacion/${invitation}`, { token: invitation }, member.cookie)
    await getDb().execute(sql`delete from "user" where id = ${member.userId}`)
    expect(await applicationOf(member.email)).toEqual([])
  })
})
