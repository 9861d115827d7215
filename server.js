// The process entry: static files, compression, the app, graceful shutdown.
// The app itself (server/app.ts) is compiled with the rest by `react-router build`.
import compression from 'compression'
import express from 'express'

// React, React Router and Express choose their production code (no development checks, no stack
// traces in error answers) from NODE_ENV, so unset means production here, as the README says,
// and `npm start` or `node server.js` on a server never runs React's development build.
process.env.NODE_ENV ??= 'production'
const DEVELOPMENT = process.env.NODE_ENV === 'development'
const PORT = Number.parseInt(process.env.PORT || '3000', 10)

const server = express()
server.disable('x-powered-by')
server.use(
  compression({
    // Server-sent events must reach the browser as they are written.
    filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
  }),
)

let appModule
if (DEVELOPMENT) {
  const vite = await import('vite').then(({ createServer }) => createServer({ server: { middlewareMode: true } }))
  server.use(vite.middlewares)
  appModule = await vite.ssrLoadModule('./server/app.ts')
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
  appModule = await import('./build/server/index.js')
  server.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false }))
  server.use(express.static('build/client', { maxAge: '1h', index: false }))
  server.use(appModule.createApp({ development: false }))
}

if (process.env.TRUST_PROXY) server.set('trust proxy', appModule.trustProxySetting(process.env.TRUST_PROXY))

try {
  await appModule.startUp()
} catch (error) {
  console.error(`\nThe server could not start: ${error instanceof Error ? error.message : error}\n`)
  process.exit(1)
}

const httpServer = server.listen(PORT, () => {
  console.log(`Círculo CEO listening on http://localhost:${PORT}`)
})

let closing = false
async function shutDown(signal) {
  if (closing) return
  closing = true
  console.log(`${signal} received: closing`)
  const force = setTimeout(() => process.exit(1), 10_000)
  force.unref()
  httpServer.close()
  httpServer.closeIdleConnections?.()
  await appModule.shutDown()
  process.exit(0)
}
process.on('SIGINT', () => shutDown('SIGINT'))
process.on('SIGTERM', () => shutDown('SIGTERM'))
