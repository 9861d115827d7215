import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { communityPosts } from '~/features/feed/schema'
import { scheduleActivityEmail, scheduleActivityEmailsForEveryone } from './activity-email.server'
import { topicOf } from './preferences'
import { notifications, notificationSettings } from './schema'
import { profiles } from '~/features/account/schema'
import { publishInTransaction } from '~/platform/realtime.server'

type NotificationType = (typeof notifications.$inferInsert)['type']

/** Spec: the bell reads at most 50, shows 10. */
export const NOTIFICATION_FETCH_LIMIT = 50

/**
 * Creates a notification inside the action's transaction, never for one's own action nor for a
 * topic the recipient set to 'Nada', and announces it to the recipient's open streams once the
 * transaction commits. One the recipient wants by e-mail waits for their next activity e-mail.
 */
export async function notifyInTransaction(
  tx: DbExecutor,
  notification: {
    recipientId: string
    /** Null when nobody did it (a place freed in an event's queue). */
    actorId: string | null
    type: NotificationType
    title: string
    message: string
    postId?: string | null
    commentId?: string | null
    sessionId?: string | null
    eventId?: string | null
    /** The caller e-mails it on its own (an event reminder cannot wait for the batch). */
    emailedSeparately?: boolean
  },
) {
  if (notification.recipientId === notification.actorId) return
  const topic = topicOf(notification.type)
  let emailPending = false
  if (topic) {
    const [recipient] = await tx
      .select({ channel: notificationSettings[topic], emailOn: profiles.emailNotifications })
      .from(notificationSettings)
      .innerJoin(profiles, eq(profiles.userId, notificationSettings.userId))
      .where(eq(notificationSettings.userId, notification.recipientId))
    if (recipient?.channel === 'off') return
    emailPending = recipient?.channel === 'email' && recipient.emailOn && !notification.emailedSeparately
  }
  // A like taken back and given again does not ring the bell twice.
  if (notification.type === 'like' || notification.type === 'comment_like') {
    const [existing] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, notification.recipientId),
          eq(notifications.actorUserId, notification.actorId ?? ''),
          eq(notifications.type, notification.type),
          notification.commentId
            ? eq(notifications.relatedCommentId, notification.commentId)
            : eq(notifications.relatedPostId, notification.postId ?? ''),
        ),
      )
      .limit(1)
    if (existing) return
  }
  const [created] = await tx
    .insert(notifications)
    .values({
      userId: notification.recipientId,
      actorUserId: notification.actorId,
      type: notification.type,
      title: notification.title,
      message: notification.message,
      relatedPostId: notification.postId ?? null,
      relatedCommentId: notification.commentId ?? null,
      relatedSessionId: notification.sessionId ?? null,
      relatedEventId: notification.eventId ?? null,
      emailPending,
    })
    .returning({ id: notifications.id })
  if (emailPending) await scheduleActivityEmail(tx, notification.recipientId)
  await publishInTransaction(tx, { type: 'notification', userId: notification.recipientId, notificationId: created!.id })
}

/**
 * One notification for every member with a profile but the actor and those who set the topic to
 * 'Nada' (a new session or event), in one statement, and one event that makes every open bell
 * look again; one job then e-mails those who want it.
 */
export async function notifyEveryoneInTransaction(
  tx: DbExecutor,
  notification: {
    actorId: string | null
    type: 'new_session' | 'new_event'
    title: string
    message: string
    sessionId?: string
    eventId?: string
  },
) {
  const channel = notificationSettings[topicOf(notification.type)!]
  await tx.execute(sql`
    insert into ${notifications} (user_id, actor_user_id, type, title, message, related_session_id, related_event_id, email_pending)
    select ${profiles.userId}, ${notification.actorId}, ${notification.type}, ${notification.title}, ${notification.message},
      ${notification.sessionId ?? null}, ${notification.eventId ?? null}, ${profiles.emailNotifications} and ${channel} = 'email'
    from ${profiles} join ${notificationSettings} on ${notificationSettings.userId} = ${profiles.userId}
    where ${profiles.userId} is distinct from ${notification.actorId} and ${channel} <> 'off'`)
  await scheduleActivityEmailsForEveryone(tx, `${notification.type}:${notification.sessionId ?? notification.eventId}`)
  await publishInTransaction(tx, { type: 'notification-for-everyone' })
}

export async function countUnread(userId: string) {
  const [row] = await getDb()
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
  return row?.n ?? 0
}

/** What a notification is shown with, in the bell, on /notificaciones and in e-mail. */
export const NOTIFICATION_COLUMNS = {
  id: notifications.id,
  type: notifications.type,
  title: notifications.title,
  message: notifications.message,
  isRead: notifications.isRead,
  relatedPostId: notifications.relatedPostId,
  relatedCommentId: notifications.relatedCommentId,
  relatedSessionId: notifications.relatedSessionId,
  relatedEventId: notifications.relatedEventId,
  actorUserId: notifications.actorUserId,
  createdAt: notifications.createdAt,
}

/** The public name and photo of the notifications' actors, by user id: one query. */
export async function actorsOf(executor: DbExecutor, items: Array<{ actorUserId: string | null }>) {
  const actorIds = [...new Set(items.map((item) => item.actorUserId).filter((id): id is string => Boolean(id)))]
  const actors = actorIds.length
    ? await executor
        .select({
          userId: profiles.userId,
          firstName: profiles.firstName,
          lastName: profiles.lastName,
          displayName: profiles.displayName,
          avatarUrl: profiles.avatarUrl,
        })
        .from(profiles)
        .where(inArray(profiles.userId, actorIds))
    : []
  return new Map(actors.map((actor) => [actor.userId, actor]))
}

/**
 * A page of the recipient's notifications, newest first (optionally only the unread), with each
 * actor's public name and photo and the post's title: two queries. One more row than asked
 * tells whether an older page exists.
 */
export async function listNotifications(userId: string, { limit = NOTIFICATION_FETCH_LIMIT, page = 1, unreadOnly = false } = {}) {
  const db = getDb()
  const rows = await db
    .select({ ...NOTIFICATION_COLUMNS, postTitle: communityPosts.title })
    .from(notifications)
    .leftJoin(communityPosts, eq(communityPosts.id, notifications.relatedPostId))
    .where(and(eq(notifications.userId, userId), unreadOnly ? eq(notifications.isRead, false) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1)
    .offset((Math.max(page, 1) - 1) * limit)
  const shown = rows.slice(0, limit)
  const actorById = await actorsOf(db, shown)
  return {
    items: shown.map((row) => ({ ...row, actor: row.actorUserId ? (actorById.get(row.actorUserId) ?? null) : null })),
    hasMore: rows.length > limit,
  }
}

/** Only the recipient's own rows match: another user's ids change nothing. Returns how many matched. */
export async function markNotificationsRead(userId: string, notificationIds: string[]) {
  const updated = await getDb()
    .update(notifications)
    .set({ isRead: true })
    .where(and(inArray(notifications.id, notificationIds), eq(notifications.userId, userId)))
    .returning({ id: notifications.id })
  return updated.length
}

export async function markAllNotificationsRead(userId: string) {
  await getDb()
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
}
