import { migrationsApplied, pingDatabase } from '~/platform/db/client.server'
import { logger } from '~/platform/logger.server'
import { measureReadiness } from '~/platform/metrics/metrics.server'

/**
 * `/readyz`, for load balancers (decisions/0036): 200 only while this process serves, its
 * database answers and every migration this version ships is applied; 503 with Retry-After while
 * it starts, while it drains after a stop signal (flipped before it stops listening, so the
 * balancer stops sending first), or while the database is away. `/healthz` stays the cheap
 * liveness answer. Answered by Express before anything else: no session, no rate limit, no log.
 */
export type Readiness = 'ready' | 'starting' | 'draining' | 'database'

let phase: 'starting' | 'serving' | 'draining' = 'starting'
// Checked once: the migrations of a running version do not come undone (a restore of an older
// backup is a restart).
let migrationsChecked = false

/** Start-up is done: the process serves. */
export function markServing() {
  if (phase === 'starting') phase = 'serving'
}

/** A stop began: the process finishes what it has and takes nothing new. */
export function markDraining() {
  phase = 'draining'
}

/** Tests only: back to a process that has just started. */
export function resetReadiness() {
  phase = 'starting'
  migrationsChecked = false
}

export async function readiness(): Promise<Readiness> {
  if (phase !== 'serving') return phase
  if (!migrationsChecked) {
    const applied = await migrationsApplied().catch(() => null)
    if (applied === null) return 'database'
    if (!applied) {
      logger.warn('Not ready: the database lacks migrations this version ships (another version migrated it back?)')
      return 'database'
    }
    migrationsChecked = true
  }
  return (await pingDatabase()) ? 'ready' : 'database'
}

measureReadiness(async () => (await readiness()) === 'ready')

export const READINESS_RETRY_AFTER_SECONDS = 5

/** What /readyz answers: JSON with the status, never cached. */
export async function readinessResponse(): Promise<Response> {
  const status = await readiness()
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' }
  if (status !== 'ready') headers['Retry-After'] = String(READINESS_RETRY_AFTER_SECONDS)
  return Response.json({ status }, { status: status === 'ready' ? 200 : 503, headers })
}

export function isReady() {
  return phase === 'serving'
}
