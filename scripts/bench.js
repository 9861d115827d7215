// `npm run bench`: load test of the community feed on loopback, with a large seeded community.
//
// For each database engine (the embedded PGlite, then PostgreSQL when one answers on
// 127.0.0.1:5432 — see BENCH_POSTGRES_URL / --no-postgres / --postgres-only):
//   1. builds the site if needed, makes a fresh data folder (and, on PostgreSQL, a fresh
//      database bench_<time>, dropped at the end);
//   2. seeds it (bench/seed.js, a child process): 1,000 members, 10,000 posts, ~30,000
//      comments, ~55,000 post likes, ~45,000 comment likes, attachments, notifications, an admin,
//      500 published CEO sessions (one with a real video file) with their likes and comments;
//   3. starts the production server (server.js, unsupervised) on 127.0.0.1:3410 with the query
//      counter preloaded (bench/count-queries.js), signs in once over HTTP as a complete,
//      premium member (POST /auth) and reuses that session cookie for every request;
//   4. checks each page answers 200 with the expected content, warms up, then runs each
//      scenario — a closed loop of keep-alive connections (bench/load.js) at 10 and 50
//      concurrent connections for BENCH_SECONDS (default 10) seconds, capped at 100,000
//      requests — against:
//        /healthz                                    baseline: no page, `select 1`
//        /legal                                      baseline: a static page with the same layout
//                                                    (root loader: session, profile, roles, unread)
//        /comunidad                                  the feed page (document, server-rendered)
//        /comunidad.data?_routes=features%2Ffeed%2Ffeed.route  the feed's data endpoint: what the browser
//                                                    fetches for a client navigation
//        /comunidad/publicaciones.data?cursor=…      the feed's next 10 posts, as “Cargar más” fetches them
//        /comunidad/sesiones                         the Sesiones tab (document): 12 cards + 4 'Continuar viendo'
//        /comunidad/sesiones?buscar=Biotecnología    a search, as a tag's link sends it (150 sessions match)
//        /video/<id>                                 the video page (document); each opening counts a view:
//                                                    one UPDATE of the session's row per request, on purpose
//        /uploads/sessions/<id>/video_1.webm?…       the video itself, as the player asks for it: the signed
//                                                    address the video page's loader answered (read from
//                                                    its .data), with `Range: bytes=0-65535` (206)
//      All requests send the member's cookie and `Accept-Encoding: gzip`, as a browser does.
//   5. counts the SQL statements of one request per page (after the load, so the counter's
//      AsyncLocalStorage is not active during it): the preloaded module wraps the pg and PGlite
//      drivers and attributes each statement to the HTTP request whose async context sent it
//      (tagged with an x-bench-id header), so background work is not counted. It is done for
//      feeds showing 0, 1, 5, 8 and 20 posts (category filters and cursors into the seeded data)
//      to show that the count does not grow with the number of posts shown, and for the sessions'
//      pages (library, its page 2, a search, the video page and the video's range request);
//   6. the 500 MB upload proof (bench/upload.js; BENCH_SKIP_UPLOAD=1 skips it): signed in as the
//      seeded admin, creates a session and sends it a 500 MB video in 5 MiB chunks, cut once and
//      resumed, sampling the server's memory; deletes the session and checks the disk is freed;
//   7. stops the server (SIGTERM, then SIGKILL), drops the database, removes the data folder.
// Prints one table per engine and writes everything to test-results/bench/latest.json.
// `--workers=1,2` (PostgreSQL only) does none of that: it seeds once, then serves a few pages
// through `npm start` with WEB_CONCURRENCY=1, then 2, and prints their figures side by side.
// The load generator runs on the same (2-core) machine as the server: figures are for
// comparing pages and versions on this machine, not a capacity estimate for production.
import { execFileSync, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { get, runLoad } from '../bench/load.js'
import {
  engineProblems,
  firstLoadProblems,
  median,
  medianSummary,
  peakRss,
  printSummaries,
  readBudgets,
  scaleProblems,
  summarize,
  withGuards,
} from '../bench/budgets.js'
import { newestProfile, printProfile, summarizeProfile } from '../bench/profile.js'
import { runSeed, signIn } from '../bench/seeded-session.js'
import { printUpload, readSingleFetch, uploadProof } from '../bench/upload.js'
import { ensureBuild, root } from './ensure-build.js'
import { DEFAULT_MEMORY_LIMIT_MB, memoryFlags } from './memory.js'

const args = new Set(process.argv.slice(2))
const argValue = (name) =>
  process.argv
    .slice(2)
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
const SECONDS = Math.min(60, Math.max(1, Number(argValue('seconds') ?? process.env.BENCH_SECONDS ?? 10) || 10))
// Issue 38: one connection gives each page's median latency (compared across scales), 10 its p99
// and 50 its throughput against /healthz (the guards in bench/budgets.json).
const CONCURRENCY = (argValue('concurrency') ?? '1,10,50')
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= 200)
/** `--scale=10`: ten times the seeded community (bench/seed.js); 100 on PostgreSQL only. */
const SCALE = Number(argValue('scale') ?? 1)
if (![1, 10, 100].includes(SCALE)) throw new Error(`--scale is 1, 10 or 100, not ${argValue('scale')}`)
/**
 * `--workers=1,2`: the same pages served by that many processes under `npm start`'s supervisor
 * (WEB_CONCURRENCY, decisions/0036) on PostgreSQL, side by side in one table; nothing else is run.
 */
const WORKERS = argValue('workers')
  ?.split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 1 && n <= 16)
if (argValue('workers') && !WORKERS?.length) throw new Error(`--workers is a list of process counts (1 to 16), not ${argValue('workers')}`)
/** `--take-guards` or `--take-guards=3`: that many runs at ×1 per engine, whose medians become the guards. */
const TAKE_GUARDS = process.argv.includes('--take-guards') ? 3 : Number(argValue('take-guards') ?? 0)
/**
 * `--pages=/mensajes,/admin/codigos`: load only these pages (and /healthz, every ratio's baseline), by
 * their names in the table; with --take-guards only their guards are re-taken, the others are kept.
 */
const PAGES = argValue('pages')
  ?.split(',')
  .map((name) => name.trim())
  .filter(Boolean)
const WARMUP_SECONDS = 2
const MAX_REQUESTS = 100_000
// BENCH_PORT: another port, when another checkout's bench runs on the same machine.
const PORT = Number(process.env.BENCH_PORT ?? 3410)
const COUNTER_PORT = PORT + 1
const HOST = '127.0.0.1'
const BASE_URL = `http://${HOST}:${PORT}`
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const START_TIMEOUT_MS = 180_000
const RESULTS_FILE = path.join(root, 'test-results/bench/latest.json')
const VERBOSE = args.has('--verbose')
// --profile: the server runs under `node --cpu-prof` and only /comunidad is loaded (50 connections);
// the bench prints where the server's CPU time went (bench/profile.js) and keeps the profile.
// `--profile` or `--profile=/legal`: the page loaded under the profiler (default /comunidad).
const PROFILE_PATH = process.argv.includes('--profile') ? '/comunidad' : argValue('profile')
const PROFILE = Boolean(PROFILE_PATH)
const PROFILE_DIR = path.join(root, 'test-results/bench/profiles')
// The 500 MB upload writes 1 GB to the data folder's disk (the upload, then processing's copy).
const SKIP_UPLOAD = process.env.BENCH_SKIP_UPLOAD === '1' || PROFILE
// The server runs within the memory ceiling `npm start` gives it (MEMORY_LIMIT_MB, default 512);
// --memory=0 runs it without one, for comparison.
const MEMORY_LIMIT = argValue('memory') ?? process.env.MEMORY_LIMIT_MB ?? ''
const MEMORY_FLAGS = memoryFlags({ MEMORY_LIMIT_MB: MEMORY_LIMIT }, [])

