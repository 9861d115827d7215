import { getDatabase } from '~/platform/db/client.server'

/**
 * The signed-in member as the last request found them, kept by this process for a few seconds
 * by their session cookie: a member's pages then skip the two statements of the session and the
 * profile (on the embedded database, most of what a static page costs a signed-in member).
 *
 * Never stale for longer than a notification's trip: every change to what is kept — a session
 * revoked (signed out, another device closed, a password changed), the profile (premium, names,
 * the bell's count), a role, the account — notifies 'viewer_changed' with the member's id in the
 * same transaction (triggers of migration 0015), and every process forgets that member at once.
 * A missed notification (a LISTEN connection re-established) is bounded by the time to live.
 * Off until `startViewerCache()` listens: without the notifications nothing may be kept.
 */
const TIME_TO_LIVE_MS = 30_000
const MAX_ENTRIES = 10_000

interface Entry<T> {
  value: T
  userId: string
  until: number
}

const entries = new Map<string, Entry<unknown>>()
const tokensOf = new Map<string, Set<string>>()
let stopListening: (() => Promise<void>) | undefined

export async function startViewerCache() {
  stopListening = await getDatabase().listen('viewer_changed', forgetMember)
}

export async function stopViewerCache() {
  await stopListening?.()
  stopListening = undefined
  entries.clear()
  tokensOf.clear()
}

function forgetMember(userId: string) {
  for (const token of tokensOf.get(userId) ?? []) entries.delete(token)
  tokensOf.delete(userId)
}

function forget(token: string) {
  const entry = entries.get(token)
  if (!entry) return
  entries.delete(token)
  tokensOf.get(entry.userId)?.delete(token)
}

/** What was kept for this session token, or undefined. */
export function cachedViewer<T>(token: string): T | undefined {
  const entry = entries.get(token)
  if (!entry) return undefined
  if (entry.until > Date.now()) return entry.value as T
  forget(token)
  return undefined
}

/** Keeps `value` for the session `token` (nothing while the cache is not listening); `expiresAt` is the session's own end. */
export function keepViewer(token: string, userId: string, value: unknown, expiresAt: Date) {
  if (!stopListening) return
  // The oldest goes first: a Map iterates in insertion order.
  if (entries.size >= MAX_ENTRIES) forget(entries.keys().next().value!)
  entries.set(token, { value, userId, until: Math.min(Date.now() + TIME_TO_LIVE_MS, expiresAt.getTime()) })
  if (!tokensOf.has(userId)) tokensOf.set(userId, new Set())
  tokensOf.get(userId)!.add(token)
}
