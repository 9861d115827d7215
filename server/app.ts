import 'react-router'
import { createRequestHandler } from '@react-router/express'
import { existsSync } from 'node:fs'
import v8 from 'node:v8'
import path from 'node:path'
import express from 'express'
import * as serverBuild from 'virtual:react-router/server-build'
import { closeDatabase, openDatabase } from '~/platform/db/client.server'
import { grantRoleByEmail } from '~/features/members/roles.server'
import { getEnv } from '~/platform/env.server'
import { newRequestId, type RouteLabel, runWithRequestId } from '~/platform/http/request-context.server'
import { markDraining, markServing, readinessResponse } from '~/platform/http/readiness.server'
import { collectProcessMetrics, httpRequestDuration, methodLabel, metricsText, routeLabel } from '~/platform/metrics/metrics.server'
import { logger } from '~/platform/logger.server'
import { UPLOAD_PATH } from '~/features/ceo-sessions/local-video.server'
import { handleVideoUpload } from '~/features/ceo-sessions/video-upload.server'
import { notificationStream } from '~/features/notifications/stream.server'
import { EXPORT_PATH, exportMembers } from '~/features/admin/export.server'
import { listFailedJobs, retryFailedJobs, runSchedules, startJobWorker, stopJobWorker } from '~/platform/jobs/jobs.server'
// What every feature declares (member data, jobs, schedules, settings, console entries): this
// process's worker then knows every job, the command-line tasks' included.
import '~/parts.server'
import { startRealtime, stopRealtime } from '~/platform/realtime.server'
import { startViewerCache, stopViewerCache } from '~/platform/auth/viewer-cache.server'
import { startSettings, stopSettings } from '~/platform/settings/settings.server'
import { createBackup, restoreBackup, startBackupRequests, stopBackupRequests } from '~/platform/backup/backup.server'
import { press } from '~/features/site/content'
import { placeholderFields } from '~/site.config'
import { fetchRoute } from './fetch-route'
import {
  allowedMethods,
  bodySizeLimit,
  sameOriginWrites,
  securityHeaders,
  TOKEN_AUTHENTICATED_PATHS,
  trustedClientIp,
  trustProxySetting,
} from './security'

declare module 'react-router' {
  interface AppLoadContext {
    cspNonce: string
  }
}

export {
  collectProcessMetrics,
  createBackup,
  grantRoleByEmail,
  listFailedJobs,
  logger,
  markDraining,
  markServing,
  metricsText,
  restoreBackup,
  retryFailedJobs,
  trustProxySetting,
}

/** Largest body of a request that is not a file upload (forms, JSON, webhooks). */
const MAX_FORM_BODY_BYTES = 1024 * 1024

/**
 * The configuration is complete for where the site runs: valid variables (env.server.ts) and,
 * on a public address, the operator's own details in app/site.config.ts, not the examples.
 */
export function checkConfiguration() {
  const env = getEnv()
  const placeholders = env.isPublic ? placeholderFields() : []
  if (placeholders.length > 0) {
    throw new Error(
      `app/site.config.ts still holds example data (${placeholders.join(', ')}); the legal pages would show it to members. Put the operator's details there first.`,
    )
  }
  return env
}

/** Opens the database (taking the embedded lock, applying migrations) and starts workers. */
export async function startUp() {
  const env = getEnv()
  await openDatabase(
    env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir: `${env.DATA_DIR.replace(/\/+$/, '')}/db` },
  )
  await startRealtime()
  await startViewerCache()
  await startSettings()
  await startJobWorker()
  await runSchedules()
  if (!env.DATABASE_URL) await startBackupRequests(env.DATA_DIR)
  if (env.ADMIN_TWO_FACTOR === 'optional')
    logger.warn(
      'Admins use the console without two-factor sign-in (ADMIN_TWO_FACTOR=optional): remove it once they have turned it on in /perfil',
    )
  logger.info({ database: env.DATABASE_URL ? 'postgres' : 'pglite', appUrl: env.APP_URL }, 'Ready')
  const heapLimitMiB = Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20)
  if (env.MEMORY_LIMIT_MB && heapLimitMiB > env.MEMORY_LIMIT_MB) {
    logger.warn(
      { heapLimitMiB, memoryLimitMiB: env.MEMORY_LIMIT_MB },
      'The JavaScript heap may outgrow MEMORY_LIMIT_MB: start the server with npm start, or node --max-old-space-size=<half of it> server.js',
    )
  }
}

/**
 * The first step of a graceful stop: open event streams end (they would hold the HTTP server
 * open forever; the browser reconnects) and the job worker finishes its job and takes no more.
 */
export async function quiesce() {
  await stopRealtime()
  await stopViewerCache()
  await stopSettings()
  await stopJobWorker()
}

export async function shutDown() {
  await quiesce()
  await stopBackupRequests()
  await closeDatabase()
}

/** Opens only the database, for command-line tasks. */
export async function openForCli() {
  const env = getEnv()
  await openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, maxConnections: 1, queryTimeoutMillis: 0 }
      : { kind: 'pglite', dataDir: `${env.DATA_DIR.replace(/\/+$/, '')}/db` },
  )
}

