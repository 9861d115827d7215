import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'

/**
 * The request being served, for the log: every line written while serving it carries its id,
 * and the id is also sent to the browser (X-Request-Id) and shown on error pages, so a member's
 * report leads to the right log lines without the detail ever reaching the member.
 */
const storage = new AsyncLocalStorage<{ requestId: string; memo?: Map<string, unknown>; route?: RouteLabel }>()

/** The request's route pattern once a route has taken it (the metrics' label, never the URL). */
export interface RouteLabel {
  pattern?: string
}

export function newRequestId() {
  return randomBytes(6).toString('base64url')
}

/**
 * `method`: reads (GET, HEAD) share values computed once; a write's loaders run after its action
 * changed them. `route`: where the route that takes the request writes its pattern.
 */
export function runWithRequestId<T>(requestId: string, run: () => T, method = 'GET', route?: RouteLabel) {
  return storage.run({ requestId, memo: method === 'GET' || method === 'HEAD' ? new Map() : undefined, route }, run)
}

/** Called by the route that answers (React Router's instrumentation, an Express route): its pattern. */
export function noteRoutePattern(pattern: string) {
  const route = storage.getStore()?.route
  if (route) route.pattern = pattern
}

/**
 * Computes a value once per HTTP request (the signed-in user, which the root, the layout and
 * the page loaders all need and React Router runs in parallel, each with its own Request
 * object). Outside a request (tests calling a loader, scripts) it computes every time.
 */
export function oncePerRequest<T>(key: string, compute: () => T): T {
  const memo = storage.getStore()?.memo
  if (!memo) return compute()
  if (!memo.has(key)) memo.set(key, compute())
  return memo.get(key) as T
}

export function currentRequestId() {
  return storage.getStore()?.requestId
}
