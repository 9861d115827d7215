// The process entry: configuration, static files, compression, the app, graceful shutdown.
// The app itself (server/app.ts) is compiled with the rest by `react-router build`.
import compression from 'compression'
import express from 'express'
import cluster from 'node:cluster'
import http from 'node:http'
import net from 'node:net'
import zlib from 'node:zlib'
import { loadDotEnv } from './server/dotenv.js'
import { metricsAddress, serveMetrics } from './server/metrics-server.js'

loadDotEnv()
// React, React Router and Express choose their production code (no development checks, no stack
// traces in error answers) from NODE_ENV, so unset means production here, as the README says,
// and `npm start` or `node server.js` on a server never runs React's development build.
process.env.NODE_ENV ??= 'production'
const DEVELOPMENT = process.env.NODE_ENV === 'development'
const PORT = Number.parseInt(process.env.PORT || '3000', 10)
// A process `npm start` starts again beside others that serve listens once it is ready (decisions/0036):
// the port is theirs meanwhile, and no request meets its start.
const LISTEN_WHEN_READY = process.env.LISTEN_WHEN_READY === '1'
/** `npm start` does not restart a server that exits with this: it cannot start as configured. */
const CANNOT_START = 78

/** One clear line, no stack trace: what stops a start is the operator's to fix. */
function cannotStart(reason) {
  console.error(`\nThe server could not start: ${reason instanceof Error ? reason.message : reason}\n`)
  process.exit(CANNOT_START)
}

let appModule
let vite
if (DEVELOPMENT) {
  vite = await import('vite').then(({ createServer }) => createServer({ server: { middlewareMode: true } }))
  appModule = await vite.ssrLoadModule('./server/app.ts')
} else {
  appModule = await import('./build/server/index.js')
}
let env
let metrics
try {
  env = appModule.checkConfiguration()
  metrics = metricsAddress()
} catch (error) {
  cannotStart(error)
}
// Under `npm start` the supervisor answers the scrape for every process; run alone, this one does.
if (metrics) {
  appModule.collectProcessMetrics()
  if (!cluster.isWorker) await serveMetrics(metrics, () => appModule.metricsText()).catch(cannotStart)
}

// A request, however malformed, must not stop the server: whatever escapes every handler is
// logged and the process keeps serving (`npm start` restarts it should it die anyway).
process.on('unhandledRejection', (reason) => appModule.logger.error({ err: reason }, 'Unhandled rejection (kept serving)'))
process.on('uncaughtException', (error) => appModule.logger.error({ err: error }, 'Uncaught exception (kept serving)'))

const server = express()
server.disable('x-powered-by')
let ready = false
/** A stop signal came: /readyz says draining; answers close their connections. */
let stopping = false
/** The drain began (after SHUTDOWN_DELAY_SECONDS): the listener closes, nothing new is taken. */
let closing = false
// Readiness first: it answers while starting and draining (503 with its reason), with no session,
// rate limit or log line (decisions/0036).
server.get('/readyz', appModule.readyz)
server.use(appModule.httpMetrics())
server.use(function startingOrStopping(req, res, next) {
  // An event stream opened while stopping would hold the stop until DRAIN_MS: the browser comes back.
  const stream = closing && req.headers.accept === 'text/event-stream'
  if (ready && !stream) return next()
  res
    .status(503)
    .set('Retry-After', '5')
    .type('text/plain; charset=utf-8')
    .send(`El servidor se está ${closing ? 'reiniciando' : 'iniciando'}. Vuelve a intentarlo en unos segundos.`)
})
server.use(
  compression({
    // Server-sent events must reach the browser as they are written.
    filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
    // Pages are compressed per request: brotli 3 and gzip 4 take half the time of the defaults
    // (brotli 4, gzip 6) for 3 % more bytes. Built files were compressed at their best at build time.
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } },
    level: 4,
  }),
)

if (DEVELOPMENT) {
  server.use(vite.middlewares)
  let devApp = appModule.createApp({ development: true })
  server.use(async (req, res, next) => {
    try {
      const fresh = await vite.ssrLoadModule('./server/app.ts')
      if (fresh !== appModule) {
        appModule = fresh
        devApp = fresh.createApp({ development: true })
      }
      devApp(req, res, next)
    } catch (error) {
      if (error instanceof Error) vite.ssrFixStacktrace(error)
      next(error)
    }
  })
} else {
  server.use(appModule.staticFiles())
  server.use(appModule.createApp({ development: false }))
}

if (process.env.TRUST_PROXY) server.set('trust proxy', appModule.trustProxySetting(process.env.TRUST_PROXY))

const httpServer = http.createServer(server)
function listen() {
  return new Promise((resolve) => {
    httpServer.once('listening', resolve)
    httpServer.once('error', (error) =>
      cannotStart(
        error.code === 'EADDRINUSE' ? `port ${PORT} is already in use (another server is running there; set PORT to use another)` : error,
      ),
    )
    httpServer.listen(PORT)
  })
}
// Listen first: a port already in use stops the start before anything else runs.
if (!LISTEN_WHEN_READY) await listen()

