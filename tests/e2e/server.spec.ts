import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import net from 'node:net'
import sharp from 'sharp'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cookieHeader, expect, test } from './support/fixtures'

// The server as a process: what a malformed request, a port in use, an incomplete public
// configuration or a crash do to it. Runs the snapshot the suite built (E2E_APP_DIR).
const APP_DIR = process.env.E2E_APP_DIR!
const BASE_URL = process.env.E2E_BASE_URL!
const { port: PORT } = new URL(BASE_URL)

/** Runs server.js from the snapshot with `env` until it exits; its exit code and output. */
function runServer(env: Record<string, string>, script = 'server.js', timeoutMs = 60_000) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(APP_DIR, script)], {
      cwd: APP_DIR,
      env: { PATH: process.env.PATH!, NODE_ENV: 'production', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-proc-')), ...env },
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

test.describe('starting the server', () => {
  test('on a port already in use it stops at once with one clear line and status 78', async () => {
    const started = Date.now()
    const { code, output } = await runServer({ PORT })
    expect(code).toBe(78)
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(output).toContain(`The server could not start: port ${PORT} is already in use`)
    expect(output).not.toContain('listening')
    expect(output).not.toContain('Ready')
    // Meanwhile the server that holds the port keeps answering.
    expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200)
  })

  test('an incomplete public configuration is refused in one line, without a stack trace', async () => {
    const { code, output } = await runServer({ PORT: '3291', APP_URL: 'https://circulo.example.org' })
    expect(code).toBe(78)
    expect(output).toContain('is a public address, so these settings are required')
    expect(output).not.toMatch(/^\s+at /m)
  })

  test('a public start refuses while app/site.config.ts still holds the example company data', async () => {
    const { code, output } = await runServer({
      PORT: '3292',
      APP_URL: 'https://circulo.example.org',
      AUTH_SECRET: 'x'.repeat(40),
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PAYMENTS_PROVIDER: 'manual',
    })
    expect(code).toBe(78)
    expect(output).toContain('app/site.config.ts still holds example data (taxId')
    expect(output).not.toMatch(/^\s+at /m)
  })

  test('npm start supervises: a server killed with SIGKILL is started again; a stop while it waits to do so starts nothing', async () => {
    test.setTimeout(120_000)
    const port = '3293'
    const supervisor = spawn(process.execPath, [path.join(APP_DIR, 'scripts/start.js')], {
      cwd: APP_DIR,
      detached: true,
      env: { PATH: process.env.PATH!, PORT: port, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-sup-')), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    supervisor.stdout!.on('data', (chunk) => (output += chunk))
    supervisor.stderr!.on('data', (chunk) => (output += chunk))
    const healthy = () =>
      expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, {
          timeout: 60_000,
          intervals: [500],
        })
        .toBe(200)
    try {
      await healthy()
      const serverPid = Number(
        execFileSync('pgrep', ['-P', String(supervisor.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      )
      expect(serverPid).toBeGreaterThan(0)
      // Within the default memory ceiling (MEMORY_LIMIT_MB 512): half of it for V8's old generation.
      expect(readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0')).toContain('--max-old-space-size=256')
      process.kill(serverPid, 'SIGKILL')
      await expect.poll(() => output, { timeout: 10_000 }).toContain('The server stopped (SIGKILL); starting it again in 1 s.')
      await healthy()
      const newPid = Number(
        execFileSync('pgrep', ['-P', String(supervisor.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      )
      expect(newPid).not.toBe(serverPid)
      // A stop while it waits to start the server again: it leaves at once, starting nothing.
      process.kill(newPid, 'SIGKILL')
      await expect.poll(() => output, { timeout: 10_000 }).toContain('The server stopped (SIGKILL); starting it again in 2 s.')
      const exited = new Promise((resolve) => supervisor.once('exit', resolve))
      supervisor.kill('SIGTERM')
      expect(await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000, 'still running'))])).toBe(0)
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      expect(await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => 'nothing listens')).toBe('nothing listens')
    } finally {
      // Whatever is left of its process group (on a failure: the supervisor, a server started after all).
      try {
        process.kill(-supervisor.pid!, 'SIGKILL')
      } catch {
        // Nothing left, as it should be.
      }
    }
  })
})

test('npm start refuses a memory ceiling it cannot use, in one line, without starting', () => {
  const run = spawnSync(process.execPath, [path.join(APP_DIR, 'scripts/start.js')], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH!, PORT: '3294', MEMORY_LIMIT_MB: '128', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 30_000,
  })
  expect(run.status).toBe(78)
  expect(run.stderr).toContain('MEMORY_LIMIT_MB must be a whole number of MiB, 256 or more (or 0 for no ceiling), not "128"')
})

test.describe('hostile requests to the running server', () => {
  test.use({ signedIn: 'member' })

  /** Writes raw bytes to the server and returns what it answers before closing (or '' if nothing). */
  function rawRequest(head: string, body: Buffer | string, { endEarly = false } = {}) {
    const { hostname, port } = new URL(BASE_URL)
    return new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname)
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk))
      socket.on('error', () => resolve(answer))
      socket.on('close', () => resolve(answer))
      socket.write(head)
      socket.write(body)
      if (endEarly) setTimeout(() => socket.destroy(), 300)
    })
  }

  test('an upload whose client disconnects mid-file, or whose body ends before the boundary, does not stop the server', async ({
    member,
  }) => {
    const cookie = cookieHeader(member)
    const boundary = '----corte'
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\navatar\r\n--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`
    const head = (length: number) =>
      `POST /perfil HTTP/1.1\r\nHost: ${new URL(BASE_URL).host}\r\nOrigin: ${BASE_URL}\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`
    // The client goes away after half of the declared body.
    await rawRequest(head(200_000), part + 'x'.repeat(1000), { endEarly: true })
    expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200)
    // The body ends (connection closed by the client's side) before the closing boundary.
    const cutBody = part + 'x'.repeat(100)
    const answer = await rawRequest(head(cutBody.length), cutBody)
    expect(answer).toMatch(/^HTTP\/1\.1 400/)
    expect(answer).toContain('La solicitud está incompleta o mal formada')
    expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200)
  })

  test('an attachment over 10 MB answers 413 with the feed’s message, not a reset connection, and the server goes on', async ({
    signedInAs,
  }) => {
    const { page } = await signedInAs('premium')
    // 11 MB, over the spec's 10 MB per file (app/features/feed/limits.ts).
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * 1024 * 1024)])
    const response = await page.request.post('/comunidad?index', {
      headers: { Origin: BASE_URL },
      multipart: {
        intent: 'create-post',
        postType: 'text',
        title: 'Informe anual completo',
        attachments: { name: 'informe.pdf', mimeType: 'application/pdf', buffer: pdf },
      },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(413)
    expect(await response.text()).toContain('Cada archivo debe ser menor a 10MB')
    expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200)
    // Nothing was posted, and the same member's next request is served.
    await page.goto('/comunidad')
    await expect(page.getByRole('heading', { name: 'Informe anual completo' })).toHaveCount(0)
  })

  test('an avatar over 5 MB answers 413 with the avatar’s message', async ({ request }) => {
    const response = await request.post('/perfil', {
      headers: { Origin: BASE_URL },
      multipart: { intent: 'avatar', avatar: { name: 'grande.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * 1024 * 1024, 1) } },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(413)
    expect(await response.text()).toContain('La imagen debe ser menor a 5MB')
  })

  test('TRACE is a 405 and a JSON body to a form is a 415', async ({ request }) => {
    const trace = await request.fetch('/auth', { method: 'TRACE' })
    expect(trace.status()).toBe(405)
    expect(await trace.text()).toBe('Método no permitido')
    const json = await request.post('/perfil', { headers: { Origin: BASE_URL }, data: { intent: 'profile' }, maxRedirects: 0 })
    expect(json.status()).toBe(415)
  })

  test('a stored file carries one CSP and one nosniff; built files carry nosniff', async ({ page }) => {
    await page.goto('/perfil')
    const asset = await page.evaluate(
      () =>
        document.querySelector<HTMLScriptElement>('script[type=module][src]')?.src ??
        document.querySelector('link[rel=modulepreload]')?.getAttribute('href'),
    )
    expect(asset).toBeTruthy()
    const built = await page.request.get(asset!)
    expect(built.headers()['x-content-type-options']).toBe('nosniff')
    const favicon = await page.request.get('/favicon.ico')
    expect(favicon.headers()['x-content-type-options']).toBe('nosniff')
    const portrait = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0b4f4a' } })
      .png()
      .toBuffer()
    const uploaded = await page.request.post('/perfil', {
      headers: { Origin: BASE_URL, Accept: 'text/html' },
      multipart: { intent: 'avatar', avatar: { name: 'foto.png', mimeType: 'image/png', buffer: portrait } },
      maxRedirects: 0,
    })
    expect(uploaded.status()).toBe(200)
    await page.goto('/perfil')
    const src = await page.locator('img[src^="/uploads/avatars/"]').first().getAttribute('src')
    const stored = await page.request.get(src!)
    expect(stored.status()).toBe(200)
    const headers = stored.headersArray()
    const count = (name: string) => headers.filter((header) => header.name.toLowerCase() === name).length
    expect(count('content-security-policy')).toBe(1)
    expect(count('x-content-type-options')).toBe(1)
    expect(stored.headers()['content-security-policy']).toBe("default-src 'none'; sandbox")
  })
})
