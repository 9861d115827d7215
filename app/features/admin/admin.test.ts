import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { parse } from 'csv-parse/sync'
import compression from 'compression'
import express from 'express'
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import * as communityLayout from '~/features/community/layout.route'
import * as root from '~/root'
import { auditLog } from '~/platform/audit/schema'
import { failStatements, getDb } from '~/platform/db/client.server'
import { redactSecrets } from '~/platform/env.server'
import { currentRequestId, runWithRequestId } from '~/platform/http/request-context.server'
import { logger } from '~/platform/logger.server'
import { DEFAULT_TIME_ZONE, toWallTime } from '~/platform/dates'
import { memberActivityDays } from '~/platform/auth/schema'
import { ceoSessionDailyViews, ceoSessions } from '~/features/ceo-sessions/schema'
import { recordView } from '~/features/ceo-sessions/library.server'
import { jobs } from '~/platform/jobs/schema'
import { appSettings } from '~/platform/settings/schema'
import { getSettings, settingDefaults, startSettings, stopSettings } from '~/platform/settings/settings.server'
import { admissionSettings } from '~/features/admission/settings.server'
import { concurrencyTest, type PlanNode, plansOf, useTestDatabase } from '../../../tests/setup/database'
import { createPeople, createPersona, type People, type Persona } from '../../../tests/setup/members'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { newSession } from '../../../tests/setup/sessions'
import { formRequest, getRequest, run } from '../../../tests/setup/requests'
import * as auditRoute from './audit.route'
import * as dashboardRoute from './dashboard.route'
import { fetchRoute } from '../../../server/fetch-route'
import { EXPORT_PATH, exportMembers } from './export.server'
import * as jobsRoute from './jobs.route'
import * as layoutRoute from './layout.route'
import { readMemberFilter } from './filters'
import { csvCell, exportBatch } from './members.server'
import * as membersRoute from './members.route'
import * as settingsRoute from './settings.route'

useTestDatabase()

const DEFAULT_SETTINGS = settingDefaults(admissionSettings)

const context = { cspNonce: 'test' }
let people: People

const load = (route: { loader: (args: any) => unknown }, path: string, cookie?: string) =>
  run(() => route.loader({ request: getRequest(path, { cookie }), params: {}, context }))
const post = (route: { action: (args: any) => unknown }, path: string, fields: Record<string, string>, cookie?: string) =>
  run(() => route.action({ request: formRequest(path, fields, { cookie }), params: {}, context }))

/**
 * The export over HTTP, as Express serves it (server/app.ts: compressed, with a request id, through
 * `fetchRoute`). A test names its request with `x-test-request` to find its log lines.
 */