// A graceful stop (a deploy, a restart; the signal often reaches `npm start` and this process
// both): /readyz answers 503 at once; for SHUTDOWN_DELAY_SECONDS (0 unless set) the process goes
// on serving as before, each answer closing its connection, so that a load balancer polling
// /readyz every few seconds stops sending here while a listener still answers what it sends
// meanwhile (decisions/0036); then no new connections; event streams closed at once (the browser
// reconnects, to another process or to this one restarted); the job worker finishes its job and takes no more; every
// request that has reached the server is answered (up to DRAIN_MS), its connection then closed;
// then the database closes.
const DRAIN_MS = 10_000
const SHUTDOWN_DELAY_MS = env.SHUTDOWN_DELAY_SECONDS * 1000
// A connection with no request in flight is closed once nothing has arrived on it for this long.
// Closing it at once, as http.Server.close() and closeIdleConnections() do, cuts a request whose
// bytes wait in its socket buffer (sent just before the stop, or on a connection just accepted).
const QUIET_MS = 1_000
const connections = new Map()
const responses = new Set()
let accepted = 0
httpServer.on('connection', (socket) => {
  accepted++
  connections.set(socket, { requests: 0, bytesRead: 0, quietSince: Date.now() })
  socket.once('close', () => connections.delete(socket))
})
httpServer.prependListener('request', (req, res) => {
  const connection = connections.get(req.socket)
  connection.requests++
  responses.add(res)
  // While stopping, each answer closes its connection: the client sends its next request elsewhere.
  if (stopping) res.setHeader('Connection', 'close')
  res.once('close', () => {
    connection.requests--
    connection.quietSince = Date.now()
    responses.delete(res)
  })
})

/** Resolves after the event loop has polled its sockets once more (what had arrived is read). */
const afterPoll = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)))

function closeQuietConnections(stoppedAt) {
  for (const [socket, connection] of connections) {
    if (connection.requests > 0) continue
    if (socket.bytesRead !== connection.bytesRead) {
      connection.bytesRead = socket.bytesRead
      connection.quietSince = Date.now()
    } else if (Date.now() - Math.max(connection.quietSince, stoppedAt) >= QUIET_MS) socket.destroy()
  }
}

let startedUp
async function shutDown(signal) {
  if (stopping) return
  stopping = true
  // /readyz says so before the listener closes: the load balancer stops sending here first.
  appModule.markDraining()
  // A process still starting was never ready: no balancer sends it anything, nothing to wait for.
  const delay = ready ? SHUTDOWN_DELAY_MS : 0
  console.log(
    delay > 0
      ? `${signal} received: serving ${delay / 1000} s more while load balancers see /readyz answer 503, then finishing the requests in flight and closing`
      : `${signal} received: finishing the requests in flight, then closing`,
  )
  const force = setTimeout(() => process.exit(1), delay + DRAIN_MS + 5_000)
  force.unref()
  for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close')
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  closing = true
  const stoppedAt = Date.now()
  // Checked right after a poll: a loop kept busy for a while has not read what arrived meanwhile.
  const sweep = setInterval(() => setImmediate(closeQuietConnections, stoppedAt), 100)
  // The kernel queues connections while the loop is busy and Node takes them a few a turn: listen
  // until a turn brings none (at most 20 turns, however long a busy loop makes them), so they are
  // answered rather than reset.
  for (let turns = 0, before = -1; before !== accepted && turns < 20; turns++) {
    before = accepted
    await afterPoll()
  }
  // Not http.Server.close(): it would also destroy the connections that look idle.
  const drained = new Promise((resolve) => net.Server.prototype.close.call(httpServer, resolve))
  // Stopped while starting: what start-up opens is closed once it is open.
  await startedUp
  await appModule.quiesce()
  const late = await Promise.race([drained.then(() => false), new Promise((resolve) => setTimeout(resolve, DRAIN_MS, true))])
  clearInterval(sweep)
  if (late) {
    console.error(`Requests still open after ${DRAIN_MS / 1000} s were cut`)
    httpServer.closeAllConnections()
  }
  await appModule.shutDown()
  // With tracing on (server/tracing.js): the last spans are sent before leaving, within a second.
  await Promise.race([globalThis[Symbol.for('circulo.flushTraces')]?.(), new Promise((resolve) => setTimeout(resolve, 1_000))])
  process.exit(0)
}
process.on('SIGINT', () => shutDown('SIGINT'))
process.on('SIGTERM', () => shutDown('SIGTERM'))

startedUp = appModule.startUp().catch(cannotStart)
await startedUp
ready = true
if (!stopping) {
  appModule.markServing()
  if (LISTEN_WHEN_READY) await listen()
  console.log(`Círculo CEO listening on http://localhost:${PORT}${cluster.isWorker ? ` (process ${process.pid})` : ''}`)
}
