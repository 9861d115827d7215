import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Route } from '@playwright/test'
import pg from 'pg'
import sharp from 'sharp'
import { startTcpProxy } from '../setup/tcp-proxy'
import { cookieHeader, expect, type Member, newMember, storageStateOf, test } from './support/fixtures'
import { expectToast } from './support/ui'

// When something fails, the member keeps the page and what they typed; the server outlives its
// dependencies and a restart loses no request. Servers of their own run the suite's snapshot
// (E2E_APP_DIR): one on PostgreSQL behind a proxy that takes the database away, one stopped with
// SIGTERM while requests are in flight.
const APP_DIR = process.env.E2E_APP_DIR!
const PG_URL = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const SECRET = 'resilience-auth-secret-0123456789abcdef0123456789'

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** server.js of the snapshot on `port` with `env`; resolves once /healthz answers 200. */
async function startServer(port: number, env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(APP_DIR, 'server.js')], {
    cwd: APP_DIR,
    env: {
      PATH: process.env.PATH!,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  try {
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, { timeout: 90_000 })
      .toBe(200)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`the server on port ${port} did not start:\n${output}`, { cause: error })
  }
  return { child, output: () => output }
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

/**
 * A database of its own on the PostgreSQL server, migrated and seeded with members as the suite's
 * folder is (through the built bundle); `drop()` removes it, with whatever is still connected.
 */
async function seededPostgres(prefix: string) {
  const database = `${prefix}_${Date.now()}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`create database ${database}`)
  const direct = new URL(PG_URL)
  direct.pathname = `/${database}`
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`))
  const members = seedMembers({ DATABASE_URL: direct.toString(), DATA_DIR: dataDir })
  return {
    database,
    direct,
    dataDir,
    members,
    admin,
    async drop() {
      await admin.query(`alter database ${database} allow_connections true`).catch(() => {})
      await admin.query(`drop database if exists ${database} with (force)`)
      await admin.end()
    },
  }
}

/** The suite's pool of signed-in members, seeded into the database `env` names (before its server starts). */
function seedMembers(env: { DATA_DIR: string; DATABASE_URL?: string }): Record<string, Member[]> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'e2e-resilience-state-'))
  execFileSync(process.execPath, [path.resolve('tests/e2e/support/seed-members.mjs')], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH!, NODE_ENV: 'production', AUTH_SECRET: SECRET, ...env, E2E_STATE_DIR: stateDir },
    stdio: 'pipe',
  })
  return JSON.parse(readFileSync(path.join(stateDir, 'members.json'), 'utf8'))
}

test('a photo picked before the page’s scripts have started goes on to the crop dialog once they do', async ({ browser, member }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: storageStateOf(member) })
  const page = await context.newPage()
  // A slow phone: the page shows (server-rendered) while its scripts have not arrived yet.
  const held: Route[] = []
  let release = false
  await page.route(/\/assets\/.*\.js$/, (route) => (release ? route.continue() : void held.push(route)))
  await page.goto('/perfil', { waitUntil: 'domcontentloaded' })
  const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#7a5' } })
    .png()
    .toBuffer()
  await page.getByLabel('Foto profesional', { exact: true }).setInputFiles({ name: 'yo.png', mimeType: 'image/png', buffer: photo })
  expect(await page.locator('html[data-hydrated]').count(), 'picked before the scripts ran').toBe(0)
  release = true
  for (const route of held.splice(0)) await route.continue()
  await expect(page.getByRole('dialog', { name: 'Ajusta tu foto' })).toBeVisible()
  await context.close()
})

test('words typed into the sign-in form before the page’s scripts have started are still there once they do, and sign in', async ({
  browser,
}) => {
  const member = await newMember('member')
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL })
  const page = await context.newPage()
  const held: Route[] = []
  let release = false
  await page.route(/\/assets\/.*\.js$/, (route) => (release ? route.continue() : void held.push(route)))
  await page.goto('/auth', { waitUntil: 'domcontentloaded' })
  const form = page.locator('form#sign-in')
  await form.getByLabel('Email', { exact: true }).fill(member.email)
  await form.getByLabel('Contraseña', { exact: true }).fill(member.password)
  expect(await page.locator('html[data-hydrated]').count(), 'typed before the scripts ran').toBe(0)
  release = true
  for (const route of held.splice(0)) await route.continue()
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue(member.email)
  await expect(form.getByLabel('Contraseña', { exact: true })).toHaveValue(member.password)
  await form.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click()
  await expectToast(page, 'Sesión iniciada exitosamente')
  await context.close()
})