const FEED_DATA = '/comunidad.data?_routes=features%2Ffeed%2Ffeed.route'
const TARGETS = [
  { name: 'baseline /healthz', path: '/healthz', expect: (body) => body.includes('"ok"') },
  { name: 'baseline /legal', path: '/legal', expect: (body) => body.includes('Aviso Legal') },
  { name: '/comunidad', path: '/comunidad', expect: (body) => postsShown(body) === 10 },
  { name: '/comunidad.data', path: FEED_DATA, expect: (body) => body.includes('"next"') && body.includes('Reflexiones sobre') },
  // One topic of the seed: about a tenth of the posts and comments match, counted and ranked.
  { name: '/buscar?q=…', path: '/buscar?q=evaluacion%20tecnologias', expect: (body) => body.includes('aria-label="Resultados"') },
]
/** The feed's next page as 'Cargar más' fetches it (app/features/feed/page.route.ts). */
const nextPosts = (cursor) => `/comunidad/publicaciones.data?${new URLSearchParams({ cursor, _routes: 'features/feed/page.route' })}`
const VIDEO_ROUTE = 'features/ceo-sessions/video.route'
/** Cards of the sessions library page (library.server.ts LIBRARY_PAGE_SIZE), and 'Continuar viendo'. */
const LIBRARY_PAGE = 12
const CONTINUE_WATCHING = 4

/** The pages of the CEO sessions, which need the seeded ids and the video's signed address. */
function sessionTargets(sessions, videoSrc) {
  return [
    {
      name: '/comunidad/sesiones',
      path: '/comunidad/sesiones',
      expect: (body) => sessionsShown(body) === LIBRARY_PAGE + CONTINUE_WATCHING && body.includes('Continuar viendo'),
    },
    {
      name: '/comunidad/sesiones?buscar',
      path: sessionSearchPath(sessions),
      expect: (body) => sessionsShown(body) === Math.min(LIBRARY_PAGE, sessions.searchMatches) && body.includes('Resultados para'),
    },
    {
      name: '/video/:id',
      path: `/video/${sessions.withVideo}`,
      expect: (body) => body.includes('<video') && body.includes('video_1.webm'),
    },
    {
      name: 'video Range 0-65535',
      path: videoSrc,
      headers: { Range: 'bytes=0-65535' },
      status: 206,
      binary: true,
      expect: (body, response) => /^bytes 0-\d+\/\d+$/.test(response.headers['content-range'] ?? '') && body.length > 0,
    },
  ]
}

/** The calendar's pages (issue 13: measured with 200 events). */
function eventTargets(events) {
  return [
    {
      name: '/comunidad/calendario',
      path: '/comunidad/calendario',
      expect: (body) => body.includes('Calendario de eventos') && body.includes('Pasados'),
    },
    {
      name: '/comunidad/calendario?vista=calendario',
      path: '/comunidad/calendario?vista=calendario',
      expect: (body) => body.includes('role="grid"') && (body.match(/ evento(s)?"/g) ?? []).length > 0,
    },
    {
      name: '/comunidad/calendario/:id',
      path: `/comunidad/calendario/${events.busiest}`,
      expect: (body) => body.includes('Asistentes confirmados'),
    },
  ]
}

const BENCH_AUTH_SECRET = 'bench-auth-secret-0123456789abcdef0123456789'

/** An e-mail's unsubscribe link for the seeded viewer (app/features/notifications/unsubscribe.server.ts). */
function unsubscribePath(userId, lists) {
  const expires = Math.floor(Date.now() / 1000) + 24 * 60 * 60
  const payload = Buffer.from(JSON.stringify([userId, lists, expires])).toString('base64url')
  const signature = createHmac('sha256', BENCH_AUTH_SECRET)
    .update(JSON.stringify(['unsubscribe', userId, lists, expires]))
    .digest('base64url')
  return `/correo/baja/${payload}.${signature}`
}

let unsubscribeLink

/** Issue 14's pages: the profile with the notification preferences, and an unsubscribe link (no session needed). */
function notificationTargets() {
  return [
    { name: '/perfil', path: '/perfil', expect: (body) => body.includes('Guardar preferencias') },
    { name: '/notificaciones', path: '/notificaciones', expect: (body) => body.includes('Notificaciones</h1>') && body.includes('Todas') },
    {
      name: '/correo/baja/:token',
      // One link for the whole invocation: the load and the statement count find the page by its path.
      path: (unsubscribeLink ??= unsubscribePath('bench-u1', 'comments,replies')),
      expect: (body) => body.includes('Dejar de recibir emails') && body.includes('Respuestas a mis comentarios'),
    },
  ]
}

/** A count as the pages write it: '5000' or '5.000' (Spanish groups from five digits), '50.000'. */
const countPattern = (n, words) => new RegExp(`${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\\.?')} ${words}`)

/**
 * Issue 25's console pages, loaded as the seeded admin: the dashboard and the members table; issue 26's
 * admission form (a visitor), queue and an application; the console's log, jobs and settings; the
 * members' directory (issue 38: every page added since the budgets were set).
 */
/** Private messages (issue 41): the viewer's list (40 conversations, 5 unread) and a conversation of 30 messages. */
function messageTargets(seeded) {
  return [
    {
      name: '/mensajes',
      path: '/mensajes',
      expect: (body) => body.includes('Mensajes') && body.includes(`/mensajes/${seeded.conversation}`),
    },
    {
      name: '/mensajes/:id',
      path: `/mensajes/${seeded.conversation}`,
      expect: (body) => body.includes('Escribe un mensaje') && body.includes('Mensaje 30'),
    },
    { name: '/admin/codigos', path: '/admin/codigos', asAdmin: true, expect: (body) => body.includes('Códigos promocionales') },
  ]
}

function consoleTargets(seeded) {
  return [
    {
      name: '/comunidad/miembros',
      path: '/comunidad/miembros',
      expect: (body) => body.includes('/usuario/bench-'),
    },
    {
      name: '/admin/admisiones/:id',
      path: `/admin/admisiones/${seeded.application}`,
      asAdmin: true,
      expect: (body) => body.includes('application-title') && body.includes('linkedin.com/in/candidata-'),
    },
    { name: '/admin/registro', path: '/admin/registro', asAdmin: true, expect: (body) => body.includes('Registro de acciones') },
    { name: '/admin/trabajos', path: '/admin/trabajos', asAdmin: true, expect: (body) => body.includes('En cola y en curso') },
    { name: '/admin/ajustes', path: '/admin/ajustes', asAdmin: true, expect: (body) => body.includes('name="intent"') },
    {
      name: '/admision',
      path: '/admision',
      anonymous: true,
      expect: (body) => body.includes('Solicitar admisión') && body.includes('Perfil de LinkedIn'),
    },
    {
      name: '/admin/admisiones',
      path: '/admin/admisiones',
      asAdmin: true,
      expect: (body) =>
        body.includes('Solicitudes de admisión') && countPattern(seeded.counts.admission_applications, 'solicitudes').test(body),
    },
    {
      name: '/admin/moderacion',
      path: '/admin/moderacion',
      asAdmin: true,
      expect: (body) => body.includes('Moderación') && body.includes('3 informes'),
    },
    {
      name: '/admin',
      path: '/admin',
      asAdmin: true,
      expect: (body) => body.includes('Ingresos mensuales (MRR)') && body.includes('Miembros activos'),
    },
    {
      name: '/admin/miembros',
      path: '/admin/miembros',
      asAdmin: true,
      expect: (body) => body.includes('Exportar CSV') && body.includes('/usuario/bench-'),
    },
  ]
}

const readReference = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null)

const sessionSearchPath = (sessions) => `/comunidad/sesiones?${new URLSearchParams({ buscar: sessions.search })}`

process.chdir(root)

/** Server-rendered posts in a /comunidad document. */
function postsShown(html) {
  return (html.match(/<article id="post-/g) ?? []).length
}

/** Session cards in a /comunidad/sesiones document (each card links to its video page). */
function sessionsShown(html) {
  return (html.match(/href="\/video\//g) ?? []).length
}

// --- cleanup, also on errors and Ctrl-C -----------------------------------------------------------
const cleanups = []
async function runCleanups() {
  while (cleanups.length) {
    try {
      await cleanups.pop()()
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : error}`)
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`)
    void runCleanups().finally(() => process.exit(130))
  })
}

// --- helpers ----------------------------------------------------------------------------------
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Stops a server child: SIGTERM (its graceful stop), then SIGKILL after `graceMs`. */
function stopper(child, signal, graceMs) {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    signal('SIGTERM')
    const timer = setTimeout(() => signal('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port })
    socket.once('connect', () => (socket.destroy(), resolve(false)))
    socket.once('error', () => resolve(true))
  })
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.end()
    return true
  } catch {
    return false
  }
}

async function onPostgres(statement) {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 })
  await client.connect()
  try {
    return await client.query(statement)
  } finally {
    await client.end()
  }
}