/** `/readyz` (decisions/0036): mounted by server.js before anything else, so it answers while starting and draining. */
export const readyz = fetchRoute(() => readinessResponse(), 'readiness')

/**
 * The HTTP histogram (circulo_http_request_duration_seconds), outermost: a request's time until
 * its answer is written, labelled with the pattern of the route that took it ('static' for built
 * files, 'unmatched' for what no route took), never its URL, whose ids would make a series each.
 */
export function httpMetrics(): express.RequestHandler {
  return function httpMetrics(req, res, next) {
    const started = performance.now()
    const route: RouteLabel = {}
    res.locals.route = route
    res.once('close', () => {
      httpRequestDuration.observe(
        {
          method: methodLabel(req.method),
          route: routeLabel(route.pattern),
          status: String(res.statusCode),
        },
        (performance.now() - started) / 1000,
      )
    })
    next()
  }
}

/**
 * The built browser files: hashed assets cached for a year, the rest for an hour, each with the
 * headers that keep a file inert (the pages' own CSP comes with the pages).
 */
export function staticFiles() {
  const router = express.Router()
  const setHeaders = (res: express.Response) => {
    const route = res.locals.route as RouteLabel | undefined
    if (route) route.pattern = 'static'
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  }
  // Hashed files were compressed at build time (server/precompress.ts): the smallest copy the
  // browser accepts is sent as it is, with the original's type.
  router.use('/assets', (req, res, next) => {
    const accepted = String(req.headers['accept-encoding'] ?? '')
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null
    let file: string
    try {
      file = path.join('build/client/assets', path.normalize(decodeURIComponent(req.path)))
    } catch {
      return next()
    }
    const copy = encoding && `${file}.${encoding === 'br' ? 'br' : 'gz'}`
    res.setHeader('Vary', 'Accept-Encoding')
    if (!copy || !file.startsWith('build/client/assets/') || !existsSync(copy)) return next()
    res.setHeader('Content-Encoding', encoding)
    res.type(path.extname(file))
    setHeaders(res)
    // The type was set above, so the copy's extension does not decide it.
    res.sendFile(path.resolve(copy), { immutable: true, maxAge: '1y' }, (error) => {
      if (error && !res.headersSent) next()
    })
  })
  router.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false, setHeaders }))
  // The service worker is checked at every navigation (a new deploy is a new worker): never from
  // a cache. Its scope is the whole site.
  router.get('/sw.js', (_req, res, next) => {
    setHeaders(res)
    res.setHeader('Service-Worker-Allowed', '/')
    res.sendFile(path.resolve('build/client/sw.js'), { cacheControl: false, headers: { 'Cache-Control': 'no-cache' } }, (error) => {
      if (error && !res.headersSent) next()
    })
  })
  // Only a path with a file's ending can be one of these files (favicon.ico, robots.txt…): a page's
  // path goes on without a look on disk.
  const rootFiles = express.static('build/client', { maxAge: '1h', index: false, setHeaders })
  router.use(function filesAtRoot(req, res, next) {
    return /\.[a-z0-9]+$/i.test(req.path) ? rootFiles(req, res, next) : next()
  })
  return router
}

export function createApp({ development }: { development: boolean }) {
  const env = getEnv()
  const app = express.Router()
  app.use(
    securityHeaders({
      development,
      https: env.APP_URL.startsWith('https://'),
      frameSources: [new URL(press.podcast.embedUrl).origin],
      // With Mux, the browser uploads to Google Cloud Storage and streams from Mux's hosts.
      connectSources: env.MUX_TOKEN_ID ? ['https://storage.googleapis.com', 'https://*.mux.com'] : [],
    }),
  )
  app.use(trustedClientIp())
  // Middleware are named functions: a trace's Express spans are named after them (decisions/0036).
  app.use(function requestId(req, res, next) {
    // Every log line of this request carries its id; the browser gets it to quote.
    const requestId = newRequestId()
    res.setHeader('X-Request-Id', requestId)
    // With tracing on (decisions/0036), server/tracing.js puts this header's id on the request's span.
    runWithRequestId(requestId, next, req.method, res.locals.route as RouteLabel | undefined)
  })
  app.use(allowedMethods())
  app.use(sameOriginWrites({ appOrigin: new URL(env.APP_URL).origin, exemptPrefixes: TOKEN_AUTHENTICATED_PATHS }))
  app.use(bodySizeLimit({ maxBytes: MAX_FORM_BODY_BYTES }))
  app.get('/notificaciones/stream', fetchRoute(notificationStream, 'notification stream'))
  app.get(EXPORT_PATH, fetchRoute(exportMembers, 'members export'))
  app.put(
    `${UPLOAD_PATH}:uploadId`,
    fetchRoute((request, { uploadId }) => handleVideoUpload(request, String(uploadId)), 'video chunk'),
  )
  const pages = createRequestHandler({
    // The build itself, not a function returning it: given a function, React Router derives its
    // routes, static handler and ranked branches again on every request (about a tenth of a
    // page's CPU time, measured on /legal).
    build: serverBuild,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
  })
  app.use(function reactRouter(req, res, next) {
    return pages(req, res, next)
  })
  return app
}