let exportUrl: string
beforeAll(async () => {
  const app = express()
  app.use(compression())
  app.use((req, _res, next) => runWithRequestId(req.get('x-test-request') ?? '', next))
  app.get(EXPORT_PATH, fetchRoute(exportMembers, 'members export'))
  const server = app.listen(0, '127.0.0.1')
  // Kept-alive connections stay open: one closed by the server as the next test reuses it is a reset.
  server.keepAliveTimeout = 0
  await once(server, 'listening')
  exportUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${EXPORT_PATH}`
  return () => {
    server.closeAllConnections()
    server.close()
  }
})

const exportResponse = (query: string, cookie?: string, requestName = '') =>
  fetch(`${exportUrl}${query}`, {
    redirect: 'manual',
    headers: { ...(cookie ? { Cookie: cookie } : {}), 'x-app-client-ip': '203.0.113.9', 'x-test-request': requestName },
  })

async function exportCsv(query: string, cookie?: string) {
  const response = await exportResponse(query, cookie)
  // Decoded keeping the byte-order mark (TextDecoder drops it by default).
  return { response, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer()) }
}

/** logger.error's calls while `run` runs, each with the request id it was written under. */
async function errorsLogged(run: () => Promise<void>) {
  const logged: Array<{ args: unknown[]; requestId: string | undefined }> = []
  const spy = vi.spyOn(logger, 'error').mockImplementation(((...args: unknown[]) => {
    logged.push({ args, requestId: currentRequestId() })
  }) as never)
  try {
    await run()
  } finally {
    spy.mockRestore()
  }
  return logged
}

async function failedJob(lastError = 'SMTP refused') {
  const [job] = await getDb()
    .insert(jobs)
    .values({ name: 'mail.send', payload: {}, status: 'failed', attempts: 8, lastError, finishedAt: new Date() })
    .returning({ id: jobs.id })
  return job!.id
}

const auditOf = (action: string) => getDb().select().from(auditLog).where(eq(auditLog.action, action))

beforeAll(async () => {
  people = await createPeople()
})

const PAGES = [
  ['/admin', layoutRoute, 'the console layout'],
  ['/admin', dashboardRoute, 'the dashboard'],
  ['/admin/miembros', membersRoute, 'members'],
  ['/admin/trabajos', jobsRoute, 'jobs'],
  ['/admin/registro', auditRoute, 'audit log'],
  ['/admin/ajustes', settingsRoute, 'settings'],
] as const

describe('who reaches the console', () => {
  const expected: Record<Persona, number> = { anonymous: 302, member: 404, premium: 404, moderator: 404, admin: 200 }
  test.each(
    PAGES.flatMap(([path, route, name]) => (Object.keys(expected) as Persona[]).map((persona) => ({ path, route, name, persona }))),
  )('$name ($path) as $persona', async ({ path, route, name, persona }) => {
    const outcome = await load(route, path, people[persona].cookie)
    // A moderator's console is the moderation queue (issue 28): the layout sends them there.
    if (persona === 'moderator' && name === 'the console layout') {
      expect(outcome.location).toBe('/admin/moderacion')
      return
    }
    expect(outcome.status).toBe(expected[persona])
    if (persona === 'anonymous') expect(outcome.location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`)
    if (expected[persona] === 404) expect(outcome.data.message.title).toBe('Página no encontrada')
  })

  test.each(['anonymous', 'member', 'premium', 'moderator'] as const)(
    '%s cannot retry, discard, save settings or export',
    async (persona) => {
      const jobId = await failedJob()
      const cookie = people[persona].cookie
      const status = persona === 'anonymous' ? 302 : 404
      expect((await post(jobsRoute, '/admin/trabajos', { intent: 'retry-job', jobId: String(jobId) }, cookie)).status).toBe(status)
      expect((await post(jobsRoute, '/admin/trabajos', { intent: 'discard-job', jobId: String(jobId) }, cookie)).status).toBe(status)
      const settings = { intent: 'save-settings', admissionLaunchAt: '2027-01-01T10:00', admissionFormUrl: 'https://evil.example/form' }
      expect((await post(settingsRoute, '/admin/ajustes', settings, cookie)).status).toBe(status)
      expect((await exportCsv('', cookie)).response.status).toBe(status)
      const [job] = await getDb().select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId))
      expect(job!.status).toBe('failed')
      expect(await getDb().select().from(appSettings)).toEqual([])
      expect(await auditOf('members_exported')).toEqual([])
    },
  )

  test('admins see Consola in their menu, moderators Moderación; others neither', async () => {
    const menuOf = async (persona: Persona) => {
      const user = (await load(root, '/', people[persona].cookie)).data.user
      return user && { isAdmin: user.isAdmin, isModerator: user.isModerator }
    }
    expect(await menuOf('admin')).toEqual({ isAdmin: true, isModerator: true })
    expect(await menuOf('moderator')).toEqual({ isAdmin: false, isModerator: true })
    expect(await menuOf('premium')).toEqual({ isAdmin: false, isModerator: false })
  })

  test("the console's sections: its own pages around those the features declare; a moderator's, only the queue", async () => {
    const admin = await load(layoutRoute, '/admin', people.admin.cookie)
    expect(admin.data.sections).toEqual([
      { path: '/admin', label: 'Panel' },
      { path: '/admin/miembros', label: 'Miembros' },
      { path: '/admin/codigos', label: 'Códigos' },
      { path: '/admin/admisiones', label: 'Admisiones' },
      { path: '/admin/moderacion', label: 'Moderación' },
      { path: '/admin/busquedas', label: 'Búsquedas sin resultado' },
      { path: '/admin/trabajos', label: 'Trabajos' },
      { path: '/admin/registro', label: 'Registro' },
      { path: '/admin/ajustes', label: 'Ajustes' },
    ])
    const moderator = await load(layoutRoute, '/admin/moderacion', people.moderator.cookie)
    expect(moderator.status).toBe(200)
    expect(moderator.data).toEqual({ sections: [{ path: '/admin/moderacion', label: 'Moderación' }], isAdmin: false })
    expect((await load(layoutRoute, '/admin/admisiones', people.moderator.cookie)).location).toBe('/admin/moderacion')
  })
})

