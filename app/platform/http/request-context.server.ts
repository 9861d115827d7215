import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'

/**
 * The request being served, for the log: every line written while serving it carries its id,
 * and the id is also sent to the browser (X-Request-Id) and shown on error pages, so a member's
 * report leads to the right log lines without the detail ever reaching the member.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>()

export function newRequestId() {
  return randomBytes(6).toString('base64url')
}

export function runWithRequestId<T>(requestId: string, run: () => T) {
  return storage.run({ requestId }, run)
}

export function currentRequestId() {
  return storage.getStore()?.requestId
}
