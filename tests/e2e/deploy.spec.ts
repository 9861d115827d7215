import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Page } from '@playwright/test'
import { expect, test } from './support/fixtures'

/**
 * Issue 42: a deploy takes over at the next navigation (decisions/0035). Build A is the snapshot
 * the suite built (E2E_APP_DIR); build B is a real second `react-router build` of a copy of it
 * with one line added to the root module, so its files, and so its worker's build id, differ as
 * a deploy's do. Both are served in turn, with one data folder, on one port of this test's own:
 * one origin, so the browser sees a new /sw.js where the old worker is, as after a deploy.
 */

const APP_DIR = process.env.E2E_APP_DIR!
const B_DIR = `${APP_DIR}-deploy-b`
const MARK = 'deploy-b'

// The only journey besides phone.spec that lets workers run: it is about them.
test.use({ serviceWorkers: 'allow' })

/** A port nobody listens on now (the test's servers A and B take it in turn). */
function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** server.js of a build, in its own folder (it reads build/ from its working directory), until /healthz answers. */
async function serve(dir: string, port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(dir, 'server.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH!, NODE_ENV: 'production', PORT: String(port), APP_URL: `http://localhost:${port}`, DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let errors = ''
  child.stderr!.on('data', (chunk) => (errors += chunk))
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server.js of ${dir} exited ${child.exitCode}: ${errors}`)
    const healthy = await fetch(`http://localhost:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return child
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill('SIGKILL')
  throw new Error(`server.js of ${dir} did not answer /healthz: ${errors}`)
}

/** Stops a server as a deploy does (SIGTERM) and waits for it to be gone: the port is free again. */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  await gone
  clearTimeout(timer)
}

/** The build id a build stamped into its worker (server/service-worker.ts). */
function buildIdOf(dir: string) {
  const source = readFileSync(path.join(dir, 'build/client/sw.js'), 'utf8')
  return /const BUILD_ID = "([0-9a-f]{16})"/.exec(source)![1]!
}

/**
 * Build B: the snapshot's sources (not its build/, node_modules linked) with one statement added
 * to the root module. Any change of the code renames its hashed files, and the build id is a hash
 * of those names, as for a deploy of a real change.
 */
function buildB() {
  rmSync(B_DIR, { recursive: true, force: true })
  cpSync(APP_DIR, B_DIR, {
    recursive: true,
    filter: (file) => {
      const relative = path.relative(APP_DIR, file)
      return relative !== 'build' && relative !== 'node_modules' && !relative.startsWith(`build${path.sep}`)
    },
  })
  symlinkSync(path.join(APP_DIR, 'node_modules'), path.join(B_DIR, 'node_modules'))
  appendFileSync(
    path.join(B_DIR, 'app/root.tsx'),
    `\n// Added by tests/e2e/deploy.spec.ts: the second build's own code.\nif (typeof window !== 'undefined') document.documentElement.dataset.deploy = '${MARK}'\n`,
  )
  execFileSync(process.execPath, [path.join(B_DIR, 'node_modules/@react-router/dev/bin.js'), 'build'], { cwd: B_DIR, stdio: 'pipe' })
}

/** Waits until a worker is active and controls the page. */
async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }))
    }
  })
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys())

/** Which build's cache the controlling worker fills: it caches an asset it fetches in its own cache (sw.js, asset()). */
async function controllerCache(page: Page, asset: string) {
  return page.evaluate(async (url) => {
    await fetch(url)
    const holders: string[] = []
    for (const name of await caches.keys()) if (await (await caches.open(name)).match(url)) holders.push(name)
    return holders
  }, asset)
}

test.afterAll(() => rmSync(B_DIR, { recursive: true, force: true }))