describe('members table (/admin/miembros)', () => {
  const list = async (query: string) => (await load(membersRoute, `/admin/miembros${query}`, people.admin.cookie)).data

  test('searches name, e-mail and company without accents or case; filters by role, premium and profile', async () => {
    await getDb().execute(
      sql`update profiles set first_name = 'Íñigo', last_name = 'Muñoz', company = 'Biotécnica Norte' where user_id = ${people.moderator.userId}`,
    )
    expect((await list('?q=inigo%20munoz')).members.map((m: { userId: string }) => m.userId)).toEqual([people.moderator.userId])
    expect((await list('?q=BIOTECNICA')).members.map((m: { userId: string }) => m.userId)).toEqual([people.moderator.userId])
    expect(
      (await list(`?q=${encodeURIComponent(people.premium.email!.toUpperCase())}`)).members.map((m: { userId: string }) => m.userId),
    ).toEqual([people.premium.userId])
    expect((await list('?rol=moderador')).members.map((m: { roles: string[] }) => m.roles)).toEqual([['Moderador']])
    expect((await list('?rol=admin')).total).toBe(1)
    expect((await list('?premium=si')).members.map((m: { userId: string }) => m.userId)).toEqual([people.premium.userId])
    expect((await list('?premium=no')).total).toBe(3)
    expect((await list('?perfil=incompleto')).total).toBe(0)
  })

  test('unknown filter values and huge strings are ignored, never an error', async () => {
    const all = await list('')
    for (const query of [
      '?premium=quizas',
      '?rol=%27%3Bdrop',
      '?orden=x',
      '?desde=2026-02-31',
      '?hasta=ayer',
      '?pagina=-4',
      '?pagina=abc',
    ]) {
      const outcome = await load(membersRoute, `/admin/miembros${query}`, people.admin.cookie)
      expect(outcome.status, query).toBe(200)
      expect(outcome.data.total, query).toBe(all.total)
    }
    const huge = await list(`?q=${'a'.repeat(50_000)}`)
    expect(huge.filter.q).toHaveLength(100)
    expect(huge.total).toBe(0)
    expect((await list('?q=%25')).total).toBe(0)
    expect((await list('?pagina=99999')).members).toEqual([])
  })

  test('joined between two days (community time) and sorted by name', async () => {
    await getDb().execute(sql`update profiles set created_at = '2026-03-01T23:30:00Z' where user_id = ${people.member.userId}`)
    // 23:30 UTC on 1 March is 00:30 on 2 March in Madrid.
    expect((await list('?desde=2026-03-02&hasta=2026-03-02')).members.map((m: { userId: string }) => m.userId)).toEqual([
      people.member.userId,
    ])
    expect((await list('?desde=2026-03-01&hasta=2026-03-01')).total).toBe(0)
    const names = (await list('?orden=nombre')).members.map((m: { name: string }) => m.name)
    expect(names).toEqual(names.toSorted((a: string, b: string) => a.localeCompare(b, 'es')))
  })
})