function serverEnv(dataDir, databaseUrl, port = PORT) {
  const env = {
    ...process.env,
    PORT: String(port),
    APP_URL: `http://${HOST}:${port}`,
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
  }
  // Nothing of the caller's configuration may send mail, payments or data elsewhere.
  for (const key of [
    'DATABASE_URL',
    'SMTP_URL',
    'S3_BUCKET',
    // The embedded video provider is what is measured (and nothing is uploaded to Mux).
    'MUX_TOKEN_ID',
    'STRIPE_SECRET_KEY',
    'ADMIN_EMAILS',
    'TRUST_PROXY',
    'AUTH_SECRET',
    'NODE_OPTIONS',
  ])
    delete env[key]
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  // The ceiling the server is told about is the one its flags give it.
  env.MEMORY_LIMIT_MB = MEMORY_LIMIT || String(DEFAULT_MEMORY_LIMIT_MB)
  // Known to the bench, so it can sign an unsubscribe link as the app does.
  env.AUTH_SECRET = BENCH_AUTH_SECRET
  // The seeded admin signs in with a password alone (its console pages are measured).
  env.ADMIN_TWO_FACTOR = 'optional'
  return env
}

/** The server on `port`, its query counter on the next port. */
async function startServer(env, logFile, port = PORT) {
  const log = openSync(logFile, 'a')
  const profiling = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []
  const child = spawn(
    process.execPath,
    [...profiling, ...MEMORY_FLAGS, '--expose-gc', '--import', pathToFileURL(path.join(root, 'bench/count-queries.js')).href, 'server.js'],
    {
      cwd: root,
      env: { ...env, BENCH_COUNTER_PORT: String(port + 1) },
      stdio: ['ignore', log, log],
    },
  )
  const stop = stopper(child, (signal) => child.kill(signal), 12_000)
  cleanups.push(stop)
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with code ${child.exitCode}; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`)
    try {
      const response = await get(`http://${HOST}:${port}/healthz`, { timeoutMs: 2000 })
      if (response.status === 200) return { child, stop }
    } catch {
      // not listening yet
    }
    await sleep(300)
  }
  throw new Error(`the server did not answer http://${HOST}:${port}/healthz within ${START_TIMEOUT_MS / 1000} s`)
}

/** CPU time (user + system, seconds), resident memory and its peak (MiB) of a process, from /proc. */
function processUsage(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
    // VmHWM: the most the process has ever held in memory (its peak RSS).
    return { cpuSeconds: ticks / 100, rssMiB: Math.round(kib('VmRSS') / 1024), peakRssMiB: Math.round(kib('VmHWM') / 1024) }
  } catch {
    return null
  }
}

let requestSerial = 0
/** Sends one tagged request and reads how many SQL statements the server sent for it. */
async function countStatements(pagePath, cookie, headers = {}) {
  const id = `bench-${process.pid}-${++requestSerial}`
  const response = await get(`${BASE_URL}${pagePath}`, { headers: { ...headers, Cookie: cookie, 'x-bench-id': id } })
  await sleep(50)
  const counted = await statementsOf(id)
  if (!counted) throw new Error(`no query count for ${pagePath}`)
  return { status: response.status, ...counted, body: response.body.toString('utf8') }
}

/** What the query counter recorded for the request tagged `x-bench-id: id`, or null. */
async function statementsOf(id) {
  const counter = await get(`http://${HOST}:${COUNTER_PORT}/?id=${id}`)
  if (counter.status !== 200) return null
  const { count, sqlMs, statements } = JSON.parse(counter.body.toString('utf8'))
  return { count, sqlMs, statements }
}

/** The server's memory by kind (MiB), from the preloaded counter (bench/count-queries.js). */
async function serverMemory(query = '') {
  const response = await get(`http://${HOST}:${COUNTER_PORT}/memory${query}`)
  return JSON.parse(response.body.toString('utf8'))
}

function printMemory({ afterLoad, afterCollection }, peak) {
  const line = (memory) =>
    `RSS ${memory.rss}, JS heap ${memory.heapUsed} used of ${memory.heapTotal} (old space ${memory.spaces.old_space}, ` +
    `young ${memory.spaces.new_space}, code ${memory.spaces.code_space}), outside the heap ${memory.external} (array buffers ${memory.arrayBuffers})`
  console.log(
    `\nServer memory (MiB), flags ${MEMORY_FLAGS.join(' ') || 'none (V8 sizes its heap from the machine)'}; peak RSS of the run ${peak}:`,
  )
  console.log(`  after the load:        ${line(afterLoad)}`)
  console.log(`  after a full GC:       ${line(afterCollection)}`)
}

