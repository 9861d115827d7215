import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { communityPosts } from '~/features/feed/schema'
import type { CurrentUser } from '~/features/account/guards.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { enqueueRenderedMail, type RenderedMail } from '~/platform/mail/mail.server'
import { scheduleActivityEmail, scheduleActivityEmailsForEveryone } from './activity-email.server'
import { displayName } from '~/features/account/display-name'
import type { NotificationView } from './grouping'
import { byEmail, byPush, topicOf } from './preferences'
import { deliveryFor, deliveryOf, emailedSql } from './preferences.server'
import { queuePush, queuePushForEveryone } from '~/features/push/queue.server'
import { notifications, notificationSettings } from './schema'
import { NOTIFICATION_COLUMNS } from './views.server'
import { profiles, publicProfileColumns } from '~/features/account/schema'
import { publishInTransaction } from '~/platform/realtime.server'

type NotificationType = (typeof notifications.$inferInsert)['type']

/** Spec: the bell reads at most 50, shows 10. */
export const NOTIFICATION_FETCH_LIMIT = 50

/**
 * Creates a notification inside the action's transaction, never for one's own action nor for a
 * topic the recipient set to 'Nada', and announces it to the recipient's open streams once the
 * transaction commits. One the recipient wants by e-mail waits for their next activity e-mail,
 * or, when the caller brings its own e-mail, that one is queued instead.
 */
export async function notifyInTransaction(
  tx: DbExecutor,
  notification: {
    /** Null when the account it was for is gone (a deleted member's post): nobody is told. */
    recipientId: string | null
    /** Null when nobody did it (a place freed in an event's queue). */
    actorId: string | null
    type: NotificationType
    title: string
    message: string
    postId?: string | null
    commentId?: string | null
    sessionId?: string | null
    eventId?: string | null
    /** Whom the words name, if not the actor: it goes with their account. */
    subjectUserId?: string | null
    /** The application whose applicant the words name: it goes with it. */
    applicationId?: string | null
    /**
     * Its own e-mail, rendered before the transaction (an event reminder cannot wait for the batch):
     * queued if the recipient wants the topic by e-mail.
     */
    email?: RenderedMail
  },
) {
  if (!notification.recipientId || notification.recipientId === notification.actorId) return
  const topic = topicOf(notification.type)
  const delivery = topic ? await deliveryFor(tx, notification.recipientId, topic) : 'web'
  if (delivery === 'off') return
  const emailPending = byEmail(delivery) && !notification.email
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
      subjectUserId: notification.subjectUserId ?? null,
      applicationId: notification.applicationId ?? null,
      emailPending,
    })
    .returning({ id: notifications.id })
  if (emailPending) await scheduleActivityEmail(tx, notification.recipientId)
  if (byEmail(delivery) && notification.email) await enqueueRenderedMail(notification.email, tx)
  if (byPush(delivery)) await queuePush(tx, notification.recipientId, created!.id)
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
  const delivery = deliveryOf(topicOf(notification.type)!)
  await tx.execute(sql`
    insert into ${notifications} (user_id, actor_user_id, type, title, message, related_session_id, related_event_id, email_pending)
    select ${profiles.userId}, ${notification.actorId}, ${notification.type}, ${notification.title}, ${notification.message},
      ${notification.sessionId ?? null}, ${notification.eventId ?? null}, ${emailedSql(delivery)}
    from ${profiles} join ${notificationSettings} on ${notificationSettings.userId} = ${profiles.userId}
    where ${profiles.userId} is distinct from ${notification.actorId} and ${delivery} <> 'off'`)
  await scheduleActivityEmailsForEveryone(tx, `${notification.type}:${notification.sessionId ?? notification.eventId}`)
  await queuePushForEveryone(tx, { type: notification.type, sessionId: notification.sessionId, eventId: notification.eventId })
  await publishInTransaction(tx, { type: 'notification-for-everyone' })
}

/**
 * A page of the recipient's notifications, newest first (optionally only the unread), with each
 * actor's public name and photo and the post's title: one query. One more row than asked
 * tells whether an older page exists.
 */
