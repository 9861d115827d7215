// `npm run soak`: 10,000 mixed requests at 20 connections against a seeded server on PostgreSQL,
// with event streams held open the whole time, and one line that says whether the server held:
//
//   soak: 10000 requests in 95 s (20 connections, 20 event streams) · 5xx 0 · writes acknowledged
//   1412 = rows found 1412 · RSS 212 → 219 MiB after GC (+3.3 %) · passed
//
// 1. a fresh database soak_<time> on the PostgreSQL server (BENCH_POSTGRES_URL, else
//    127.0.0.1:5432), seeded by bench/seed.js (1,000 members, 10,000 posts, sessions, events);
// 2. the production server (server.js) started on it with --expose-gc and a preload that collects
//    garbage when asked over IPC (bench/gc-on-message.js), so memory is read after a GC;
// 3. 100 premium members signed in by sessions written straight to the database (the sign-in
//    form's own rate limit is not what is soaked), 20 of them holding /notificaciones/stream open;
// 4. 20 keep-alive connections send, until 10,000 answers: anonymous pages (/, /pricing, /legal),
//    member pages (feed, its data, sessions, calendar, an event, a video, /perfil, notifications,
//    directory) and writes through the real forms: posts, posts with a PDF attached (multipart),
//    comments, likes, event registrations;
// 5. every acknowledged write (2xx) is looked for in the database afterwards;
// 6. RSS after a GC at the start (after a warm-up) and at the end: the end may be at most 15 %
//    above the start.
// Exits 1 when there was a 5xx, a write acknowledged but not found (or found but not acknowledged),
// an event stream that died, or memory that grew past the limit. `--requests=N` and
// `--concurrency=N` change the load.
import { spawn } from 'node:child_process'
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { get } from '../bench/load.js'
import { runSeed } from '../bench/seeded-session.js'
import { readSingleFetch } from '../bench/upload.js'
import { ensureBuild, root } from './ensure-build.js'

const argValue = (name) =>
  process.argv
    .slice(2)
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.split('=')[1]
const REQUESTS = Number(argValue('requests') ?? 10_000)
const CONCURRENCY = Number(argValue('concurrency') ?? 20)
const STREAMS = 20
/** Requests of the same mix before the start is read, not counted: the server's caches and pools fill. */
const WARMUP = 2000
/** `--trace-memory`: the heap after a GC every 2,000 requests, to tell a leak from a warm-up. */
const TRACE_MEMORY = process.argv.includes('--trace-memory')
/** `--heap-snapshots`: heap snapshots at the start and the end, in test-results/soak/. */
const SNAPSHOTS = process.argv.includes('--heap-snapshots')
const MEMBERS = 100
const RSS_GROWTH_LIMIT = 0.15
const PORT = 3420
const BASE_URL = `http://127.0.0.1:${PORT}`
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const AUTH_SECRET = 'soak-auth-secret-0123456789abcdef0123456789abcdef'
const RUN = randomBytes(3).toString('hex')

process.chdir(root)
ensureBuild()

const cleanups = []
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
async function cleanUp() {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((error) => console.error(`cleanup: ${error.message}`))
}
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().finally(() => process.exit(130)))

async function onPostgres(url, statement, values) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  await client.connect()
  try {
    return (await client.query(statement, values)).rows
  } finally {
    await client.end()
  }
}

/** Sessions written as better-auth writes them, cookies signed as it signs them (HMAC-SHA256, base64). */
async function signInMembers(url) {
  const members = await onPostgres(
    url,
    `SELECT u.id FROM "user" u JOIN profiles p ON p.user_id = u.id
     WHERE p.is_premium AND p.avatar_url IS NOT NULL AND u.id LIKE 'bench-u%' ORDER BY u.id LIMIT $1`,
    [MEMBERS],
  )
  const signedIn = []
  for (const { id } of members) {
    const token = randomBytes(24).toString('base64url')
    await onPostgres(url, `INSERT INTO session (id, token, user_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`, [
      randomUUID(),
      token,
      id,
    ])
    const signature = createHmac('sha256', AUTH_SECRET).update(token).digest('base64')
    signedIn.push({ id, cookie: `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}` })
  }
  return signedIn
}

function startServer(env, logFile) {
  const log = openSync(logFile, 'a')
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', pathToFileURL(path.join(root, 'bench/gc-on-message.js')).href, 'server.js'],
    {
      cwd: root,
      env,
      stdio: ['ignore', log, log, 'ipc'],
    },
  )
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
  })
  return child
}