test('a post typed while the database is away stays, with its words and a Spanish message; sent again once it is back, it is published once', async ({
  browser,
}) => {
  test.skip(!(await postgresAnswers()), `needs PostgreSQL at ${PG_URL} (.ci/run always has one): PGlite lives inside the server`)
  test.setTimeout(180_000)
  // Seeded straight to the server: this process, which runs the proxy, waits for the seed.
  const { direct, dataDir, members, drop } = await seededPostgres('e2e_resilience')
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
  const throughProxy = new URL(direct)
  throughProxy.host = `127.0.0.1:${proxy.port}`
  const env = { DATABASE_URL: throughProxy.toString(), DATA_DIR: dataDir, AUTH_SECRET: SECRET }
  const [writer, other] = members.premium as [Member, Member]
  const port = 3296
  const server = await startServer(port, env)
  const context = await browser.newContext({ baseURL: `http://localhost:${port}`, storageState: storageStateOf(writer) })
  try {
    const page = await context.newPage()
    await page.goto('/comunidad')
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
    await page
      .getByRole('button', { name: 'Nuevo Post' })
      .or(page.getByRole('link', { name: 'Nuevo Post' }))
      .first()
      .click()
    const dialog = page.getByRole('dialog', { name: 'Crear post' })
    const title = `Escrito durante la caída ${Date.now().toString(36)}`
    const content = 'Tres párrafos que me costó escribir y que no quiero perder.'
    await dialog.getByLabel('Título').fill(title)
    await dialog.getByLabel('Contenido').fill(content)

    proxy.refuse()
    await dialog.getByRole('button', { name: 'Publicar' }).click()
    // The member's session is known without the database (the viewer cache), so the post's own
    // message answers ('No se pudo crear el post'); a guard that had to look the member up would
    // say 'Servicio no disponible temporalmente'. Either way, with this line:
    await expectToast(page, 'No podemos acceder a los datos ahora mismo. Vuelve a intentarlo en unos segundos.')
    await expectToast(page, 'No se pudo crear el post')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByLabel('Título')).toHaveValue(title)
    await expect(dialog.getByLabel('Contenido')).toHaveValue(content)
    // A page that needs it answers 503 with Retry-After, at once; the load balancer sees it too.
    const started = Date.now()
    // The writer, known to this process (the viewer cache): the frame, and the feed's own message.
    const away = await fetch(`http://localhost:${port}/comunidad`, { headers: { Cookie: cookieHeader(writer) } })
    expect(away.status).toBe(503)
    expect(away.headers.get('retry-after')).toBe('5')
    expect(await away.text()).toContain('No se pudieron cargar los posts')
    // A member it has not seen cannot be looked up: the whole page says the service is away.
    const stranger = await fetch(`http://localhost:${port}/comunidad`, { headers: { Cookie: cookieHeader(other) } })
    expect(stranger.status).toBe(503)
    expect(stranger.headers.get('retry-after')).toBe('5')
    expect(await stranger.text()).toContain('Servicio no disponible temporalmente')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(503)
    // A public page that needs no database keeps working.
    expect((await fetch(`http://localhost:${port}/legal`)).status).toBe(200)

    proxy.allow()
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status, { timeout: 20_000 }).toBe(200)
    await dialog.getByRole('button', { name: 'Publicar' }).click()
    await expectToast(page, 'Post creado')
    await expect(dialog).toBeHidden()
    const check = new pg.Client({ connectionString: direct.toString() })
    await check.connect()
    const { rows } = await check.query('select count(*)::int as n from community_posts where title = $1', [title])
    await check.end()
    expect(rows[0].n, 'published once').toBe(1)
  } finally {
    await context.close()
    server.child.kill('SIGTERM')
    await exited(server.child)
    await proxy.close()
    await drop()
  }
})

