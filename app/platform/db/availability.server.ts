/**
 * Whether an error says the database is not there (refused, dropped, timed out, shutting down)
 * rather than that a query was wrong. The first is a passing failure: the member gets a 503 with
 * Retry-After and keeps what they typed; the second is a bug, a 500 in the log.
 */

// Network errors of the driver, and PostgreSQL's connection-exception (08…), operator-intervention
// (57P0…: admin or crash shutdown, cannot connect now) and too-many-connections classes.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])
// What node-postgres and PGlite say without a code: a connection ended under a query, a pool
// that could not connect in time, a client whose connection broke, an engine already closed.
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed|database is not open/i

// Errors raised while opening or acquiring a connection (client.server.ts marks them): a database
// that cannot be reached is away whatever it answers — shutting down, closed for maintenance
// (55000), full (53300), its role or itself missing after a restore (28000, 3D000) — while the same
// codes from a query in progress may be a bug. A registered symbol: a module reloaded in
// development still recognises the errors marked before.
const WHILE_CONNECTING = Symbol.for('circulo.database.failedWhileConnecting')

export function failedWhileConnecting<T>(error: T): T {
  if (error && typeof error === 'object') Object.assign(error, { [WHILE_CONNECTING]: true })
  return error
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false
  if (WHILE_CONNECTING in error) return true
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true
  if (error instanceof Error && CONNECTION_MESSAGES.test(error.message)) return true
  // Connecting to "localhost" tries ::1 and 127.0.0.1: both refusals come as one AggregateError.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true
  // Drizzle wraps the driver's error as the cause of its own.
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1)
}

/** What a test's fault switch throws by default: what node-postgres says when nothing listens. */
export function connectionRefused() {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432 (a fault injected by a test)'), { code: 'ECONNREFUSED' })
}