describe('CSV export', () => {
  beforeAll(async () => {
    // Ten thousand members (?q=bulk) in one statement (accounts and profiles), one of them with hostile cells.
    await getDb().execute(sql`
      insert into "user" (id, name, email, email_verified)
      select 'bulk-' || n, 'Bulk ' || n, 'bulk-' || n || '@example.com', true from generate_series(1, 10000) as n`)
    await getDb().execute(sql`
      insert into profiles (user_id, first_name, last_name, company, position, created_at)
      select 'bulk-' || n, 'Ángela', 'Núñez ' || n, 'Farmacéutica; S.A.', 'Directora "Médica"', now() - n * interval '1 minute'
      from generate_series(1, 10000) as n`)
    await getDb().execute(sql`update profiles set company = '=HYPERLINK("http://evil")', position = '@cmd' where user_id = 'bulk-1'`)
    // 1,200 members imported at once (?q=empate-), joined at a moment a JavaScript Date cannot hold.
    await getDb().execute(sql`
      insert into "user" (id, name, email, email_verified)
      select 'tie-' || n, 'Empate ' || n, 'empate-' || n || '@example.com', true from generate_series(1, 1200) as n`)
    await getDb().execute(sql`
      insert into profiles (user_id, first_name, last_name, created_at)
      select 'tie-' || n, 'Empate', 'Número ' || n, '2026-05-04T10:00:00.123456Z' from generate_series(1, 1200) as n`)
  })

  test('a formula cell is neutralised, accents and separators survive a CSV parser', () => {
    for (const dangerous of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR']) {
      expect(csvCell(dangerous).startsWith(`"'`)).toBe(true)
    }
    expect(csvCell('Dirección; "médica"')).toBe('"Dirección; ""médica"""')
  })

  test('10,000 members: BOM, ; separators, every row, formulas escaped, audited with its filter', async () => {
    const { response, text } = await exportCsv('?q=bulk', people.admin.cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="miembros-\d{4}-\d{2}-\d{2}\.csv"$/)
    expect(text.charCodeAt(0)).toBe(0xfeff)
    const rows: string[][] = parse(text.slice(1), { delimiter: ';' })
    expect(rows[0]).toEqual(['Nombre', 'Email', 'Empresa', 'Cargo', 'Premium', 'Origen', 'Roles', 'Perfil completo', 'Alta', 'Perfil'])
    expect(rows).toHaveLength(10_001)
    expect(new Set(rows.slice(1).map((row) => row[1])).size).toBe(10_000)
    const first = rows.find((row) => row[1] === 'bulk-1@example.com')!
    expect(first[2]).toBe(`'=HYPERLINK("http://evil")`)
    expect(first[3]).toBe(`'@cmd`)
    const other = rows.find((row) => row[1] === 'bulk-2@example.com')!
    expect(other.slice(0, 5)).toEqual(['Ángela Núñez 2', 'bulk-2@example.com', 'Farmacéutica; S.A.', 'Directora "Médica"', 'No'])
    expect(other[9]).toBe('http://localhost:3000/usuario/bulk-2')
    const [audit] = await auditOf('members_exported')
    expect(audit).toMatchObject({ actorUserId: people.admin.userId, details: { filter: 'q=bulk' } })
  }, 120_000)

  test('1,200 members who joined in the same microsecond (a bulk import) are all in the file, once', async () => {
    const { response, text } = await exportCsv('?q=empate-', people.admin.cookie)
    expect(response.status).toBe(200)
    const rows: string[][] = parse(text.slice(1), { delimiter: ';' })
    expect(rows).toHaveLength(1201)
    expect(new Set(rows.slice(1).map((row) => row[1])).size).toBe(1200)
  }, 60_000)

  test('a failure half-way cuts the download (no shorter file that looks complete), logged with the request id', async () => {
    // The database fails at the second batch, after the 200, the header line and 500 rows went out.
    const disarm = failStatements(/ < \(to_timestamp\(/, { times: 1, error: () => new Error('disk full') })
    try {
      const logged = await errorsLogged(async () => {
        const response = await exportResponse('?q=empate-', people.admin.cookie, 'corte-csv')
        expect(response.status).toBe(200)
        // The browser (and curl) report a failed download: the body ends without its last chunk.
        await expect(response.text()).rejects.toThrow(/terminated/)
      })
      expect(logged).toEqual([
        { args: [{ err: expect.objectContaining({ message: 'disk full' }) }, 'members export failed'], requestId: 'corte-csv' },
      ])
    } finally {
      disarm()
    }
  })

  test('the database away before the first byte is a 503 with Retry-After, as on every page', async () => {
    const disarm = failStatements(/insert into "audit_log"/, { times: 1 })
    try {
      const response = await exportResponse('', people.admin.cookie)
      expect(response.status).toBe(503)
      expect(response.headers.get('Retry-After')).toBe('5')
      expect((await response.json()).message.title).toBe('Servicio no disponible temporalmente')
    } finally {
      disarm()
    }
  })

  test("the export's batches are read in index order from the cursor, never by sorting every member", async () => {
    const cursor = { micros: '1777888800123456', id: '00000000-0000-4000-8000-000000000000' }
    const [plan] = await plansOf([exportBatch(readMemberFilter(new URLSearchParams()), cursor, 500).getSQL()], { sorts: false })
    // The batch's own nodes; a row's roles and plan are subplans of one member each.
    const path = (node: PlanNode): PlanNode[] => [
      node,
      ...(node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan').flatMap(path),
    ]
    expect(path(plan!).map((node) => node['Node Type'])).not.toContain('Sort')
    expect(path(plan!).find((node) => node['Relation Name'] === 'profiles')).toMatchObject({
      'Node Type': 'Index Scan',
      'Index Name': 'profiles_created_idx',
      'Index Cond': expect.stringMatching(/^\(ROW\(created_at, id\) < ROW\(/),
    })
  })
})

describe('jobs (/admin/trabajos)', () => {
  test('lists failed jobs without secrets; retry queues, discard removes; each audited', async () => {
    const secret = 'smtps://mailer:SuperSecreta123@smtp.example.com:465'
    const retryId = await failedJob(`connect failed ${secret} with token=abc123def456`)
    const discardId = await failedJob()
    const page = await load(jobsRoute, '/admin/trabajos', people.admin.cookie)
    const shown = page.data.failed.find((job: { id: number }) => job.id === retryId)
    expect(shown.error).not.toContain('SuperSecreta123')
    expect(shown.error).not.toContain('abc123def456')
    expect(shown.error).toContain('smtp.example.com')

    const retried = await post(jobsRoute, '/admin/trabajos', { intent: 'retry-job', jobId: String(retryId) }, people.admin.cookie)
    expect(retried.status).toBe(200)
    expect(retried.data.message.title).toBe('Trabajo en la cola de nuevo')
    const discarded = await post(jobsRoute, '/admin/trabajos', { intent: 'discard-job', jobId: String(discardId) }, people.admin.cookie)
    expect(discarded.data.message.title).toBe('Trabajo descartado')
    const rows = await getDb()
      .select({ id: jobs.id, status: jobs.status })
      .from(jobs)
      .where(sql`${jobs.id} in (${retryId}, ${discardId})`)
    expect(rows).toEqual([{ id: retryId, status: 'queued' }])
    expect((await auditOf('job_retried')).map((row) => row.details)).toContainEqual({ jobId: retryId })
    expect((await auditOf('job_discarded')).map((row) => row.details)).toContainEqual({ jobId: discardId, name: 'mail.send' })
  })

  test('unknown ids, junk and a job no longer failed answer 4xx with a Spanish message', async () => {
    for (const jobId of ['999999999', '-1', 'abc', '1e400', '']) {
      const outcome = await post(jobsRoute, '/admin/trabajos', { intent: 'discard-job', jobId }, people.admin.cookie)
      expect([400, 409], jobId).toContain(outcome.status)
      expect(outcome.data.message.title).toMatch(/^(No se pudo descartar el trabajo|Ese trabajo ya no está entre los fallidos)/)
    }
    const unknown = await post(jobsRoute, '/admin/trabajos', { intent: 'drop-table' }, people.admin.cookie)
    expect(unknown.status).toBe(400)
    const json = await run(() =>
      jobsRoute.action({
        request: new Request('http://localhost:3000/admin/trabajos', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: people.admin.cookie!, 'x-app-client-ip': '203.0.113.7' },
          body: '{"intent":"retry-job"}',
        }),
        params: {},
        context,
      } as any),
    )
    expect(json.status).toBe(415)
  })

  concurrencyTest('two admins retrying one job at once: one wins, the other is told', async () => {
    const jobId = await failedJob()
    const outcomes = await Promise.all(
      [1, 2].map(() => post(jobsRoute, '/admin/trabajos', { intent: 'retry-job', jobId: String(jobId) }, people.admin.cookie)),
    )
    expect(outcomes.map((outcome) => outcome.status).toSorted()).toEqual([200, 409])
    expect(outcomes.find((outcome) => outcome.status === 409)!.data.message.title).toBe(
      'Ese trabajo ya no está entre los fallidos: otra persona lo ha reintentado o descartado.',
    )
    expect((await auditOf('job_retried')).filter((row) => (row.details as { jobId: number }).jobId === jobId)).toHaveLength(1)
  })

  test('redactSecrets hides configured secrets, URL passwords and key-shaped strings', () => {
    const env = { AUTH_SECRET: 'x'.repeat(40), STRIPE_SECRET_KEY: 'sk_live_0123456789abcdef' } as Parameters<typeof redactSecrets>[1]
    const redacted = redactSecrets(`auth ${'x'.repeat(40)} stripe sk_live_0123456789abcdef postgres://app:pw@db/x Bearer eyJhbGciOi`, env)
    expect(redacted).toBe('auth [oculto] stripe [oculto] postgres://app:[oculto]@db/x Bearer [oculto]')
  })
})

describe('settings (/admin/ajustes)', () => {
  const save = (fields: Record<string, string>, cookie = people.admin.cookie) =>
    post(settingsRoute, '/admin/ajustes', { intent: 'save-settings', ...fields }, cookie)
  const valid = {
    admissionLaunchAt: '2027-02-01T18:30',
    admissionMode: 'in_app',
    admissionFormUrl: 'https://forms.example.com/nueva',
    rejectionText: DEFAULT_SETTINGS.rejectionText,
    announcementText: '',
    announcementUntil: '',
    messagesEnabled: 'on',
  }

  test('bad values answer 400 with Spanish messages per field and change nothing', async () => {
    const outcome = await save({
      admissionLaunchAt: '2027-02-31T10:00',
      admissionMode: 'popup',
      admissionFormUrl: 'javascript:alert(1)',
      admissionRequired: 'yes',
      rejectionText: 'x'.repeat(2001),
      announcementText: 'x'.repeat(281),
      announcementUntil: 'mañana',
    })
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('Revisa los ajustes marcados')
    expect(outcome.data.submission.error).toEqual({
      admissionLaunchAt: ['Indica una fecha y hora válidas'],
      admissionMode: ['Elige adónde lleva «Solicitar admisión»'],
      admissionFormUrl: ['Indica una dirección web completa (https://…)'],
      admissionRequired: ['Valor no válido para «Admisión obligatoria»'],
      rejectionText: ['Escribe el texto del email de rechazo (máximo 2000 caracteres)'],
      announcementText: ['El aviso tiene un máximo de 280 caracteres, en una línea'],
      announcementUntil: ['Indica hasta qué día se muestra el aviso'],
    })
    const noEnd = await save({ ...valid, announcementText: 'Hola' })
    expect(noEnd.data.submission.error).toEqual({ announcementUntil: ['Indica hasta qué día se muestra el aviso'] })
    const hidden = await save({ ...valid, announcementText: 'Hola\u202Emundo', announcementUntil: '2027-01-01' })
    expect(hidden.data.submission.error).toEqual({ announcementText: ['Contiene caracteres no válidos'] })
    expect(await getDb().select().from(appSettings)).toEqual([])
  })

  test('the form shows the settings each feature declares, a card per feature, with their values', async () => {
    const { cards, values } = (await load(settingsRoute, '/admin/ajustes', people.admin.cookie)).data
    expect(
      cards.map((card: { title: string; fields: Array<{ name: string }> }) => [card.title, card.fields.map((field) => field.name)]),
    ).toEqual([
      ['Admisión', ['admissionLaunchAt', 'admissionMode', 'admissionFormUrl', 'admissionRequired', 'rejectionText']],
      ['Aviso en la comunidad', ['announcementText', 'announcementUntil']],
      ['Mensajes privados', ['messagesEnabled', 'messagesMutedMembers']],
    ])
    expect(values).toEqual({
      admissionLaunchAt: DEFAULT_SETTINGS.admissionLaunchAt,
      admissionMode: 'in_app',
      admissionFormUrl: DEFAULT_SETTINGS.admissionFormUrl,
      admissionRequired: '',
      rejectionText: DEFAULT_SETTINGS.rejectionText,
      announcementText: '',
      announcementUntil: '',
      messagesEnabled: 'on',
      messagesMutedMembers: '',
    })
  })

  test('the form gives the countdown with its seconds, so saving only an announcement leaves it as it was', async () => {
    const form = (await load(settingsRoute, '/admin/ajustes', people.admin.cookie)).data.values
    expect(form.admissionLaunchAt).toBe(DEFAULT_SETTINGS.admissionLaunchAt)
    expect(DEFAULT_SETTINGS.admissionLaunchAt).toMatch(/:\d{2}:\d{2}$/)
    const saved = await save({ ...form, announcementText: 'Solo el aviso', announcementUntil: '2099-01-01' })
    expect(saved.data.changed).toEqual(['announcement'])
    expect((await load(root, '/', undefined)).data.admission.launchAt).toBe(DEFAULT_SETTINGS.admissionLaunchAt)
    await save({ ...form, announcementText: '', announcementUntil: '' })
    expect(await getDb().select().from(appSettings)).toEqual([])
  })

  test('saved values reach the landing (admission link, countdown) and the community (announcement), audited', async () => {
    const saved = await save({ ...valid, announcementText: 'Cena de socios el 12 de diciembre', announcementUntil: '2099-12-31' })
    expect(saved.status).toBe(200)
    expect(saved.data.message.title).toBe('Ajustes guardados')
    // In-app (a new install's default): the form of the community, in the same tab.
    expect((await load(root, '/', undefined)).data.admission).toEqual({ href: '/admision', external: false, launchAt: '2027-02-01T18:30' })
    // External: the questionnaire, in a new tab (the spec's behaviour).
    await save({
      ...valid,
      admissionMode: 'external',
      announcementText: 'Cena de socios el 12 de diciembre',
      announcementUntil: '2099-12-31',
    })
    expect((await load(root, '/', undefined)).data.admission).toEqual({
      href: 'https://forms.example.com/nueva',
      external: true,
      launchAt: '2027-02-01T18:30',
    })
    const community = await load(communityLayout, '/comunidad', people.premium.cookie)
    expect(community.data.announcement).toBe('Cena de socios el 12 de diciembre')
    const audit = (
      await getDb()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'settings_changed'), eq(auditLog.actorUserId, people.admin.userId!)))
    ).find((line) => 'admissionFormUrl' in (line.details ?? {}))
    expect(audit!.details).toMatchObject({
      admissionFormUrl: { before: DEFAULT_SETTINGS.admissionFormUrl, after: 'https://forms.example.com/nueva' },
      announcement: { before: null, after: { text: 'Cena de socios el 12 de diciembre', until: '2099-12-31' } },
    })
    expect(
      (
        await save({
          ...valid,
          admissionMode: 'external',
          announcementText: 'Cena de socios el 12 de diciembre',
          announcementUntil: '2099-12-31',
        })
      ).data.message.title,
    ).toBe('No había nada que cambiar')
    // An announcement whose last day has passed is not shown.
    await save({ ...valid, announcementText: 'Ya pasó', announcementUntil: '2020-01-01' })
    expect((await load(communityLayout, '/comunidad', people.premium.cookie)).data.announcement).toBeNull()
    // Emptied, it is gone (the setting is back at its default, so it has no row).
    expect((await save(valid)).data.message.title).toBe('Ajustes guardados')
    expect((await getDb().select({ key: appSettings.key }).from(appSettings)).map((row) => row.key).toSorted()).toEqual([
      'admissionFormUrl',
      'admissionLaunchAt',
    ])
  })
})

