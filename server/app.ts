import 'react-router'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import { closeDatabase, openDatabase } from '~/db/client.server'
import { grantRoleByEmail } from '~/models/role.server'
import { CLIENT_IP_HEADER } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { startMailWorker, stopMailWorker } from '~/utils/mail.server'
import { startRealtime, stopRealtime } from '~/utils/realtime.server'
import { press } from '~/content/landing'
import { bodySizeLimit, sameOriginWrites, securityHeaders, trustProxySetting } from './security'

declare module 'react-router' {
  interface AppLoadContext {
    cspNonce: string
  }
}

export { grantRoleByEmail, trustProxySetting }

/** Largest body of a request that is not a file upload (forms, JSON, webhooks). */
const MAX_FORM_BODY_BYTES = 1024 * 1024

/** Opens the database (taking the embedded lock, applying migrations) and starts workers. */
export async function startUp() {
  const env = getEnv()
  await openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: `${env.DATA_DIR.replace(/\/+$/, '')}/db` },
  )
  await startRealtime()
  startMailWorker()
  logger.info({ database: env.DATABASE_URL ? 'postgres' : 'pglite', appUrl: env.APP_URL }, 'Ready')
}

export async function shutDown() {
  // Open event streams end first, so the HTTP server can close.
  await stopRealtime()
  await stopMailWorker()
  await closeDatabase()
}

/** Opens only the database, for command-line tasks. */
export async function openForCli() {
  const env = getEnv()
  await openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, maxConnections: 1 }
      : { kind: 'pglite', dataDir: `${env.DATA_DIR.replace(/\/+$/, '')}/db` },
  )
}

export function createApp({ development }: { development: boolean }) {
  const env = getEnv()
  const app = express.Router()
  app.use(
    securityHeaders({ development, https: env.APP_URL.startsWith('https://'), frameSources: [new URL(press.podcast.embedUrl).origin] }),
  )
  app.use((req, _res, next) => {
    // One trustworthy client address for rate limits and sessions; a client cannot set it.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? 'unknown'
    next()
  })
  app.use(sameOriginWrites({ appOrigin: new URL(env.APP_URL).origin, exemptPrefixes: ['/api/webhooks/'] }))
  app.use(bodySizeLimit({ maxBytes: MAX_FORM_BODY_BYTES }))
  app.use(
    createRequestHandler({
      build: () => import('virtual:react-router/server-build'),
      getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
    }),
  )
  return app
}
