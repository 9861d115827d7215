// The process entry: configuration, static files, compression, the app, graceful shutdown.
// The app itself (server/app.ts) is compiled with the rest by `react-router build`.
import compression from 'compression'
import express from 'express'
import zlib from 'node:zlib'
import { loadDotEnv } from './server/dotenv.js'

loadDotEnv()
// React, React Router and Express choose their production code (no development checks, no stack
// traces in error answers) from NODE_ENV, so unset means production here, as the README says,
// and `npm start` or `node server.js` on a server never runs React's development build.
process.env.NODE_ENV ??= 'production'
const DEVELOPMENT = process.env.NODE_ENV === 'development'
const PORT = Number.parseInt(process.env.PORT || '3000', 10)
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
try {
  appModule.checkConfiguration()
} catch (error) {
  cannotStart(error)
}

// A request, however malformed, must not stop the server: whatever escapes every handler is
// logged and the process keeps serving (`npm start` restarts it should it die anyway).
process.on('unhandledRejection', (reason) => appModule.logger.error({ err: reason }, 'Unhandled rejection (kept serving)'))
process.on('uncaughtException', (error) => appModule.logger.error({ err: error }, 'Uncaught exception (kept serving)'))

const server = express()
server.disable('x-powered-by')
let ready = false
server.use((_req, res, next) => {
  if (ready) return next()
  res
    .status(503)
    .set('Retry-After', '5')
    .type('text/plain; charset=utf-8')
    .send('El servidor se está iniciando. Vuelve a intentarlo en unos segundos.')
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

// Listen first: a port already in use stops the start before anything else runs.
const httpServer = server.listen(PORT)
await new Promise((resolve) => {
  httpServer.once('listening', resolve)
  httpServer.once('error', (error) =>
    cannotStart(
      error.code === 'EADDRINUSE' ? `port ${PORT} is already in use (another server is running there; set PORT to use another)` : error,
    ),
  )
})

try {
  await appModule.startUp()
} catch (error) {
  cannotStart(error)
}
ready = true
console.log(`Círculo CEO listening on http://localhost:${PORT}`)

// A graceful stop (a deploy, a restart): no new connections; event streams closed at once (the
// browser reconnects, to another process or to this one restarted); the job worker finishes its
// job and takes no more; the requests in flight finish (up to DRAIN_MS); then the database closes.
const DRAIN_MS = 10_000
let closing = false
async function shutDown(signal) {
  if (closing) return
  closing = true
  console.log(`${signal} received: finishing the requests in flight, then closing`)
  const force = setTimeout(() => process.exit(1), DRAIN_MS + 5_000)
  force.unref()
  const drained = new Promise((resolve) => httpServer.close(resolve))
  // A keep-alive connection is closed as soon as its current request is answered.
  const idle = setInterval(() => httpServer.closeIdleConnections(), 50)
  httpServer.closeIdleConnections()
  await appModule.quiesce()
  const late = await Promise.race([drained.then(() => false), new Promise((resolve) => setTimeout(resolve, DRAIN_MS, true))])
  clearInterval(idle)
  if (late) {
    console.error(`Requests still open after ${DRAIN_MS / 1000} s were cut`)
    httpServer.closeAllConnections()
  }
  await appModule.shutDown()
  process.exit(0)
}
process.on('SIGINT', () => shutDown('SIGINT'))
process.on('SIGTERM', () => shutDown('SIGTERM'))