/** The signed address the video page gives its player, read from the page's data as the browser reads it. */
async function videoSource(base, sessionId, cookie) {
  const response = await fetch(`${base}/video/${sessionId}.data?_routes=${encodeURIComponent(VIDEO_ROUTE)}`, {
    headers: { Cookie: cookie },
  })
  const src = (await readSingleFetch(response))?.[VIDEO_ROUTE]?.data?.player?.src
  if (response.status !== 200 || !src?.startsWith('/uploads/sessions/')) {
    throw new Error(`the video page's data (HTTP ${response.status}) has no playable address`)
  }
  return src
}

// --- one engine ---------------------------------------------------------------------------------
/** A fresh data folder and, on PostgreSQL, a fresh database (both removed by the cleanups); the server's environment. */
async function freshStore(engine, port = PORT) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-data-'))
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
  const logFile = path.join(dataDir, 'server.log')
  let databaseUrl
  if (engine === 'postgres') {
    const name = `bench_${Date.now()}`
    await onPostgres(`create database ${name}`)
    cleanups.push(async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await onPostgres(`drop database if exists ${name}`)
          return
        } catch (error) {
          if (attempt >= 30) throw error
          await sleep(200)
        }
      }
    })
    const url = new URL(POSTGRES_URL)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
  }
  return { dataDir, logFile, env: serverEnv(dataDir, databaseUrl, port) }
}

/** The seeded viewer's and admin's sessions on the server at `base`, and the pages measured there. */
async function signedInPages(base, seeded) {
  const cookie = await signIn(base, seeded.viewer.email, seeded.viewer.password)
  const adminCookie = await signIn(base, seeded.admin.email, seeded.admin.password)
  const cookieOf = (target) => (target.anonymous ? undefined : target.asAdmin ? adminCookie : cookie)
  // Signed links expire within the hour (and a quarter): the bench is over long before.
  const videoSrc = await videoSource(base, seeded.sessions.withVideo, cookie)
  const targets = [
    ...TARGETS,
    {
      name: '/comunidad/publicaciones.data',
      path: nextPosts(seeded.cursors.page2),
      expect: (body) => body.includes('"next"') && body.includes('Reflexiones sobre'),
    },
    ...sessionTargets(seeded.sessions, videoSrc),
    ...eventTargets(seeded.events),
    ...notificationTargets(),
    ...consoleTargets(seeded),
    ...messageTargets(seeded),
  ]
  return { base, cookie, adminCookie, cookieOf, videoSrc, targets }
}

const PAIRED_PORT = PORT + 2
const PAIRED_TURNS = 5

/**
 * Two runs minutes apart differ by what the machine did meanwhile as much as by the data: the same
 * code has measured 1.5× at one time and 1.0× at the next. So a page over the line is measured
 * again beside a ×1 server seeded now: each server in turn, one connection, PAIRED_TURNS times,
 * and the median of each side's p50s compared. What the machine does falls on both sides alike;
 * what the larger data set costs remains.
 */