test('a database closed for maintenance (no new connections, the open ones ended): pages and forms answer 503 with Retry-After and the Spanish page, never 500; 200 once it opens again', async () => {
  test.skip(!(await postgresAnswers()), `needs PostgreSQL at ${PG_URL} (.ci/run always has one): PGlite lives inside the server`)
  test.setTimeout(180_000)
  const { database, direct, dataDir, members, admin, drop } = await seededPostgres('e2e_maintenance')
  const port = 3298
  const server = await startServer(port, { DATABASE_URL: direct.toString(), DATA_DIR: dataDir, AUTH_SECRET: SECRET })
  // One member this process has served (the viewer cache knows them), one it has not.
  const [known, stranger] = members.premium as [Member, Member]
  const page = (member: Member) => fetch(`http://localhost:${port}/comunidad`, { headers: { Cookie: cookieHeader(member) } })
  const post = (member: Member, title: string) =>
    fetch(`http://localhost:${port}/comunidad?index`, {
      method: 'POST',
      headers: { Cookie: cookieHeader(member), Origin: `http://localhost:${port}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'create-post', postType: 'text', title }),
      redirect: 'manual',
    })
  try {
    expect((await page(known)).status).toBe(200)
    // What an operator does before a restore or an upgrade: PostgreSQL then refuses this database's
    // new connections with SQLSTATE 55000 ('not currently accepting connections').
    await admin.query(`alter database ${database} allow_connections false`)
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database])
    for (const member of [known, stranger]) {
      const away = await page(member)
      expect(away.status, 'the page while the database is closed').toBe(503)
      expect(away.headers.get('retry-after')).toBe('5')
      expect(await away.text()).toMatch(/No se pudieron cargar los posts|Servicio no disponible temporalmente/)
    }
    const refused = await post(stranger, 'Durante el mantenimiento')
    expect(refused.status, 'a form sent while the database is closed').toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.text()).toContain('No podemos acceder a los datos ahora mismo')
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(503)

    await admin.query(`alter database ${database} allow_connections true`)
    await expect.poll(async () => (await page(stranger)).status, { timeout: 20_000 }).toBe(200)
    expect((await page(known)).status).toBe(200)
    expect((await post(stranger, 'Después del mantenimiento')).status).toBeLessThan(400)
    expect(server.output()).not.toContain('Unhandled rejection')
  } finally {
    server.child.kill('SIGTERM')
    await exited(server.child)
    await drop()
  }
})

test('SIGTERM with 20 requests in flight: all 20 are answered, then the server exits cleanly', async () => {
  test.setTimeout(120_000)
  const port = 3297
  const server = await startServer(port, { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-sigterm-')) })
  const exit = exited(server.child)
  // Each request's body arrives in two halves; the signal comes between them.
  const answers = Array.from({ length: 20 }, (_, index) => {
    const body = `intent=forgot&email=${encodeURIComponent(`en-vuelo-${index}@example.com`)}`
    return new Promise<number | string>((resolve) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/forgot-password',
          method: 'POST',
          headers: {
            Host: `localhost:${port}`,
            Origin: `http://localhost:${port}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume()
          response.on('end', () => resolve(response.statusCode!))
        },
      )
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
      request.write(body.slice(0, 10))
      setTimeout(() => request.end(body.slice(10)), 1500)
    })
  })
  await new Promise((resolve) => setTimeout(resolve, 500))
  server.child.kill('SIGTERM')
  const statuses = await Promise.all(answers)
  // 10 reset links a quarter of an hour from one address, then the rate limit: all answered.
  expect(statuses.filter((status) => status === 302 || status === 429)).toHaveLength(20)
  expect(await exit).toBe(0)
  expect(server.output()).toContain('SIGTERM received')
})