describe('settings on every process', () => {
  test('a process keeps the settings and forgets them when any process changes them (LISTEN/NOTIFY)', async () => {
    await startSettings()
    try {
      const kept = (await getSettings()).admissionFormUrl
      const write = (url: string) =>
        sql`insert into app_settings (key, value) values ('admissionFormUrl', ${JSON.stringify(url)}::jsonb) on conflict (key) do update set value = excluded.value`
      // A change that tells nobody (its trigger off) is not seen: the process answers from what it kept.
      await getDb().transaction(async (tx) => {
        await tx.execute(sql`alter table app_settings disable trigger app_settings_changed`)
        await tx.execute(write('https://silenciosa.example/formulario'))
        await tx.execute(sql`alter table app_settings enable trigger app_settings_changed`)
      })
      expect((await getSettings()).admissionFormUrl).toBe(kept)
      // Another process's change, as the database sees it: the notification makes this one read again.
      await getDb().execute(write('https://otra.example/formulario'))
      await vi.waitFor(async () => expect((await getSettings()).admissionFormUrl).toBe('https://otra.example/formulario'))
    } finally {
      await stopSettings()
    }
  })

  test("a page's loaders asking at once share one read (each read builds its own object)", async () => {
    await startSettings()
    try {
      const [first, ...others] = await Promise.all([getSettings(), getSettings(), getSettings()])
      for (const other of others) expect(other).toBe(first)
    } finally {
      await stopSettings()
    }
  })
})