async function pairedCheck(engine, scaled, names) {
  console.log(`\nOver 1.5× the ×1 run: ${names.join(', ')}. Measured again beside a ×1 server, in turns:`)
  const { logFile, env } = await freshStore(engine, PAIRED_PORT)
  const seeded = await runSeed({ ...env, BENCH_SCALE: '1' }, logFile, (child) =>
    cleanups.push(async () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')),
  )
  const server = await startServer(env, logFile, PAIRED_PORT)
  const sides = [await signedInPages(`http://${HOST}:${PAIRED_PORT}`, seeded), scaled]
  const figures = {}
  for (const name of names) {
    const loads = sides.map((side) => {
      const target = side.targets.find((candidate) => candidate.name === name)
      const headers = { ...target.headers, Cookie: side.cookieOf(target), 'Accept-Encoding': 'gzip' }
      return (concurrency, seconds) =>
        runLoad({ url: `${side.base}${target.path}`, headers, concurrency, durationMs: seconds * 1000, maxRequests: MAX_REQUESTS })
    })
    for (const load of loads) await load(10, WARMUP_SECONDS)
    const p50s = [[], []]
    for (let turn = 0; turn < PAIRED_TURNS; turn++)
      for (const [index, load] of loads.entries()) p50s[index].push((await load(1, SECONDS)).p50Ms)
    const [p50At1, p50AtScale] = p50s.map(median)
    figures[name] = { p50At1, p50AtScale, turns: p50s }
    console.log(`  ${name.padEnd(38)} p50 ${p50At1} ms at ×1, ${p50AtScale} ms here (${(p50AtScale / p50At1).toFixed(2)}×)`)
  }
  await server.stop()
  return figures
}

async function benchEngine(engine, scale, reference = null) {
  const label = engine === 'postgres' ? 'PostgreSQL (127.0.0.1:5432)' : 'PGlite (embedded, single process)'
  console.log(`\n=== ${label}, ×${scale} ===`)
  const { dataDir, logFile, env } = await freshStore(engine)
  const phases = {}
  let phaseStart = performance.now()
  const endPhase = (name) => {
    phases[name] = Math.round((performance.now() - phaseStart) / 100) / 10
    phaseStart = performance.now()
  }
  const [load1] = os.loadavg()
  if (load1 > os.cpus().length / 2) {
    console.log(
      `Note: the machine is busy (load average ${load1.toFixed(1)} on ${os.cpus().length} cores) with other processes: ` +
        'the figures below are lower and noisier than on an idle machine.',
    )
  }

  process.stdout.write('Seeding… ')
  const seeded = await runSeed({ ...env, BENCH_SCALE: String(scale) }, logFile, (child) =>
    cleanups.push(async () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')),
  )
  const c = seeded.counts
  console.log(
    `${c.user} members, ${c.community_posts} posts, ${c.community_comments} comments, ${c.post_likes} post likes, ` +
      `${c.comment_likes} comment likes, ${c.post_attachments} attachments, ${c.ceo_sessions} CEO sessions ` +
      `(${c.ceo_session_likes} likes, ${c.ceo_session_comments} comments), ${c.events} events (${c.event_attendees} registrations) (migrations ${seeded.migrateSeconds} s, data ${seeded.seedSeconds} s)`,
  )
  if (seeded.sessions.publishedCounter !== c.ceo_sessions) {
    throw new Error(`the published_sessions counter says ${seeded.sessions.publishedCounter} for ${c.ceo_sessions} published sessions`)
  }

  endPhase('seed')
  process.stdout.write('Starting the server… ')
  const startedAt = performance.now()
  const server = await startServer(env, logFile)
  console.log(`ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (pid ${server.child.pid})`)
  const measured = await signedInPages(BASE_URL, seeded)
  const { adminCookie, cookieOf, videoSrc, targets } = measured
  endPhase('start')

  for (const target of targets) {
    const response = await get(`${BASE_URL}${target.path}`, { headers: { ...target.headers, Cookie: cookieOf(target) } })
    const body = target.binary ? response.body : response.body.toString('utf8')
    if (response.status !== (target.status ?? 200) || !target.expect(body, response)) {
      throw new Error(`${target.path} answered ${response.status} without the expected content:\n${body.slice(0, 500)}`)
    }
    if (target.binary) continue
    // Kept for looking into what a page sends (test-results/bench/pages/).
    mkdirSync(path.join(path.dirname(RESULTS_FILE), 'pages'), { recursive: true })
    writeFileSync(path.join(path.dirname(RESULTS_FILE), 'pages', `${engine}-${target.name.replace(/\W+/g, '_')}.html`), body)
  }

  const scenarios = []
  const loaded = PROFILE
    ? targets.filter((target) => target.path === PROFILE_PATH)
    : targets.filter((target) => !PAGES || target.path === '/healthz' || PAGES.includes(target.name))
  if (PAGES) {
    const unknown = PAGES.filter((name) => !targets.some((target) => target.name === name))
    if (unknown.length) throw new Error(`--pages: no page named ${unknown.join(', ')} (names as in the table)`)
  }
  for (const target of loaded) {
    const headers = { ...target.headers, Cookie: cookieOf(target), 'Accept-Encoding': 'gzip' }
    await runLoad({ url: `${BASE_URL}${target.path}`, headers, concurrency: 10, durationMs: WARMUP_SECONDS * 1000, maxRequests: 5000 })
    for (const concurrency of PROFILE ? [50] : CONCURRENCY) {
      const before = processUsage(server.child.pid)
      const clientBefore = process.cpuUsage()
      const result = await runLoad({
        url: `${BASE_URL}${target.path}`,
        headers,
        concurrency,
        durationMs: SECONDS * 1000,
        maxRequests: MAX_REQUESTS,
      })
      const clientCpu = process.cpuUsage(clientBefore)
      const after = processUsage(server.child.pid)
      const serverCpuPercent = before && after ? Math.round(((after.cpuSeconds - before.cpuSeconds) / result.seconds) * 100) : null
      const generatorCpuPercent = Math.round(((clientCpu.user + clientCpu.system) / 1e6 / result.seconds) * 100)
      const scenario = {
        name: target.name,
        path: target.path,
        ...result,
        serverCpuPercent,
        generatorCpuPercent,
        loadAverage1m: Math.round(os.loadavg()[0] * 10) / 10,
        serverRssMiB: after?.rssMiB ?? null,
        serverPeakRssMiB: after?.peakRssMiB ?? null,
      }
      // Each page against /healthz at the same concurrency, in the same run (the budgets are ratios).
      const baseline = scenarios.find((other) => other.path === '/healthz' && other.concurrency === concurrency)
      scenario.ratioToHealthz = baseline ? Math.round((scenario.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000 : null
      scenarios.push(scenario)
      printScenario(scenario)
      await sleep(300)
    }
  }

  endPhase('load')
  // A page slower than 1.5 × its ×1 run is measured again beside a ×1 server, in turns (ADR 0027).
  const slow = reference
    ? scenarios.filter(
        (scenario) => scenario.concurrency === 1 && scenario.p50Ms > 1.5 * (reference.pages[scenario.name]?.p50At1 ?? Infinity),
      )
    : []
  const paired = slow.length
    ? await pairedCheck(
        engine,
        measured,
        slow.map((scenario) => scenario.name),
      )
    : null
  if (paired) endPhase('paired')
  // Statements per request, after the load (see the header).
  const byName = new Map(seeded.categories.map((category) => [category.name, category]))
  const feedPath = (params) => `/comunidad?${new URLSearchParams(params)}`
  const checks = [
    { name: '/healthz', path: '/healthz' },
    { name: '/legal', path: '/legal' },
    { name: '/comunidad.data (feed loader only)', path: FEED_DATA, shown: 10 },
    { name: '/comunidad.data (all loaders)', path: '/comunidad.data', shown: 10 },
    { name: '/comunidad/publicaciones.data “Cargar más”, page 2', path: nextPosts(seeded.cursors.page2), shown: 10 },
    {
      name: '/comunidad/publicaciones.data “Cargar más”, page 250',
      path: nextPosts(seeded.cursors.page250),
      shown: 10,
    },
    { name: '/comunidad, category with no post', path: feedPath({ categoria: byName.get('Oportunidades').id }), document: true },
    { name: '/comunidad, category with 1 post', path: feedPath({ categoria: byName.get('Médico').id }), document: true },
    { name: '/comunidad, last page (cursor)', path: feedPath({ cursor: seeded.cursors.last }), document: true },
    { name: '/comunidad, category with 8 posts', path: feedPath({ categoria: byName.get('Acceso al mercado').id }), document: true },
    { name: '/comunidad, first page', path: '/comunidad', document: true },
    { name: '/comunidad, page 2 (cursor)', path: feedPath({ cursor: seeded.cursors.page2 }), document: true },
    { name: '/comunidad, page 250 (cursor)', path: feedPath({ cursor: seeded.cursors.page250 }), document: true },
    { name: '/buscar?q=evaluacion tecnologias', path: '/buscar?q=evaluacion%20tecnologias' },
    { name: '/comunidad/sesiones, first page', path: '/comunidad/sesiones', sessions: true },
    {
      name: '/comunidad/sesiones, page 2 (cursor)',
      path: `/comunidad/sesiones?${new URLSearchParams({ cursor: seeded.sessions.libraryPage2 })}`,
      sessions: true,
    },
    { name: `/comunidad/sesiones?buscar=${seeded.sessions.search}`, path: sessionSearchPath(seeded.sessions), sessions: true },
    { name: '/video/:id (counts a view: 1 UPDATE)', path: `/video/${seeded.sessions.withVideo}` },
    {
      name: '/video/:id.data (video loader only)',
      path: `/video/${seeded.sessions.withVideo}.data?_routes=${encodeURIComponent(VIDEO_ROUTE)}`,
    },
    { name: 'video, Range 0-65535 (206)', path: videoSrc, headers: { Range: 'bytes=0-65535' }, status: 206 },
    { name: '/comunidad/calendario (list)', path: '/comunidad/calendario' },
    { name: '/comunidad/calendario, month', path: '/comunidad/calendario?vista=calendario' },
    { name: '/comunidad/calendario/:id', path: `/comunidad/calendario/${seeded.events.busiest}` },
    ...notificationTargets().map(({ name, path }) => ({ name, path })),
    ...consoleTargets(seeded).map(({ name, path, asAdmin, anonymous }) => ({ name, path, asAdmin, anonymous })),
    ...messageTargets(seeded).map(({ name, path, asAdmin }) => ({ name, path, asAdmin })),
  ]
  const queries = []
  for (const check of checks) {
    const first = await countStatements(check.path, cookieOf(check), check.headers)
    const second = await countStatements(check.path, cookieOf(check), check.headers)
    const status = check.status ?? 200
    if (first.status !== status || second.status !== status)
      throw new Error(`${check.path} answered ${second.status} while counting queries`)
    // The median of five (the second request and four more): its statements, and the time it waited on
    // the database. A process's settings are read again once a minute (platform/settings), by whichever
    // request comes then: one request of five, not the page's count.
    const runs = [second]
    for (let run = 0; run < 4; run++) runs.push(await countStatements(check.path, cookieOf(check), check.headers))
    const typical = runs.toSorted((a, b) => a.count - b.count)[2]
    queries.push({
      name: check.name,
      path: check.path,
      postsShown: check.document ? postsShown(second.body) : (check.shown ?? null),
      ...(check.sessions ? { sessionsShown: sessionsShown(second.body) } : {}),
      statements: typical.count,
      sqlMs: runs.map((run) => run.sqlMs).sort((a, b) => a - b)[2],
      firstRequestStatements: first.count,
      statementTexts: typical.statements,
    })
  }
  printQueries(queries)
  endPhase('queryCount')

  let upload = null
  if (!SKIP_UPLOAD) {
    upload = await uploadProof({
      baseUrl: BASE_URL,
      cookie: adminCookie,
      serverPid: server.child.pid,
      dataDir,
      usage: processUsage,
      statementsOf,
    })
    printUpload(upload)
    endPhase('upload')
  }

  const usage = processUsage(server.child.pid)
  const memory = { afterLoad: await serverMemory(), afterCollection: await serverMemory('?gc') }
  printMemory(memory, peakRss({ serverPeakRssMiB: usage?.peakRssMiB, scenarios, upload }))
  const profileStart = Date.now()
  await server.stop()
  const profile = PROFILE ? summarizeProfile(newestProfile(PROFILE_DIR, profileStart - 600_000)) : null
  if (profile) printProfile(profile)
  const serverLog = readFileSync(logFile, 'utf8')
  endPhase('stop')
  console.log(
    `Phases (s): ${Object.entries(phases)
      .map(([name, seconds]) => `${name} ${seconds}`)
      .join(', ')}`,
  )
  // Repeated lines once, with their count: one error per request would hide every other line.
  const repeats = new Map()
  for (const line of serverLog.split('\n')) {
    if (/"level":(40|50|60)|error/i.test(line)) repeats.set(line, (repeats.get(line) ?? 0) + 1)
  }
  const logProblems = [...repeats]
    .slice(0, 20)
    .map(([line, count]) => (count > 1 ? `${line.slice(0, 300)}  (×${count})` : line.slice(0, 300)))
  if (logProblems.length) {
    console.log(`\nServer log warnings/errors (${logProblems.length} distinct shown):`)
    for (const line of logProblems) console.log(`  ${line}`)
  }
  return {
    engine,
    scale,
    label,
    seeded: {
      counts: c,
      categories: seeded.categories,
      sessions: seeded.sessions,
      migrateSeconds: seeded.migrateSeconds,
      seedSeconds: seeded.seedSeconds,
    },
    phases,
    scenarios,
    queries,
    upload,
    memoryFlags: MEMORY_FLAGS,
    memory,
    serverRssMiBAtEnd: usage?.rssMiB ?? null,
    serverPeakRssMiB: usage?.peakRssMiB ?? null,
    serverLogProblems: logProblems,
    profile,
    paired,
  }
}

// --- printing ---------------------------------------------------------------------------------------
const COLUMNS = [
  ['scenario', 26, 'name'],
  ['conc', 5, 'concurrency'],
  ['requests', 9, 'requests'],
  ['req/s', 8, 'requestsPerSecond'],
  ['p50 ms', 8, 'p50Ms'],
  ['p99 ms', 8, 'p99Ms'],
  ['×healthz', 9, 'ratioToHealthz'],
  ['errors', 7, 'errors'],
  ['avg KB', 7, 'avgBytes'],
  ['srv CPU', 8, 'serverCpuPercent'],
  ['gen CPU', 8, 'generatorCpuPercent'],
  ['load', 5, 'loadAverage1m'],
  ['peak MiB', 9, 'serverPeakRssMiB'],
]
let headerPrinted = false
function printScenario(scenario) {
  if (!headerPrinted) {
    console.log(COLUMNS.map(([title, width], index) => (index === 0 ? title.padEnd(width) : title.padStart(width))).join(' '))
    headerPrinted = true
  }
  const cell = (key) => {
    const value = scenario[key]
    if (key === 'avgBytes') return (value / 1024).toFixed(1)
    if (key === 'serverCpuPercent' || key === 'generatorCpuPercent') return value === null ? '-' : `${value}%`
    return String(value ?? '-')
  }
  console.log(COLUMNS.map(([, width, key], index) => (index === 0 ? cell(key).padEnd(width) : cell(key).padStart(width))).join(' '))
  if (scenario.errors) console.log(`  first error: ${scenario.firstError} (statuses ${JSON.stringify(scenario.statuses)})`)
}

function printQueries(queries) {
  console.log('\nSQL statements per request (counted in the server for one request; see bench/count-queries.js):')
  console.log(`${'page'.padEnd(44)} ${'shown'.padStart(11)} ${'statements'.padStart(10)} ${'SQL ms'.padStart(7)}`)
  for (const query of queries) {
    const unstable = query.firstRequestStatements !== query.statements ? `  (first request: ${query.firstRequestStatements})` : ''
    const shown = query.sessionsShown ?? query.postsShown ?? '-'
    console.log(
      `${query.name.padEnd(44)} ${String(shown).padStart(11)} ${String(query.statements).padStart(10)} ${String(query.sqlMs ?? '-').padStart(7)}${unstable}`,
    )
    if (VERBOSE) for (const text of query.statementTexts) console.log(`      ${text}`)
  }
  const feed = queries.filter((query) => query.name.startsWith('/comunidad,') && query.postsShown > 0)
  const counts = feed.map((query) => query.statements)
  const shown = feed.map((query) => query.postsShown)
  const flat = Math.max(...counts) === Math.min(...counts)
  console.log(
    `Feed pages showing ${Math.min(...shown)} to ${Math.max(...shown)} posts: ${[...new Set(counts)].join('/')} statements → ` +
      (flat ? 'constant, it does not grow with the posts shown.' : 'NOT constant: it changes with the posts shown.'),
  )
  const empty = queries.find((query) => query.postsShown === 0)
  if (empty) console.log(`(A feed with no post skips the attachments query: ${empty.statements} statements.)`)
  const library = queries.filter((query) => query.sessionsShown !== undefined)
  if (library.length) {
    const libraryCounts = [...new Set(library.map((query) => query.statements))]
    console.log(
      `Sessions library pages showing ${Math.min(...library.map((query) => query.sessionsShown))} to ` +
        `${Math.max(...library.map((query) => query.sessionsShown))} cards: ${libraryCounts.join('/')} statements ` +
        '(the first page adds the “Continuar viendo” query).',
    )
  }
}

// --- --workers: one page set, served by 1, 2… processes ------------------------------------------
/** The server processes under a supervisor. */
function childPids(pid) {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}

/** CPU seconds and memory (MiB) of the supervisor and its server processes together. */
function treeUsage(pid) {
  const usages = [pid, ...childPids(pid)].map(processUsage).filter(Boolean)
  const sum = (key) => usages.reduce((total, usage) => total + usage[key], 0)
  return { cpuSeconds: sum('cpuSeconds'), rssMiB: sum('rssMiB'), peakRssMiB: sum('peakRssMiB') }
}

/** `npm start` with `workers` processes, each with the memory ceiling one has alone; resolves once every one serves. */
async function startSupervised(env, logFile, workers) {
  const log = openSync(logFile, 'a')
  const limit = Number(MEMORY_LIMIT || DEFAULT_MEMORY_LIMIT_MB)
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.js')], {
    cwd: root,
    detached: true,
    env: { ...env, WEB_CONCURRENCY: String(workers), MEMORY_LIMIT_MB: String(limit * workers), LOG_LEVEL: 'warn' },
    stdio: ['ignore', log, log],
  })
  // The supervisor and its processes are one group: the signal goes to all of them.
  const stop = stopper(child, (signal) => process.kill(-child.pid, signal), 15_000)
  cleanups.push(stop)
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`npm start exited with code ${child.exitCode}; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`)
    const listening = (readFileSync(logFile, 'utf8').match(/Círculo CEO listening/g) ?? []).length
    const ready = await get(`${BASE_URL}/readyz`, { timeoutMs: 2000 }).catch(() => null)
    if (ready?.status === 200 && listening >= workers && childPids(child.pid).length === workers) return { child, stop }
    await sleep(300)
  }
  throw new Error(`npm start with ${workers} processes was not ready within ${START_TIMEOUT_MS / 1000} s`)
}