for (const { processes, port } of [
  { processes: 1, port: 3299 },
  { processes: 2, port: 3303 },
]) {
  test(`SIGTERM to npm start’s whole process group with 20 signed-in pages in flight on keep-alive connections, ${processes === 1 ? 'one server process (PGlite)' : 'two server processes (PostgreSQL)'}: all 20 answered, every process exits 0`, async () => {
    test.setTimeout(180_000)
    if (processes > 1) test.skip(!(await postgresAnswers()), `needs PostgreSQL at ${PG_URL}: PGlite is one process's database`)
    // Two processes share one PostgreSQL database; one runs on its own embedded one.
    const postgres = processes > 1 ? await seededPostgres('e2e_group') : undefined
    const dataDir = postgres?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'e2e-group-'))
    const [member] = (postgres?.members ?? seedMembers({ DATA_DIR: dataDir })).premium as [Member]
    // `npm start` as systemd or a terminal runs it: the supervisor and its servers in one process
    // group of their own, which the signal is sent to.
    const supervisor = spawn(process.execPath, [path.join(APP_DIR, 'scripts/start.js')], {
      cwd: APP_DIR,
      detached: true,
      env: {
        PATH: process.env.PATH!,
        PORT: String(port),
        APP_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        AUTH_SECRET: SECRET,
        LOG_LEVEL: 'warn',
        ...(postgres ? { DATABASE_URL: postgres.direct.toString(), WEB_CONCURRENCY: String(processes), MEMORY_LIMIT_MB: '1024' } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    supervisor.stdout!.on('data', (chunk) => (output += chunk))
    supervisor.stderr!.on('data', (chunk) => (output += chunk))
    const exit = exited(supervisor)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 })
    try {
      // Ready: every process serves (/readyz, not /healthz, which one process alone answers).
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status, { timeout: 90_000 })
        .toBe(200)
      await expect.poll(() => output.match(/Círculo CEO listening/g)?.length ?? 0, { timeout: 60_000 }).toBe(processes)
      expect(workerPids(supervisor)).toHaveLength(processes)
      /** A GET on the agent's keep-alive connections: once its bytes have left this process, and its complete answer (or how it failed). */
      const send = (url: string) => {
        const request = http.get({
          host: '127.0.0.1',
          port,
          path: url,
          agent,
          headers: { Host: `localhost:${port}`, Cookie: cookieHeader(member) },
        })
        // 'finish' alone is not enough: on a connection still being made the bytes wait in this process.
        const written = new Promise<void>((resolve) => {
          const check = () =>
            request.socket && !request.socket.connecting && request.socket.writableLength === 0 && request.writableFinished
              ? resolve()
              : setTimeout(check, 1)
          check()
        })
        const answer = new Promise<number | string>((resolve) => {
          request.on('response', (response) => {
            response.resume()
            response.on('end', () => resolve(response.complete ? response.statusCode! : 'incomplete'))
            response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
          })
          request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
        })
        return { written, answer }
      }
      // Twelve connections the server has already answered on and keeps open, idle.
      for (const { answer } of Array.from({ length: 12 }, () => send('/healthz'))) expect(await answer).toBe(200)
      const early = Array.from({ length: 10 }, () => send('/comunidad'))
      await new Promise((resolve) => setTimeout(resolve, 100))
      // Ten sent just before the signal, two on idle keep-alive connections and eight on new ones:
      // their bytes are in the server's socket buffers, or their connections in its kernel's queue
      // (the event loop is busy with the first ten), when it learns it has to stop.
      const late = Array.from({ length: 10 }, () => send('/comunidad'))
      await Promise.all(late.map(({ written }) => written))
      const stoppedAt = Date.now()
      process.kill(-supervisor.pid!, 'SIGTERM')
      const statuses = await Promise.all([...early, ...late].map(({ answer }) => answer))
      // 503 would be a refusal of work that arrived after the stop began; a closed connection never.
      expect(
        statuses.filter((status) => status === 200 || status === 503),
        `answers: ${statuses.join(' ')}`,
      ).toHaveLength(20)
      expect(await exit, output).toBe(0)
      expect(Date.now() - stoppedAt, 'within the drain limit (10 s)').toBeLessThan(10_000)
      // The server went first: nothing of the group is left, and it was not started again.
      expect(() => process.kill(-supervisor.pid!, 0)).toThrow()
      expect(output.match(/SIGTERM received/g)).toHaveLength(processes)
      expect(output).not.toContain('starting it again')
    } finally {
      agent.destroy()
      killGroup(supervisor)
      await postgres?.drop()
    }
  })
}