test('a new deploy takes over at the next navigation: its worker controls the page, the old caches are gone, no page from the old build', async ({
  browser,
}) => {
  test.setTimeout(240_000)
  const started = Date.now()
  buildB()
  const buildSeconds = Math.round((Date.now() - started) / 1000)
  const idA = buildIdOf(APP_DIR)
  const idB = buildIdOf(B_DIR)
  expect(idB).not.toBe(idA)
  const assetsB = new Set(readdirSync(path.join(B_DIR, 'build/client/assets')))
  const assetsA = new Set(readdirSync(path.join(APP_DIR, 'build/client/assets')))
  const onlyA = [...assetsA].filter((name) => !assetsB.has(name) && name.endsWith('.js'))
  expect(onlyA.length).toBeGreaterThan(0)

  const port = await freePort()
  const origin = `http://localhost:${port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-deploy-'))
  const context = await browser.newContext({ baseURL: origin, serviceWorkers: 'allow', locale: 'es-ES' })
  const page = await context.newPage()
  // The browser's own account of its workers (DevTools protocol): each version and its state.
  const versions = new Map<string, { status: string; scriptURL: string }>()
  const cdp = await context.newCDPSession(page)
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions: updated }) => {
    for (const version of updated) versions.set(version.versionId, { status: version.status, scriptURL: version.scriptURL })
  })
  await cdp.send('ServiceWorker.enable')
  const activated = () => [...versions].filter(([, version]) => version.status === 'activated').map(([id]) => id)
  let server = await serve(APP_DIR, port, dataDir)
  try {
    // Build A: its worker registers, controls the page and keeps its build's cache.
    await page.goto('/')
    await controlled(page)
    await expect.poll(() => cacheNames(page)).toEqual([`circulo-${idA}`])
    const servedA = await page.evaluate(() => fetch('/sw.js').then((response) => response.text()))
    expect(servedA).toContain(`const BUILD_ID = "${idA}"`)
    await expect(page.locator('html')).not.toHaveAttribute('data-deploy', MARK)
    const entryA = await page.evaluate(() => [...document.querySelectorAll('script[type=module]')].length)
    expect(entryA).toBeGreaterThan(0)

    await expect.poll(activated).toHaveLength(1)
    const [versionA] = activated()

    // The deploy: A stops, B starts on the same port with the same data.
    await stop(server)
    server = await serve(B_DIR, port, dataDir)

    // The next navigation. Every script and stylesheet it asks for is one of B's files.
    const requested: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.origin === origin && url.pathname.startsWith('/assets/')) requested.push(path.basename(url.pathname))
    })
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('data-deploy', MARK)
    // B's worker installs (sw.js changed), skips waiting, deletes A's cache and claims the page.
    await expect.poll(() => cacheNames(page), { timeout: 30_000 }).toEqual([`circulo-${idB}`])
    await controlled(page)
    // A's worker is gone (redundant), not waiting behind B: one activated version, B's, and none waiting.
    await expect.poll(() => versions.get(versionA!)?.status).toBe('redundant')
    expect(activated()).toHaveLength(1)
    expect(activated()[0]).not.toBe(versionA)
    expect([...versions.values()].filter((version) => version.status === 'installed')).toEqual([])
    const servedB = await page.evaluate(() => fetch('/sw.js').then((response) => response.text()))
    expect(servedB).toContain(`const BUILD_ID = "${idB}"`)
    // The worker controlling the page is B's: what it fetches goes into B's cache.
    const anAsset = [...assetsB].find((name) => name.endsWith('.js') && !requested.includes(name))!
    expect(await controllerCache(page, `/assets/${anAsset}`)).toEqual([`circulo-${idB}`])

    // And the navigation after it: a page and its files from B only, through B's worker.
    await page.goto('/pricing')
    await expect(page.locator('html')).toHaveAttribute('data-deploy', MARK)
    expect(requested.length).toBeGreaterThan(0)
    expect(requested.filter((name) => !assetsB.has(name))).toEqual([])
    expect(requested.filter((name) => onlyA.includes(name))).toEqual([])
    expect(await cacheNames(page)).toEqual([`circulo-${idB}`])
    console.log(`deploy.spec: build B took ${buildSeconds} s; build ids ${idA} → ${idB}`)
  } finally {
    await context.close()
    await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
})