async function benchWorkers(engine) {
  console.log(`\n=== PostgreSQL (127.0.0.1:5432), ×${SCALE}: ${WORKERS.join(' vs ')} server processes under npm start ===`)
  const { logFile, env } = await freshStore(engine)
  process.stdout.write('Seeding… ')
  const seeded = await runSeed({ ...env, BENCH_SCALE: String(SCALE) }, logFile, (child) =>
    cleanups.push(async () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')),
  )
  console.log(`${seeded.counts.user} members, ${seeded.counts.community_posts} posts`)
  // One connection cannot use a second process: 10 and 50 unless asked otherwise.
  const concurrency = argValue('concurrency') ? CONCURRENCY : [10, 50]
  const runs = []
  for (const workers of WORKERS) {
    process.stdout.write(`Starting ${workers} process${workers > 1 ? 'es' : ''}… `)
    const server = await startSupervised(env, `${logFile}.${workers}`, workers)
    console.log('ready')
    const cookie = await signIn(BASE_URL, seeded.viewer.email, seeded.viewer.password)
    const rows = []
    for (const target of TARGETS) {
      const headers = { Cookie: cookie, 'Accept-Encoding': 'gzip' }
      const check = await get(`${BASE_URL}${target.path}`, { headers: { Cookie: cookie } })
      if (check.status !== 200 || !target.expect(check.body.toString('utf8')))
        throw new Error(`${target.path} answered ${check.status} without the expected content`)
      await runLoad({ url: `${BASE_URL}${target.path}`, headers, concurrency: 10, durationMs: WARMUP_SECONDS * 1000, maxRequests: 5000 })
      for (const connections of concurrency) {
        const before = treeUsage(server.child.pid)
        const result = await runLoad({
          url: `${BASE_URL}${target.path}`,
          headers,
          concurrency: connections,
          durationMs: SECONDS * 1000,
          maxRequests: MAX_REQUESTS,
        })
        const after = treeUsage(server.child.pid)
        rows.push({
          name: target.name,
          concurrency: connections,
          requestsPerSecond: result.requestsPerSecond,
          p50Ms: result.p50Ms,
          p99Ms: result.p99Ms,
          errors: result.errors,
          serverCpuPercent: Math.round(((after.cpuSeconds - before.cpuSeconds) / result.seconds) * 100),
          serverPeakRssMiB: after.peakRssMiB,
        })
        await sleep(300)
      }
    }
    await server.stop()
    runs.push({ workers, rows })
  }
  printWorkers(runs)
  return runs
}

/** One line per page and concurrency: req/s and p99 for each process count, and the last count's req/s over the first's. */
function printWorkers(runs) {
  const counts = runs.map((run) => run.workers)
  console.log(
    `\nServer processes ${counts.join(' vs ')} (req/s, p99 ms, server CPU incl. the supervisor; load generator on the same ${os.cpus().length} cores):`,
  )
  const head = [
    'page'.padEnd(26),
    'conc'.padStart(5),
    ...counts.flatMap((n) => [`req/s ×${n}`.padStart(11), `p99 ×${n}`.padStart(9), `CPU ×${n}`.padStart(8)]),
  ]
  if (counts.length > 1) head.push(`×${counts.at(-1)}/×${counts[0]}`.padStart(8))
  console.log(head.join(' '))
  for (const [index, row] of runs[0].rows.entries()) {
    const cells = runs.map((run) => run.rows[index])
    const line = [row.name.padEnd(26), String(row.concurrency).padStart(5)]
    for (const cell of cells)
      line.push(String(cell.requestsPerSecond).padStart(11), String(cell.p99Ms).padStart(9), `${cell.serverCpuPercent}%`.padStart(8))
    if (cells.length > 1) line.push((cells.at(-1).requestsPerSecond / cells[0].requestsPerSecond).toFixed(2).padStart(8))
    console.log(line.join(' '))
    const errors = cells.filter((cell) => cell.errors)
    if (errors.length) console.log(`  errors: ${cells.map((cell) => cell.errors).join(' / ')}`)
  }
}

if (WORKERS) {
  let exitCode = 0
  try {
    for (const port of [PORT, COUNTER_PORT]) {
      if (!(await portIsFree(port))) throw new Error(`port ${port} is in use on ${HOST}: stop what listens there first`)
    }
    if ((argValue('engine') ?? 'postgres') !== 'postgres' || args.has('--no-postgres'))
      throw new Error("--workers runs on PostgreSQL only: PGlite is one process's database")
    if (!(await postgresAnswers()))
      throw new Error(`--workers needs PostgreSQL at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}: PGlite is one process's database`)
    ensureBuild()
    const runs = await benchWorkers('postgres')
    mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const file = path.join(path.dirname(RESULTS_FILE), 'workers.json')
    writeFileSync(
      file,
      JSON.stringify(
        { date: new Date().toISOString(), commit, secondsPerScenario: SECONDS, scale: SCALE, cpus: os.cpus().length, runs },
        null,
        2,
      ),
    )
    console.log(`\nResults: ${path.relative(root, file)}`)
  } catch (error) {
    exitCode = 1
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.stack : error}`)
  } finally {
    await runCleanups()
  }
  process.exit(exitCode)
}

// --- main -----------------------------------------------------------------------------------------
const began = performance.now()
let exitCode = 0
try {
  for (const port of [PORT, COUNTER_PORT, PAIRED_PORT, PAIRED_PORT + 1]) {
    if (!(await portIsFree(port))) throw new Error(`port ${port} is in use on ${HOST}: stop what listens there first`)
  }
  ensureBuild()
  const only = argValue('engine')
  const engines = []
  if (!args.has('--postgres-only') && (only ?? 'pglite') === 'pglite') {
    // A million posts in the embedded engine would measure its single process, not the pages.
    if (SCALE === 100) console.log('×100 runs on PostgreSQL only.')
    else engines.push('pglite')
  }
  if (!args.has('--no-postgres') && (only ?? 'postgres') === 'postgres') {
    if (await postgresAnswers()) engines.push('postgres')
    else console.log(`No PostgreSQL answers at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}: PGlite only.`)
  }
  if (!engines.length) throw new Error('no engine to measure')
  console.log(
    `Benchmark on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; ` +
      `${SECONDS} s per scenario at ${CONCURRENCY.join(' and ')} connections (after ${WARMUP_SECONDS} s of warm-up per page), ` +
      'load generator on the same machine.',
  )
  const results = []
  const run = async (engine, scale, reference = null) => {
    headerPrinted = false
    const result = await benchEngine(engine, scale, reference)
    await runCleanups()
    result.summary = summarize(result)
    results.push(result)
    return result.summary
  }
  // Each engine's ×1 run is kept (test-results/bench/reference-<engine>.json): a later ×10 or ×100
  // is compared with it, or, when there is none, a ×1 run comes first in the same invocation.
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const referenceFile = (engine) => path.join(path.dirname(RESULTS_FILE), `reference-${engine}.json`)
  const keepReference = (summary) => {
    mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
    writeFileSync(referenceFile(summary.engine), JSON.stringify({ ...summary, date: new Date().toISOString(), commit }, null, 2))
    return summary
  }
  const summaries = []
  const scaleFindings = []
  let budgetsFile = readBudgets(path.join(root, 'bench/budgets.json'))
  for (const engine of engines) {
    if (TAKE_GUARDS) {
      const runs = []
      for (let i = 0; i < TAKE_GUARDS; i++) runs.push(await run(engine, 1))
      const median = medianSummary(runs)
      // A partial run is not a reference for the scales; its pages' guards are re-taken, the rest kept.
      const taken = PAGES ? median : keepReference(median)
      summaries.push(taken)
      const retaken = PAGES
        ? { ...taken, pages: Object.fromEntries(Object.entries(taken.pages).filter(([name]) => PAGES.includes(name))) }
        : taken
      budgetsFile = withGuards(budgetsFile, retaken, { takenAt: new Date().toISOString().slice(0, 10), commit })
      continue
    }
    let reference = SCALE === 1 ? null : readReference(referenceFile(engine))
    if (!reference) {
      const first = await run(engine, 1)
      reference = PAGES ? first : keepReference(first)
      summaries.push(reference)
    } else summaries.push({ ...reference, kept: true })
    if (SCALE === 1) continue
    const summary = await run(engine, SCALE, reference)
    summaries.push(summary)
    scaleFindings.push(...scaleProblems(summary, reference).map((problem) => `${engine}: ${problem}`))
  }
  if (TAKE_GUARDS) {
    const load = results.map((result) => Math.max(...result.scenarios.map((scenario) => scenario.loadAverage1m)))
    const note =
      `Guards: median of ${TAKE_GUARDS} runs per engine at ×1 for ${engines.join(' and ')} (${SECONDS} s per scenario), floor × 0.8, p99 × 1.2, ` +
      `commit ${commit}, ${new Date().toISOString().slice(0, 16)}Z; highest load average during the runs ${Math.max(...load)} ` +
      `on ${os.cpus().length} cores${Math.max(...load) > os.cpus().length / 2 ? ': the machine was busy, re-take them on an idle one' : ''}.`
    budgetsFile.guardsNote = PAGES ? `${budgetsFile.guardsNote} Re-taken for ${PAGES.join(', ')}: ${note}` : note
    writeFileSync(path.join(root, 'bench/budgets.json'), `${JSON.stringify(budgetsFile, null, 2)}\n`)
    console.log(`\nGuards taken from the median of ${TAKE_GUARDS} runs per engine, written to bench/budgets.json.`)
  }
  printSummaries(summaries)
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
  // The latest summary of each engine and scale, kept across invocations (×1, ×10 and ×100 are separate runs).
  const date = new Date().toISOString()
  const byRun = {
    ...readReference(RESULTS_FILE)?.byRun,
    ...Object.fromEntries(
      summaries.filter((summary) => !summary.kept).map((summary) => [`${summary.engine} ×${summary.scale}`, { date, commit, ...summary }]),
    ),
  }
  writeFileSync(
    RESULTS_FILE,
    JSON.stringify(
      {
        date,
        commit,
        scale: SCALE,
        byRun,
        machine: {
          cpus: os.cpus().length,
          model: os.cpus()[0]?.model,
          memoryGiB: Math.round(os.totalmem() / 2 ** 30),
          node: process.version,
        },
        settings: {
          secondsPerScenario: SECONDS,
          warmUpSeconds: WARMUP_SECONDS,
          concurrency: CONCURRENCY,
          maxRequestsPerScenario: MAX_REQUESTS,
          acceptEncoding: 'gzip',
        },
        results,
        totalSeconds: Math.round((performance.now() - began) / 1000),
      },
      null,
      2,
    ),
  )
  console.log(`\nDone in ${Math.round((performance.now() - began) / 1000)} s. Results: ${path.relative(root, RESULTS_FILE)}`)
  if (!PROFILE) {
    const budgets = budgetsFile
    const firstLoad = firstLoadProblems(budgets, path.join(root, 'build'))
    console.log('\nFirst-load JavaScript (KiB gzip) per page, against its budget:')
    for (const row of firstLoad.rows)
      console.log(`  ${String(row.kib).padStart(6)} ≤ ${String(row.budget ?? '?').padStart(4)}  ${row.route}`)
    const problems = [
      ...firstLoad.problems,
      // The guards are ×1 figures: a larger community is held to its own ×1 run instead; runs that
      // take the guards are not held to them (one run of three is below its median by nature).
      ...results
        .filter((result) => result.scale === 1 && !TAKE_GUARDS)
        .flatMap((result) => engineProblems(budgets, result).map((problem) => `${result.engine}: ${problem}`)),
      ...scaleFindings,
    ]
    if (problems.length) {
      exitCode = 1
      console.error(`\nOver budget (bench/budgets.json):\n  ${problems.join('\n  ')}`)
    } else console.log('\nEvery page is inside its budget (bench/budgets.json).')
  }
  // The upload proof checks the protocol as it measures: a broken answer fails the run, figures kept.
  const uploadProblems = results.flatMap((result) => (result.upload?.problems ?? []).map((problem) => `${result.engine}: ${problem}`))
  if (uploadProblems.length) {
    exitCode = 1
    console.error(`\nThe 500 MB upload did not go as the protocol says:\n  ${uploadProblems.join('\n  ')}`)
  }
} catch (error) {
  exitCode = 1
  console.error(`\nBenchmark failed: ${error instanceof Error ? error.stack : error}`)
} finally {
  await runCleanups()
}
process.exit(exitCode)
