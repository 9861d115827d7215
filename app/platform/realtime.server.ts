import { sql } from 'drizzle-orm'
import { type DbExecutor, getDatabase } from '~/platform/db/client.server'
import { logger } from './logger.server'
import { measureConnections } from './metrics/metrics.server'

/**
 * Real-time fan-out across app processes: a write commits a NOTIFY on one channel, every
 * process LISTENs on it and passes the event to the streams of the user it is for, or to every
 * open stream when it is for everyone (a post's new counters).
 */
const CHANNEL = 'app_events'

export type RealtimeEvent =
  | { type: 'notification'; userId: string; notificationId: string }
  | { type: 'notification-for-everyone' }
  | { type: 'post-stats'; postId: string; likeCount: number; commentCount: number }
  | { type: 'message'; userId: string; conversationId: string }

type Listener = (event: RealtimeEvent) => void
const listenersByUser = new Map<string, Set<Listener>>()
let stopListening: (() => Promise<void>) | undefined

export async function startRealtime() {
  stopListening = await getDatabase().listen(CHANNEL, (payload) => {
    let event: RealtimeEvent
    try {
      event = JSON.parse(payload) as RealtimeEvent
    } catch {
      return
    }
    const targets = 'userId' in event ? [listenersByUser.get(event.userId) ?? []] : listenersByUser.values()
    for (const listeners of targets) {
      for (const listener of listeners) {
        try {
          listener(event)
        } catch (error) {
          logger.warn({ err: error }, 'Realtime listener failed')
        }
      }
    }
  })
}

export async function stopRealtime() {
  await stopListening?.()
  stopListening = undefined
  for (const listeners of listenersByUser.values()) for (const listener of listeners) closers.get(listener)?.()
  listenersByUser.clear()
}

const closers = new WeakMap<Listener, () => void>()

/** Listens for one user's events; `onClose` runs when the server shuts down. Returns the unsubscribe. */
export function subscribe(userId: string, listener: Listener, onClose?: () => void) {
  let listeners = listenersByUser.get(userId)
  if (!listeners) {
    listeners = new Set()
    listenersByUser.set(userId, listeners)
  }
  listeners.add(listener)
  if (onClose) closers.set(listener, onClose)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) listenersByUser.delete(userId)
  }
}

/** Queues the event inside the caller's transaction: it is delivered only if the transaction commits. */
export async function publishInTransaction(tx: DbExecutor, event: RealtimeEvent) {
  await tx.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`)
}

measureConnections(() => openStreamCount())

export function openStreamCount(userId?: string) {
  if (userId) return listenersByUser.get(userId)?.size ?? 0
  let count = 0
  for (const listeners of listenersByUser.values()) count += listeners.size
  return count
}