describe('audit log (/admin/registro)', () => {
  test('filters by who, what and when; unknown values are ignored', async () => {
    const page = async (query: string) => (await load(auditRoute, `/admin/registro${query}`, people.admin.cookie)).data
    const all = await page('')
    expect(all.entries.length).toBeGreaterThan(0)
    const byAction = await page('?accion=settings_changed')
    expect(byAction.entries.length).toBeGreaterThan(0)
    expect(new Set(byAction.entries.map((entry: { action: string }) => entry.action))).toEqual(new Set(['Ajustes cambiados']))
    const byWho = await page(`?quien=${encodeURIComponent(people.admin.email!)}`)
    expect(byWho.entries.every((entry: { actor: { id: string } }) => entry.actor.id === people.admin.userId)).toBe(true)
    expect((await page('?quien=nadie-con-este-nombre')).entries).toEqual([])
    expect((await page('?desde=2000-01-01&hasta=2000-01-02')).entries).toEqual([])
    for (const junk of ['?accion=drop', '?desde=31-12-2026', '?antes=abc', `?quien=${'z'.repeat(10_000)}`]) {
      expect((await load(auditRoute, `/admin/registro${junk}`, people.admin.cookie)).status, junk).toBe(200)
    }
  })
})

describe("the audit log's days", () => {
  test("'Desde' and 'Hasta' are the community's days, 'Hasta' included", async () => {
    const [line] = await getDb()
      .insert(auditLog)
      .values({ action: 'settings_changed', actorUserId: people.admin.userId, createdAt: new Date('2026-03-01T23:30:00Z') })
      .returning({ id: auditLog.id })
    const ids = async (days: string) =>
      (await load(auditRoute, `/admin/registro?accion=settings_changed&${days}`, people.admin.cookie)).data.entries.map(
        (entry: { id: number }) => entry.id,
      )
    // 23:30 UTC on 1 March is 00:30 on 2 March in Madrid.
    expect(await ids('desde=2026-03-02&hasta=2026-03-02')).toEqual([line!.id])
    expect(await ids('desde=2026-03-01&hasta=2026-03-01')).toEqual([])
  })
})