/** `npm start` (the snapshot's supervisor) in a process group of its own; resolves once /readyz answers 200. */
async function startSupervised(port: number, env: Record<string, string>) {
  const supervisor = spawn(process.execPath, [path.join(APP_DIR, 'scripts/start.js')], {
    cwd: APP_DIR,
    detached: true,
    env: {
      PATH: process.env.PATH!,
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      AUTH_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  supervisor.stdout!.on('data', (chunk) => (output += chunk))
  supervisor.stderr!.on('data', (chunk) => (output += chunk))
  const exit = exited(supervisor)
  try {
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status, { timeout: 90_000 }).toBe(200)
  } catch (error) {
    killGroup(supervisor)
    throw new Error(`npm start on port ${port} did not become ready:\n${output}`, { cause: error })
  }
  return { supervisor, exit, output: () => output }
}

function killGroup(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGKILL')
  } catch {
    // Already gone, as it should be.
  }
}

/** The server processes under a supervisor, by pid. */
function workerPids(supervisor: ChildProcess) {
  try {
    return execFileSync('pgrep', ['-P', String(supervisor.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort()
  } catch {
    return []
  }
}

test.describe('every core: npm start with two server processes on one PostgreSQL', () => {
  test.beforeEach(async () => {
    test.skip(!(await postgresAnswers()), `needs PostgreSQL at ${PG_URL} (.ci/run always has one): PGlite is one process's database`)
  })

  test('each process has its own pool and LISTEN connections; scheduled and queued jobs run once; one scrape answers for both; a crashed one is started again alone', async () => {
    test.setTimeout(240_000)
    const { database, direct, dataDir, members, admin, drop } = await seededPostgres('e2e_cluster')
    const port = 3301
    const metricsPort = 3302
    const { supervisor, output } = await startSupervised(port, {
      DATABASE_URL: direct.toString(),
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '2',
      MEMORY_LIMIT_MB: '1024',
      METRICS_PORT: String(metricsPort),
      // The e-mail lines (the log transport) tell which process sent what.
      LOG_LEVEL: 'info',
    })
    const [member] = members.premium as [Member]
    try {
      const pids = workerPids(supervisor)
      expect(pids).toHaveLength(2)
      // Both have started (each says so once it listens) before the database is looked at.
      await expect.poll(() => output().match(/Círculo CEO listening on .* \(process \d+\)/g)?.length ?? 0, { timeout: 60_000 }).toBe(2)
      const { rows: connections } = await admin.query<{ application_name: string; listening: number }>(
        `select application_name, count(*) filter (where query ilike 'LISTEN%')::int as listening
           from pg_stat_activity where datname = $1 and application_name like 'circulo:%' group by 1 order by 1`,
        [database],
      )
      // Each its own pool and LISTEN connections (the job queue's, the event streams', the viewer
      // cache's, the settings'): as many in one as in the other.
      expect(connections.map((row) => row.application_name).sort()).toEqual(pids.map((pid) => `circulo:${pid}`).sort())
      expect(connections[0]!.listening).toBeGreaterThanOrEqual(2)
      expect(connections[1]!.listening).toBe(connections[0]!.listening)

      // The schedules ran in both processes at start: today's housekeeping was queued once and ran
      // once; the next one, which it queues, exists once.
      const check = new pg.Client({ connectionString: direct.toString() })
      await check.connect()
      const housekeeping = async () =>
        (
          await check.query<{ status: string; attempts: number }>(
            `select status, attempts from jobs where name = 'platform.housekeeping' order by run_at`,
          )
        ).rows
      await expect.poll(async () => (await housekeeping()).map((row) => row.status), { timeout: 30_000 }).toEqual(['done', 'queued'])
      expect((await housekeeping())[0]!.attempts).toBe(1)
      const { rows: keys } = await check.query(`select dedupe_key from jobs where dedupe_key is not null group by 1 having count(*) > 1`)
      expect(keys).toEqual([])

      // Forty e-mails queued at once: both processes take them, each one is sent once.
      const recipients = Array.from({ length: 40 }, (_, index) => `una-vez-${index}@example.com`)
      await check.query(
        `insert into jobs (name, payload) select 'mail.send', jsonb_build_object('to', r, 'subject', 'Una vez', 'html', '<p>Una vez</p>', 'text', 'Una vez') from unnest($1::text[]) r`,
        [recipients],
      )
      await check.query(`select pg_notify('jobs', 'mail.send')`)
      await expect
        .poll(
          async () => (await check.query(`select count(*)::int as n from jobs where name = 'mail.send' and status = 'done'`)).rows[0].n,
          {
            timeout: 30_000,
          },
        )
        .toBe(40)
      const { rows: retried } = await check.query(`select count(*)::int as n from jobs where name = 'mail.send' and attempts <> 1`)
      expect(retried[0].n).toBe(0)
      for (const recipient of recipients) expect(output().split(`E-mail for ${recipient}:`).length - 1, recipient).toBe(1)
      await check.end()

      // One scrape answers for both: thirty requests, shared between them, are thirty in the scrape.
      for (let i = 0; i < 30; i++) expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
      const profile = await fetch(`http://127.0.0.1:${port}/usuario/${crypto.randomUUID()}`, { headers: { Cookie: cookieHeader(member) } })
      expect(profile.status).toBe(404)
      expect((await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => null))?.status, 'never on the public port').not.toBe(200)
      const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
      expect(scrape).toContain('circulo_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 30')
      expect(scrape).toContain('route="/usuario/:userId",status="404"')
      expect(scrape).toMatch(/circulo_jobs_completed_total\{kind="mail\.send"\} 40/)
      expect(scrape).toMatch(/^circulo_ready 1$/m)
      expect(scrape).toMatch(/^circulo_members [1-9]\d*$/m)
      expect(scrape).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)
      writeFileSync(path.join(process.env.E2E_STATE_DIR ?? tmpdir(), 'cluster-scrape.txt'), scrape)

      // A process that crashes is started again alone; the other serves meanwhile.
      const [victim, survivor] = pids as [number, number]
      process.kill(victim, 'SIGKILL')
      await expect
        .poll(output, { timeout: 10_000 })
        .toMatch(/The server \(process [12] of 2\) stopped \(SIGKILL\); starting it again in 1 s\./)
      const during: Array<number | string> = []
      for (let i = 0; i < 20; i++) {
        during.push(
          await fetch(`http://127.0.0.1:${port}/comunidad`, { headers: { Cookie: cookieHeader(member) } }).then(
            (response) => response.status,
            (error: unknown) => String(error),
          ),
        )
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(
        during.filter((status) => status !== 200),
        `answers while one process restarts: ${during.join(' ')}`,
      ).toEqual([])
      await expect.poll(() => workerPids(supervisor).length, { timeout: 60_000 }).toBe(2)
      const after = workerPids(supervisor)
      expect(after).toContain(survivor)
      expect(after).not.toContain(victim)
      await expect.poll(() => output().match(/Círculo CEO listening on .* \(process \d+\)/g)?.length ?? 0, { timeout: 60_000 }).toBe(3)
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200)
    } finally {
      killGroup(supervisor)
      await drop()
    }
  })
})

test.describe('stopping behind a load balancer (SHUTDOWN_DELAY_SECONDS)', () => {
  test('with a delay, SIGTERM turns /readyz to 503 draining while pages still answer 200 (closing their connections); the listener closes after the delay and the process exits 0', async () => {
    test.setTimeout(120_000)
    const port = 3308
    const delaySeconds = 3
    const server = await startServer(port, {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-delay-')),
      SHUTDOWN_DELAY_SECONDS: String(delaySeconds),
    })
    const exit = exited(server.child)
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status, { timeout: 30_000 }).toBe(200)
    const stoppedAt = Date.now()
    server.child.kill('SIGTERM')
    // The balancer's probe sees the stop at once…
    await expect
      .poll(async () => {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`)
        return { status: response.status, body: await response.json() }
      })
      .toEqual({ status: 503, body: { status: 'draining' } })
    // …while what it sends before it has noticed is served as before: a page and the liveness check.
    const page = await fetch(`http://127.0.0.1:${port}/privacidad`)
    const pageAnsweredAfter = Date.now() - stoppedAt
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Política de Privacidad y Cookies')
    expect(page.headers.get('connection'), 'the client opens its next connection elsewhere').toBe('close')
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
    expect(pageAnsweredAfter, 'answered within the delay').toBeLessThan(delaySeconds * 1000)
    expect(await exit).toBe(0)
    const stoppedAfter = Date.now() - stoppedAt
    expect(stoppedAfter, 'the listener stayed for the whole delay').toBeGreaterThanOrEqual(delaySeconds * 1000)
    expect(stoppedAfter, 'then drained as without it').toBeLessThan(delaySeconds * 1000 + 10_000)
    expect(server.output()).toContain(
      `SIGTERM received: serving ${delaySeconds} s more while load balancers see /readyz answer 503, then finishing the requests in flight and closing`,
    )
  })

  test('a SHUTDOWN_DELAY_SECONDS that is not whole seconds from 0 to 60 stops the start in one line, status 78', async () => {
    test.setTimeout(60_000)
    const child = spawn(process.execPath, [path.join(APP_DIR, 'server.js')], {
      cwd: APP_DIR,
      env: {
        PATH: process.env.PATH!,
        NODE_ENV: 'production',
        PORT: '3309',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-delay-bad-')),
        SHUTDOWN_DELAY_SECONDS: '5s',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout!.on('data', (chunk) => (output += chunk))
    child.stderr!.on('data', (chunk) => (output += chunk))
    expect(await exited(child)).toBe(78)
    expect(output).toContain('SHUTDOWN_DELAY_SECONDS: must be a whole number of seconds from 0 to 60')
    expect(output).not.toMatch(/^\s+at /m)
  })
})

test.describe('traces (OpenTelemetry) of a page on PostgreSQL', () => {
  test.beforeEach(async () => {
    test.skip(!(await postgresAnswers()), `needs PostgreSQL at ${PG_URL}: the embedded database has no statement spans`)
  })

  test('npm start with OTEL on: one feed request is an HTTP server span carrying the log’s request id, with Express middleware and router spans and pg statement spans (with their SQL) under it', async () => {
    test.setTimeout(180_000)
    // A collector of our own: the spans arrive as OTLP JSON, as they would at a real one.
    const batches: OtlpExport[] = []
    const collector = http.createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        if (request.url === '/v1/traces') batches.push(JSON.parse(body) as OtlpExport)
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
    const collectorPort = (collector.address() as { port: number }).port
    const { direct, dataDir, members, drop } = await seededPostgres('e2e_traces')
    const [member] = members.premium as [Member]
    const port = 3304
    const { supervisor, exit, output } = await startSupervised(port, {
      DATABASE_URL: direct.toString(),
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '1',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    })
    try {
      const page = await fetch(`http://127.0.0.1:${port}/comunidad`, { headers: { Cookie: cookieHeader(member) } })
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Comunidad')
      // The id every log line of this request carries, and the browser gets to quote.
      const requestId = page.headers.get('x-request-id')
      expect(requestId).toMatch(/^\S{6,}$/)

      const spans = () => batches.flatMap((batch) => batch.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap(readSpans)))
      const serverSpan = () => spans().find((span) => span.kind === 2 && span.attributes['request.id'] === requestId)
      await expect.poll(() => Boolean(serverSpan()), { timeout: 20_000 }).toBe(true)
      const root = serverSpan()!
      expect(root.scope).toBe('@opentelemetry/instrumentation-http')
      expect(root.attributes['url.path']).toBe('/comunidad')
      expect(root.attributes['http.response.status_code']).toBe(200)
      const trace = spans().filter((span) => span.traceId === root.traceId && span.spanId !== root.spanId)
      const byId = new Map([root, ...trace].map((span) => [span.spanId, span]))
      const under = (span: Span, ancestor: Span) => {
        for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? '')) {
          if (parent.spanId === ancestor.spanId) return true
        }
        return false
      }
      // Every span of the request sits under its HTTP span.
      expect(trace.filter((span) => !under(span, root)).map((span) => span.name)).toEqual([])

      const express = trace.filter((span) => span.scope === '@opentelemetry/instrumentation-express')
      expect(express.filter((span) => span.attributes['express.type'] === 'middleware').length).toBeGreaterThanOrEqual(3)
      // Named after the middleware (server.js, server/app.ts, server/security.ts), not '<anonymous>'.
      expect(express.map((span) => span.name)).toEqual(
        expect.arrayContaining([
          'middleware - startingOrStopping',
          'middleware - compression',
          'router - /',
          'middleware - securityHeaders',
          'middleware - requestId',
          'middleware - sameOriginWrites',
          'middleware - reactRouter',
        ]),
      )
      expect(express.filter((span) => span.name.includes('<anonymous>')).map((span) => span.name)).toEqual([])

      const statements = trace.filter((span) => span.scope === '@opentelemetry/instrumentation-pg' && span.name.startsWith('pg.query:'))
      expect(statements.length).toBeGreaterThanOrEqual(2)
      for (const span of statements) expect(String(span.attributes['db.query.text'] ?? span.attributes['db.statement'])).toMatch(/\S/)
      expect(statements.map((span) => String(span.attributes['db.query.text'] ?? span.attributes['db.statement']))).toEqual(
        expect.arrayContaining([expect.stringMatching(/^select .* from "community_posts"/)]),
      )
      // The statements ran in React Router's loaders: the request's context reached them.
      const pages = express.find((span) => span.name === 'middleware - reactRouter')!
      expect(statements.filter((span) => !under(span, pages)).map((span) => span.name)).toEqual([])

      const tree = printTree(root, trace)
      console.log(`The trace of GET /comunidad:\n${tree}`)
      writeFileSync(path.join(process.env.E2E_STATE_DIR ?? tmpdir(), 'comunidad-trace.txt'), tree)
      expect(output()).not.toContain('import-in-the-middle')
    } finally {
      process.kill(-supervisor.pid!, 'SIGTERM')
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 20_000))])
      killGroup(supervisor)
      collector.close()
      await drop()
    }
  })
})

