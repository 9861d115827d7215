import { and, eq, lt, sql } from 'drizzle-orm'
import webpush from 'web-push'
import { messagePushFor } from '~/features/messages/push.server'
import { notifications } from '~/features/notifications/schema'
import { NOTIFICATION_COLUMNS } from '~/features/notifications/views.server'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { payloadOf, pushMessageOf } from './message'
import { pushSubscriptions } from './schema'

/** A subscription whose every delivery failed for this long is removed (its device is gone or broken). */
export const FAILING_FOR_MS = 3 * 24 * 60 * 60 * 1000
/** How long a push service keeps a message for a device that is off: a day-old notice is no news. */
const TIME_TO_LIVE_SECONDS = 24 * 60 * 60
const SEND_TIMEOUT_MS = 10_000

/** A push service said when to come back (429 with Retry-After, or a 503 with it). */
export class RetryLater extends Error {
  constructor(
    readonly seconds: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Backs off 30 s doubling to an hour, or as the push service asked; gives up after 10 tries (about
 * four hours: a notification that late is not worth a buzz). The subscription itself goes after
 * 3 days of failures, whichever notification finds it so.
 */
export function pushRetry(attempts: number, error: unknown) {
  if (attempts >= 10) return null
  if (error instanceof RetryLater) return Math.min(Math.max(error.seconds, 1), 24 * 60 * 60)
  return Math.min(30 * 2 ** (attempts - 1), 3600)
}

/** What a push is about: a notification (its id), or a private message, which is none (issue 42). */
export type PushAbout = string | { messageId: string }

/**
 * One notification or private message to one device (queued by queue.server.ts, at the end of
 * quiet hours if need be). The one sender of pushes: both are sent, retried and counted alike.
 */
export const pushDeliveryJob = defineJob<{ subscriptionId: string; notificationId?: string; messageId?: string }>({
  name: 'push.deliver',
  label: 'Notificación push',
  retry: pushRetry,
  run: ({ subscriptionId, notificationId, messageId }) => deliver(subscriptionId, messageId ? { messageId } : notificationId!),
})

export async function deliver(subscriptionId: string, about: PushAbout) {
  const vapid = getEnv().vapid
  const [subscription] = await getDb()
    .select({
      id: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, subscriptionId))
  // The device was turned off, or the keys removed from the configuration: nothing to send.
  if (!subscription || !vapid) return
  // Read for the subscription's member now: it may have passed to another member since (another
  // sign-in on that browser), who is told nothing of the first one's.
  const message =
    typeof about === 'string'
      ? await notificationPush(about, subscription.userId)
      : await messagePushFor(about.messageId, subscription.userId)
  if (!message) return
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payloadOf(message),
    { vapidDetails: vapid, TTL: TIME_TO_LIVE_SECONDS, urgency: 'normal', contentEncoding: 'aes128gcm' },
  )
  let response: Response
  try {
    response = await fetch(request.endpoint, {
      method: request.method,
      // fetch sets the length itself.
      headers: Object.fromEntries(
        Object.entries(request.headers)
          .filter(([name]) => name !== 'Content-Length')
          .map(([name, value]) => [name, String(value)]),
      ),
      body: request.body ? new Uint8Array(request.body) : null,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
  } catch (error) {
    await failed(subscription.id, `network: ${String(error)}`)
    throw error
  }
  await response.body?.cancel().catch(() => undefined)
  if (response.ok) {
    await getDb()
      .update(pushSubscriptions)
      .set({ lastSuccessAt: sql`now()`, failingSince: null, failures: 0 })
      .where(eq(pushSubscriptions.id, subscription.id))
    return
  }
  // RFC 8030: the subscription expired or was unsubscribed (the browser's data cleared, the app removed).
  if (response.status === 404 || response.status === 410) {
    await getDb().delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id))
    logger.info({ status: response.status, subscriptionId }, 'Push subscription gone: removed')
    return
  }
  const removed = await failed(subscription.id, `HTTP ${response.status}`)
  if (removed) return
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'))
  if (response.status === 429 || (response.status >= 500 && retryAfter !== null)) {
    throw new RetryLater(retryAfter ?? 60, `Push service answered ${response.status}`)
  }
  if (response.status >= 500) throw new Error(`Push service answered ${response.status}`)
  // Another 4xx (a malformed request, a wrong key): sending it again would fail again.
  logger.warn({ status: response.status, subscriptionId }, 'Push refused by the push service')
}

async function notificationPush(notificationId: string, userId: string) {
  const [notification] = await getDb()
    .select(NOTIFICATION_COLUMNS)
    .from(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
  // Gone with what it was about, or already read in the bell (quiet hours kept it till morning).
  if (!notification || notification.isRead) return null
  return pushMessageOf(notification)
}

/** Counts a failure; a subscription failing for 3 days is removed (true then). */
async function failed(subscriptionId: string, reason: string) {
  const [row] = await getDb()
    .update(pushSubscriptions)
    .set({ failures: sql`${pushSubscriptions.failures} + 1`, failingSince: sql`coalesce(${pushSubscriptions.failingSince}, now())` })
    .where(eq(pushSubscriptions.id, subscriptionId))
    .returning({ failingSince: pushSubscriptions.failingSince })
  if (!row?.failingSince || Date.now() - row.failingSince.getTime() < FAILING_FOR_MS) return false
  await getDb()
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, subscriptionId), lt(pushSubscriptions.failingSince, new Date(Date.now() - FAILING_FOR_MS))))
  logger.info({ subscriptionId, reason }, 'Push subscription failing for 3 days: removed')
  return true
}

/** Retry-After in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null) {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}