describe('what the dashboard counts is written down as it happens', () => {
  test('a member who opens the community is active today, written once', async () => {
    const today = toWallTime(new Date(), DEFAULT_TIME_ZONE).slice(0, 10)
    const fresh = await createPersona('premium')
    const days = () => getDb().select().from(memberActivityDays).where(eq(memberActivityDays.userId, fresh.userId!))
    expect(await days()).toEqual([])
    await load(root, '/comunidad', fresh.cookie)
    await load(root, '/comunidad', fresh.cookie)
    await vi.waitFor(async () => expect(await days()).toEqual([{ day: today, userId: fresh.userId }]))
  })

  test('an opened session counts on its day, with its total', async () => {
    const session = await newSession(people.admin.userId!)
    await getDb().update(ceoSessions).set({ publicationStatus: 'published' }).where(eq(ceoSessions.id, session.sessionId))
    expect(await recordView(session.sessionId)).toBe(1)
    expect(await recordView(session.sessionId)).toBe(2)
    const [daily] = await getDb().select().from(ceoSessionDailyViews).where(eq(ceoSessionDailyViews.sessionId, session.sessionId))
    expect(daily).toEqual({ sessionId: session.sessionId, day: toWallTime(new Date(), DEFAULT_TIME_ZONE).slice(0, 10), views: 2 })
    expect(await recordView('00000000-0000-4000-8000-000000000000')).toBeNull()
  })

  test("a moderator deleting someone else's post or comment is in the audit log; an author's own deletion is not", async () => {
    const author = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    const comment = await feedAction({ intent: 'add-comment', postId, content: 'Opinión' }, author.cookie)
    const own = await feedAction({ intent: 'add-comment', postId, content: 'Mía' }, author.cookie)
    expect((await feedAction({ intent: 'delete-comment', commentId: own.data.commentId }, author.cookie)).status).toBe(200)
    expect((await feedAction({ intent: 'delete-comment', commentId: comment.data.commentId }, people.moderator.cookie)).status).toBe(200)
    expect((await feedAction({ intent: 'delete-post', postId }, people.moderator.cookie)).status).toBe(200)
    const lines = await getDb()
      .select({ action: auditLog.action, actor: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, author.userId!))
    expect(lines).toEqual([
      { action: 'comment_deleted', actor: people.moderator.userId, details: { commentId: comment.data.commentId, on: 'postId' } },
      { action: 'post_deleted', actor: people.moderator.userId, details: { postId, title: expect.any(String) } },
    ])
  })
})
