import { and, eq, sql } from 'drizzle-orm'
import { profiles } from '~/features/account/schema'
import { byPush, topicOf } from '~/features/notifications/preferences'
import { deliveryOf } from '~/features/notifications/preferences.server'
import { notifications, notificationSettings } from '~/features/notifications/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { type PushAbout, pushDeliveryJob } from './delivery.server'
import { pushTime } from './quiet-hours'
import { pushSubscriptions } from './schema'

const QUIET_HOURS = {
  timeZone: notificationSettings.timeZone,
  start: notificationSettings.quietStart,
  end: notificationSettings.quietEnd,
}

/**
 * Called by the notification fan-out (notifyInTransaction) for a recipient who wants the topic
 * by push, and by sendMessage for a private message (which is no notification: `{ messageId }`):
 * one delivery per device, in the same transaction, due now or when their quiet hours end.
 */
export async function queuePush(tx: DbExecutor, recipientId: string, about: PushAbout) {
  if (!getEnv().vapid) return
  const devices = await tx
    .select({ id: pushSubscriptions.id, ...QUIET_HOURS })
    .from(pushSubscriptions)
    .innerJoin(notificationSettings, eq(notificationSettings.userId, pushSubscriptions.userId))
    .where(eq(pushSubscriptions.userId, recipientId))
  const subject = typeof about === 'string' ? { notificationId: about } : about
  for (const device of devices) {
    await enqueue(pushDeliveryJob, { subscriptionId: device.id, ...subject }, { executor: tx, runAt: pushTime(new Date(), device) })
  }
}

type Broadcast = { type: 'new_session' | 'new_event'; sessionId?: string; eventId?: string }

/**
 * A notification for everyone (a new session or event, notifyEveryoneInTransaction): one job,
 * queued with it, finds who wants it by push once it has committed.
 */
export async function queuePushForEveryone(tx: DbExecutor, broadcast: Broadcast) {
  if (!getEnv().vapid) return
  await enqueue(pushBroadcastJob, broadcast, { executor: tx, dedupeKey: `${broadcast.type}:${broadcast.sessionId ?? broadcast.eventId}` })
}

export const pushBroadcastJob = defineJob<Broadcast>({
  name: 'push.broadcast',
  label: 'Notificaciones push para todos',
  async run({ type, sessionId, eventId }) {
    const delivery = deliveryOf(topicOf(type)!)
    // The session's or event's notifications (their partial indexes), of members with a device and push chosen.
    const rows = await getDb()
      .select({ subscriptionId: pushSubscriptions.id, notificationId: notifications.id, ...QUIET_HOURS, delivery })
      .from(notifications)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.userId, notifications.userId))
      .innerJoin(notificationSettings, eq(notificationSettings.userId, notifications.userId))
      .innerJoin(profiles, eq(profiles.userId, notifications.userId))
      .where(
        and(
          eq(notifications.type, type),
          sessionId ? eq(notifications.relatedSessionId, sessionId) : eq(notifications.relatedEventId, eventId ?? ''),
          sql`${delivery} in ('push', 'all')`,
        ),
      )
    const now = new Date()
    // Each delivery once, also when this job runs again after a failure half-way.
    for (const row of rows.filter((candidate) => byPush(candidate.delivery))) {
      await enqueue(
        pushDeliveryJob,
        { subscriptionId: row.subscriptionId, notificationId: row.notificationId },
        { runAt: pushTime(now, row), dedupeKey: `${row.subscriptionId}:${row.notificationId}` },
      )
    }
  },
})
