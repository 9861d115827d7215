import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
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
  const database = `e2e_resilience_${Date.now()}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`create database ${database}`)
  const direct = new URL(PG_URL)
  direct.pathname = `/${database}`
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
  const throughProxy = new URL(direct)
  throughProxy.host = `127.0.0.1:${proxy.port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-resilience-'))
  const stateDir = mkdtempSync(path.join(tmpdir(), 'e2e-resilience-state-'))
  const env = { DATABASE_URL: throughProxy.toString(), DATA_DIR: dataDir, AUTH_SECRET: SECRET }
  // Members seeded as the suite's are (migrations first, through the built bundle), straight to
  // the server: this process, which runs the proxy, waits for the seed.
  execFileSync(process.execPath, [path.resolve('tests/e2e/support/seed-members.mjs')], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH!, NODE_ENV: 'production', ...env, DATABASE_URL: direct.toString(), E2E_STATE_DIR: stateDir },
    stdio: 'pipe',
  })
  const members = JSON.parse(readFileSync(path.join(stateDir, 'members.json'), 'utf8'))
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
    await admin.query(`drop database if exists ${database} with (force)`)
    await admin.end()
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