/** The server's memory (MiB) right after a full collection it ran itself: resident, and its JavaScript heap. */
async function memoryAfterGc(child) {
  const usage = new Promise((resolve) => child.once('message', resolve))
  child.send('gc')
  const { heapUsed, external } = await usage
  await sleep(200)
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  const mib = (bytes) => Math.round(bytes / 1_048_576)
  return { rss: Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024), heap: mib(heapUsed), external: mib(external) }
}

/** Holds /notificaciones/stream open; `alive()` tells whether it still is. */
function openStream(cookie) {
  let alive = false
  const request = http.get(
    `${BASE_URL}/notificaciones/stream`,
    { headers: { Cookie: cookie, Accept: 'text/event-stream' } },
    (response) => {
      alive = response.statusCode === 200
      response.on('data', () => {})
      response.on('close', () => (alive = false))
    },
  )
  request.on('error', () => (alive = false))
  return { alive: () => alive, close: () => request.destroy() }
}

/**
 * A form post as a fetcher sends it (React Router's single fetch: `<path>.data`, answered in
 * turbo-stream) from the app's own origin; resolves { status, data } with the action's answer.
 */
async function post(pathname, cookie, body, contentType) {
  const url = new URL(pathname, BASE_URL)
  url.pathname = `${url.pathname}.data`
  const response = await fetch(url, { method: 'POST', headers: { Cookie: cookie, Origin: BASE_URL, 'Content-Type': contentType }, body })
  if (response.status >= 500) return { status: response.status, body: await response.text() }
  const decoded = await readSingleFetch(response)
  return { status: response.status, data: decoded?.data, body: JSON.stringify(decoded).slice(0, 300) }
}

/** An answer the member would see as done: 2xx and not a failure. */
const done = (answer) => answer.status < 300 && answer.data?.ok !== false

const FORM = 'application/x-www-form-urlencoded'
const form = (fields) => new URLSearchParams(fields).toString()