export async function listNotifications(userId: string, { limit = NOTIFICATION_FETCH_LIMIT, page = 1, unreadOnly = false } = {}) {
  const rows = await getDb()
    .select({
      ...NOTIFICATION_COLUMNS,
      postTitle: communityPosts.title,
      // A deleted actor's profile is gone: the notification stays, its actor null (Drizzle nulls a
      // left-joined table's object when its first column is null).
      actor: { userId: profiles.userId, ...publicProfileColumns },
    })
    .from(notifications)
    .leftJoin(communityPosts, eq(communityPosts.id, notifications.relatedPostId))
    .leftJoin(profiles, eq(profiles.userId, notifications.actorUserId))
    .where(and(eq(notifications.userId, userId), unreadOnly ? eq(notifications.isRead, false) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1)
    .offset((Math.max(page, 1) - 1) * limit)
  return {
    items: rows.slice(0, limit),
    hasMore: rows.length > limit,
  }
}

const NotificationIntent = z.discriminatedUnion('intent', [
  // One notification, or a group of them (the bell marks a group read at once).
  z.object({ intent: z.literal('mark-read'), notificationId: z.union([z.uuid(), z.array(z.uuid()).min(1).max(50)]) }),
  z.object({ intent: z.literal('mark-all-read') }),
])

/** Reading one's notifications is no participation: open in read-only mode (decisions/0029). */
const OPEN_WHILE_SUSPENDED = ['mark-read', 'mark-all-read'] as const satisfies ReadonlyArray<z.output<typeof NotificationIntent>['intent']>

/** Only the recipient's own rows match: another member's ids are not found. */
/** The bell's and /notificaciones' action: mark one (or a group) read, or all. */
export function notificationAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    NotificationIntent,
    {
      'mark-read': { invalid: 'Solicitud no válida', run: (input) => markReadIntent(user, input) },
      'mark-all-read': { invalid: 'Solicitud no válida', run: () => markAllReadIntent(user) },
    },
    { openWhileSuspended: OPEN_WHILE_SUSPENDED },
  )
}

async function markReadIntent(user: CurrentUser, { notificationId }: { notificationId: string | string[] }) {
  const marked = await getDb()
    .update(notifications)
    .set({ isRead: true })
    .where(
      and(inArray(notifications.id, Array.isArray(notificationId) ? notificationId : [notificationId]), eq(notifications.userId, user.id)),
    )
    .returning({ id: notifications.id })
  if (marked.length === 0) refuse(404, 'Notificación no encontrada')
  const [unread] = await getDb()
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.isRead, false)))
  return success({ unreadCount: unread?.n ?? 0 })
}

async function markAllReadIntent(user: CurrentUser) {
  await getDb()
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, user.id), eq(notifications.isRead, false)))
  return success({ unreadCount: 0 }, { title: 'Todas las notificaciones están leídas' })
}

/**
 * A page of the member's notifications as the page and the bell show them (`pagina`, `solo=no-leidas`),
 * with the unread count the database keeps with every notification (migration 0008).
 */
export async function notificationPage(user: CurrentUser, params: URLSearchParams) {
  const requestedPage = Number.parseInt(params.get('pagina') ?? '1', 10)
  const page = Number.isInteger(requestedPage) && requestedPage > 0 ? Math.min(requestedPage, 1000) : 1
  const unreadOnly = params.get('solo') === 'no-leidas'
  // The count is read with the list, not taken from the member as the request found them: the
  // viewer is cached per process and forgotten a moment after a change, while the bell asks
  // again the instant a notification is announced.
  const [list, [counter]] = await Promise.all([
    listNotifications(user.id, { page, unreadOnly }),
    getDb().select({ unread: profiles.unreadNotifications }).from(profiles).where(eq(profiles.userId, user.id)),
  ])
  const items: NotificationView[] = list.items.map((item) => ({
    id: item.id,
    type: item.type,
    title: item.title,
    message: item.message,
    isRead: item.isRead,
    relatedPostId: item.relatedPostId,
    relatedCommentId: item.relatedCommentId,
    relatedSessionId: item.relatedSessionId,
    relatedEventId: item.relatedEventId,
    createdAt: item.createdAt.toISOString(),
    actor: item.actor ? { name: displayName(item.actor), avatarUrl: item.actor.avatarUrl } : null,
  }))
  // A member without a profile has none.
  return { unreadCount: counter?.unread ?? 0, items, page, hasMore: list.hasMore, unreadOnly }
}