interface OtlpValue {
  stringValue?: string
  intValue?: string | number
  boolValue?: boolean
  doubleValue?: number
}
interface OtlpExport {
  resourceSpans: Array<{
    scopeSpans: Array<{
      scope: { name: string }
      spans: Array<{
        traceId: string
        spanId: string
        parentSpanId?: string
        name: string
        kind: number
        attributes: Array<{ key: string; value: OtlpValue }>
      }>
    }>
  }>
}
interface Span {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  scope: string
  attributes: Record<string, string | number | boolean | undefined>
}

/** OTLP JSON's spans, with their scope and plain attributes. */
function readSpans({ scope, spans }: OtlpExport['resourceSpans'][number]['scopeSpans'][number]): Span[] {
  return spans.map((span) => ({
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId || undefined,
    name: span.name,
    kind: span.kind,
    scope: scope.name,
    attributes: Object.fromEntries(
      span.attributes.map(({ key, value }) => [
        key,
        value.stringValue ?? (value.intValue === undefined ? (value.boolValue ?? value.doubleValue) : Number(value.intValue)),
      ]),
    ),
  }))
}

/** The span names as an indented tree (each span's children in the order they were sent). */
function printTree(root: Span, trace: Span[], depth = 0): string {
  const children = trace.filter((span) => span.parentSpanId === root.spanId)
  return [`${'  '.repeat(depth)}${root.name}`, ...children.map((child) => printTree(child, trace, depth + 1))].join('\n')
}