function multipart(fields, file) {
  const boundary = `soak${randomBytes(8).toString('hex')}`
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`
  return {
    body: Buffer.concat([Buffer.from(parts.join('') + head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  }
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')
const pick = (list) => list[Math.floor(Math.random() * list.length)]

async function main() {
  const name = `soak_${Date.now()}`
  await onPostgres(POSTGRES_URL, `create database ${name}`)
  cleanups.push(async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return void (await onPostgres(POSTGRES_URL, `drop database if exists ${name}`))
      } catch (error) {
        if (attempt >= 30) throw error
        await sleep(200)
      }
    }
  })
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  const databaseUrl = url.toString()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'soak-'))
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
  const logFile = path.join(dataDir, 'server.log')
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(PORT),
    APP_URL: BASE_URL,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET,
    LOG_LEVEL: 'warn',
  }

  process.stdout.write('Seeding… ')
  const seeded = await runSeed(env, logFile)
  console.log(`${seeded.counts.user} members, ${seeded.counts.community_posts} posts, ${seeded.counts.events} events`)
  const members = await signInMembers(databaseUrl)
  // The seed names its rows by hashes: only those shaped as the app's own ids (RFC 4122, as
  // gen_random_uuid makes them) pass the forms' id check.
  const APP_ID = `id::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'`
  const posts = (await onPostgres(databaseUrl, `SELECT id FROM community_posts WHERE ${APP_ID} ORDER BY random() LIMIT 2000`)).map(
    (row) => row.id,
  )
  const events = (await onPostgres(databaseUrl, 'SELECT id FROM events WHERE event_date > now() ORDER BY event_date LIMIT 40')).map(
    (row) => row.id,
  )
  const unliked = new Map()
  for (const { user_id: userId, post_id: postId } of await onPostgres(
    databaseUrl,
    `SELECT s.id AS user_id, p.id AS post_id FROM unnest($1::text[]) s(id) CROSS JOIN LATERAL (
       SELECT id FROM community_posts c WHERE ${APP_ID.replace('id::text', 'c.id::text')} AND NOT EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = c.id AND l.user_id = s.id) ORDER BY random() LIMIT 60) p`,
    [members.map((member) => member.id)],
  )) {
    if (!unliked.has(userId)) unliked.set(userId, [])
    unliked.get(userId).push(postId)
  }
  const unregistered = new Map(members.map((member) => [member.id, [...events]]))

  process.stdout.write('Starting the server… ')
  const server = startServer(env, logFile)
  for (let waited = 0; ; waited += 300) {
    if (server.exitCode !== null) throw new Error(`the server exited; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`)
    if ((await get(`${BASE_URL}/healthz`).catch(() => null))?.status === 200) break
    if (waited > 120_000) throw new Error('the server did not start within 2 minutes')
    await sleep(300)
  }
  console.log(`ready (pid ${server.pid})`)

  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const member = () => pick(members)
  const feedData = '/comunidad.data?_routes=features%2Ffeed%2Ffeed.route'
  const pages = [
    '/comunidad',
    feedData,
    '/comunidad/sesiones',
    '/comunidad/calendario',
    `/comunidad/calendario/${seeded.events.busiest}`,
    `/video/${seeded.sessions.withVideo}`,
    '/perfil',
    '/notificaciones',
    '/comunidad/miembros',
  ]
  const acknowledged = { posts: [], documents: [], comments: [], likes: [], registrations: [] }
  const statuses = {}
  let fiveHundreds = 0
  let firstFiveHundred
  let firstRefusal
  // What each kind of request is, with its share of the mix.
  const operations = [
    [15, async () => get(`${BASE_URL}${pick(['/', '/pricing', '/legal'])}`, { agent })],
    [60, async () => get(`${BASE_URL}${pick(pages)}`, { agent, headers: { Cookie: member().cookie } })],
    [
      4,
      async () => {
        const title = `Soak ${RUN} post ${randomUUID().slice(0, 8)}`
        const answer = await post('/comunidad?index', member().cookie, form({ intent: 'create-post', postType: 'text', title }), FORM)
        if (done(answer)) acknowledged.posts.push(title)
        return answer
      },
    ],
    [
      2,
      async () => {
        const title = `Soak ${RUN} doc ${randomUUID().slice(0, 8)}`
        const { body, type } = multipart(
          { intent: 'create-post', postType: 'document', title },
          { name: 'informe.pdf', type: 'application/pdf', bytes: PDF },
        )
        const answer = await post('/comunidad?index', member().cookie, body, type)
        if (done(answer)) acknowledged.documents.push(title)
        return answer
      },
    ],
    [
      8,
      async () => {
        const content = `Soak ${RUN} comment ${randomUUID().slice(0, 8)}`
        const answer = await post('/comunidad?index', member().cookie, form({ intent: 'add-comment', postId: pick(posts), content }), FORM)
        if (done(answer)) acknowledged.comments.push(content)
        return answer
      },
    ],
    [
      8,
      async () => {
        const who = member()
        const postId = unliked.get(who.id)?.pop()
        if (!postId) return get(`${BASE_URL}/comunidad`, { agent, headers: { Cookie: who.cookie } })
        const answer = await post('/comunidad?index', who.cookie, form({ intent: 'like-post', postId }), FORM)
        if (done(answer) && answer.data.liked === true) acknowledged.likes.push([who.id, postId])
        return answer
      },
    ],
    [
      3,
      async () => {
        const who = member()
        const eventId = unregistered.get(who.id).pop()
        if (!eventId) return get(`${BASE_URL}/comunidad/calendario`, { agent, headers: { Cookie: who.cookie } })
        const answer = await post('/comunidad/calendario', who.cookie, form({ intent: 'toggle-registration', eventId }), FORM)
        // A seeded registration would be toggled off: only a registration made is a write to find.
        if (done(answer) && answer.data.status !== 'none') acknowledged.registrations.push([who.id, eventId])
        return answer
      },
    ],
  ]
  const total = operations.reduce((sum, [weight]) => sum + weight, 0)
  const choose = () => {
    let roll = Math.random() * total
    for (const [weight, run] of operations) if ((roll -= weight) < 0) return run
    return operations[0][1]
  }

  /** `count` requests of the mix over CONCURRENCY connections; `counted` ones go into the figures. */
  async function runMix(count, counted) {
    let sent = 0
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < count) {
          sent += 1
          if (TRACE_MEMORY && counted && sent % 2000 === 0) {
            const memory = await memoryAfterGc(server)
            console.log(`  after ${sent} requests: RSS ${memory.rss} MiB, heap ${memory.heap} MiB, external ${memory.external} MiB`)
          }
          try {
            const answer = await choose()()
            if (!counted) continue
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
            if (answer.status >= 400 && answer.status < 500) firstRefusal ??= `${answer.status} ${String(answer.body).slice(0, 300)}`
            if (answer.status >= 500) {
              fiveHundreds += 1
              firstFiveHundred ??= `${answer.status} ${String(answer.body).slice(0, 200)}`
            }
          } catch (error) {
            if (!counted) continue
            statuses.failed = (statuses.failed ?? 0) + 1
            firstFiveHundred ??= `connection: ${error.message}`
            fiveHundreds += 1
          }
        }
      }),
    )
    return sent
  }
  const snapshot = async (label) => {
    if (!SNAPSHOTS) return
    const file = path.join(root, 'test-results/soak', `${label}.heapsnapshot`)
    mkdirSync(path.dirname(file), { recursive: true })
    const written = new Promise((resolve) => server.once('message', resolve))
    server.send({ snapshot: file })
    console.log(`  heap snapshot (${label}): ${(await written).snapshot}`)
  }

  // The event streams stay open throughout; the start is read once the server is warm (a first
  // round of the same mix, not counted), the end after the counted requests, in the same state.
  const streams = members.slice(0, STREAMS).map((signedIn) => openStream(signedIn.cookie))
  await runMix(WARMUP, false)
  const memoryStart = await memoryAfterGc(server)
  await snapshot('start')
  const started = performance.now()
  const sent = await runMix(REQUESTS, true)
  const memoryEnd = await memoryAfterGc(server)
  await snapshot('end')
  const seconds = Math.round((performance.now() - started) / 1000)
  const streamsAlive = streams.filter((stream) => stream.alive()).length
  for (const stream of streams) stream.close()
  agent.destroy()

  const found = await onPostgres(
    databaseUrl,
    `SELECT
       (SELECT count(*)::int FROM community_posts WHERE title LIKE $1) AS posts,
       (SELECT count(*)::int FROM community_posts p JOIN post_attachments a ON a.post_id = p.id WHERE p.title LIKE $2) AS documents,
       (SELECT count(*)::int FROM community_comments WHERE content LIKE $3) AS comments,
       (SELECT count(*)::int FROM post_likes l JOIN unnest($4::text[], $5::uuid[]) w(user_id, post_id) ON l.user_id = w.user_id AND l.post_id = w.post_id) AS likes,
       (SELECT count(*)::int FROM event_attendees a JOIN unnest($6::text[], $7::uuid[]) w(user_id, event_id) ON a.user_id = w.user_id AND a.event_id = w.event_id) AS registrations`,
    [
      `Soak ${RUN} post %`,
      `Soak ${RUN} doc %`,
      `Soak ${RUN} comment %`,
      acknowledged.likes.map(([userId]) => userId),
      acknowledged.likes.map(([, postId]) => postId),
      acknowledged.registrations.map(([userId]) => userId),
      acknowledged.registrations.map(([, eventId]) => eventId),
    ],
  )
  const rows = found[0]
  const writesAcknowledged = Object.values(acknowledged).reduce((sum, list) => sum + list.length, 0)
  const rowsFound = Object.values(rows).reduce((sum, n) => sum + n, 0)
  const mismatched = Object.keys(acknowledged).filter((kind) => acknowledged[kind].length !== rows[kind])
  const growth = (memoryEnd.rss - memoryStart.rss) / memoryStart.rss
  const passed = fiveHundreds === 0 && mismatched.length === 0 && streamsAlive === STREAMS && growth <= RSS_GROWTH_LIMIT
  console.log(
    `soak: ${sent} requests in ${seconds} s (${CONCURRENCY} connections, ${STREAMS} event streams, ${streamsAlive} still open) · ` +
      `5xx ${fiveHundreds} · writes acknowledged ${writesAcknowledged} ${mismatched.length ? '≠' : '='} rows found ${rowsFound} · ` +
      `RSS ${memoryStart.rss} → ${memoryEnd.rss} MiB after GC (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %) · ${passed ? 'passed' : 'FAILED'}`,
  )
  console.log(
    `  answers: ${JSON.stringify(statuses)}; writes: ${Object.entries(acknowledged)
      .map(([kind, list]) => `${kind} ${list.length}/${rows[kind]}`)
      .join(', ')}`,
  )
  console.log(
    `  JavaScript heap after GC ${memoryStart.heap} → ${memoryEnd.heap} MiB, external ${memoryStart.external} → ${memoryEnd.external} MiB`,
  )
  if (firstRefusal) console.log(`  first 4xx: ${firstRefusal}`)
  if (firstFiveHundred) console.log(`  first 5xx: ${firstFiveHundred} (server log: ${logFile})`)
  return passed
}

let passed = false
try {
  passed = await main()
} catch (error) {
  console.error(`soak: ${error instanceof Error ? error.message : error}`)
} finally {
  await cleanUp()
}
process.exit(passed ? 0 : 1)
