import { lt, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { refuse } from '~/platform/http/responses.server'
import { rateLimits } from './schema'

export interface RateLimitRule {
  /** What is being limited, e.g. `sign-in:ip:1.2.3.4`. */
  key: string
  max: number
  windowSeconds: number
}

/**
 * Counts one attempt in a fixed window and tells whether it is allowed: one atomic upsert in
 * the database, so the limit holds across restarts and across app processes on PostgreSQL.
 */
async function hitRateLimit({ key, max, windowSeconds }: RateLimitRule) {
  const [row] = await getDb()
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds}::double precision) then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds}::double precision) then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from (${rateLimits.windowStart} + make_interval(secs => ${windowSeconds}::double precision) - now()))))::int`,
    })
  return { allowed: row!.count <= max, retryAfterSeconds: Number(row!.retryAfterSeconds) }
}

function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return `Demasiados intentos. Espera ${minutes === 1 ? '1 minuto' : `${minutes} minutos`} y vuelve a intentarlo.`
}

/** Applies every rule; returns the Spanish message and wait of the first one exceeded, or null. */
export async function checkRateLimits(rules: RateLimitRule[]) {
  for (const rule of rules) {
    const { allowed, retryAfterSeconds } = await hitRateLimit(rule)
    if (!allowed) return { message: tooManyAttemptsMessage(retryAfterSeconds), retryAfterSeconds }
  }
  return null
}

/** Applies every rule and refuses the request (429, with Retry-After) when one is exceeded. */
export async function enforceRateLimits(rules: RateLimitRule[]) {
  const limited = await checkRateLimits(rules)
  if (limited) refuse(429, limited.message, { headers: { 'Retry-After': String(limited.retryAfterSeconds) } })
}

/** Windows long past say nothing any more (run by the daily housekeeping job). */
export async function deleteExpiredRateLimits() {
  await getDb()
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`))
}
