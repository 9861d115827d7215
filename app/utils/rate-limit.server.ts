import { sql } from 'drizzle-orm'
import { getDb } from '~/db/client.server'
import { CLIENT_IP_HEADER } from './auth.server'

export interface RateLimitRule {
  /** What is being limited, e.g. `sign-in:ip:1.2.3.4`. */
  key: string
  max: number
  windowSeconds: number
}

/**
 * Counts one attempt in a fixed window and tells whether it is allowed. One atomic
 * upsert in the database, so the limit holds across restarts and app processes. Uses
 * better-auth's table with an `app:` key prefix (there `last_request` is the window start).
 */
export async function hitRateLimit({ key, max, windowSeconds }: RateLimitRule) {
  const now = Date.now()
  const windowStartFloor = now - windowSeconds * 1000
  const result = await getDb().execute<{ count: number; window_start: string }>(sql`
    insert into rate_limit (id, key, count, last_request)
    values (gen_random_uuid()::text, ${`app:${key}`}, 1, ${now})
    on conflict (key) do update set
      count = case when rate_limit.last_request <= ${windowStartFloor} then 1 else rate_limit.count + 1 end,
      last_request = case when rate_limit.last_request <= ${windowStartFloor} then ${now} else rate_limit.last_request end
    returning count, last_request as window_start`)
  const row = result.rows[0]!
  const retryAfterSeconds = Math.max(1, Math.ceil((Number(row.window_start) + windowSeconds * 1000 - now) / 1000))
  return { allowed: Number(row.count) <= max, retryAfterSeconds }
}

export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? 'unknown'
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
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
