import { and, asc, eq, lte, sql } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { profiles } from '~/features/account/schema'
import { user } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { ActivityEmail } from './emails/activity'
import { groupNotifications, linkOf, type NotificationView } from './grouping'
import { actorsOf, NOTIFICATION_COLUMNS } from './notifications.server'
import { listLabel, type Topic, topicOf } from './preferences'
import { TOPIC_COLUMNS } from './preferences.server'
import { notifications, notificationSettings } from './schema'
import { unsubscribeHeaders, unsubscribeUrl } from './unsubscribe.server'

/**
 * Notification e-mail (issue 14). A notification the member wants by e-mail is stored with
 * `email_pending`; the first one of a burst schedules one job for EMAIL_BATCH_SECONDS later, and
 * that job sends everything pending then in one e-mail, minus what the member has already read on
 * the site. The settings row is the recipient's lock: a notification being added and a batch
 * being sent take turns, so each pending notification is in exactly one batch.
 */
export const activityEmailJob = defineJob<{ userId?: string }>({
  name: 'notifications.activity-email',
  async run({ userId }) {
    if (userId) await sendActivityEmail(userId)
    else await sendDueActivityEmails()
  },
})

const batchSeconds = () => getEnv().EMAIL_BATCH_SECONDS

/** Called in the transaction that added a pending notification for `userId`. */
export async function scheduleActivityEmail(tx: DbExecutor, userId: string) {
  await tx
    .select({ userId: notificationSettings.userId })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId))
    .for('update')
  // The burst is named by its oldest pending notification: the rest of it finds the job queued.
  const [oldest] = await tx
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.emailPending, true)))
    .orderBy(asc(notifications.createdAt), asc(notifications.id))
    .limit(1)
  if (!oldest) return
  await enqueue(
    activityEmailJob,
    { userId },
    { runAt: new Date(Date.now() + batchSeconds() * 1000), dedupeKey: `${userId}:${oldest.id}`, executor: tx },
  )
}

/**
 * A notification for everyone (a new session or event) schedules one job, not one per member:
 * it sends the batches of every member whose oldest pending notification has waited long enough.
 */
export async function scheduleActivityEmailsForEveryone(tx: DbExecutor, key: string) {
  await enqueue(activityEmailJob, {}, { runAt: new Date(Date.now() + batchSeconds() * 1000), dedupeKey: `everyone:${key}`, executor: tx })
}

const SWEEP_PAGE = 100

async function sendDueActivityEmails() {
  for (;;) {
    const due = await getDb()
      .selectDistinct({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.emailPending, true), lte(notifications.createdAt, sql`now() - make_interval(secs => ${batchSeconds()})`)))
      .limit(SWEEP_PAGE)
    for (const { userId } of due) await sendActivityEmail(userId)
    if (due.length < SWEEP_PAGE) return
  }
}

/** Sends the member's pending notifications as one e-mail; returns whether one was queued. */
export async function sendActivityEmail(userId: string) {
  return getDb().transaction(async (tx) => {
    const [recipient] = await tx
      .select({
        email: user.email,
        firstName: profiles.firstName,
        emailOn: profiles.emailNotifications,
        ...TOPIC_COLUMNS,
      })
      .from(notificationSettings)
      .innerJoin(user, eq(user.id, notificationSettings.userId))
      .innerJoin(profiles, eq(profiles.userId, notificationSettings.userId))
      .where(eq(notificationSettings.userId, userId))
      .for('update', { of: notificationSettings })
    const batch = await tx
      .update(notifications)
      .set({ emailPending: false })
      .where(and(eq(notifications.userId, userId), eq(notifications.emailPending, true)))
      .returning(NOTIFICATION_COLUMNS)
    if (!recipient?.emailOn) return false
    // Preferences are read again now: a topic switched to 'Solo en la web' meanwhile is not sent.
    const wanted = batch.filter((item) => {
      const topic = topicOf(item.type)
      return !item.isRead && topic !== null && recipient[topic] === 'email'
    })
    if (wanted.length === 0) return false

    const actors = await actorsOf(tx, wanted)
    const views: NotificationView[] = wanted
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((item) => ({
        ...item,
        createdAt: item.createdAt.toISOString(),
        actor: item.actorUserId
          ? { name: actors.has(item.actorUserId) ? displayName(actors.get(item.actorUserId)!) : 'Un miembro', avatarUrl: null }
          : null,
      }))
    const groups = groupNotifications(views)
    const topics = [...new Set(wanted.map((item) => topicOf(item.type)!))] as Topic[]
    const unsubscribe = topics.map((topic) => ({ label: listLabel(topic), url: unsubscribeUrl(userId, [topic]) }))
    const first = groups[0]!
    const subject = groups.length === 1 ? `${first.latest.title}: ${first.message}` : `Tienes ${groups.length} novedades en la comunidad`
    await enqueueMail(
      {
        to: recipient.email,
        subject: subject.length > 140 ? `${subject.slice(0, 139)}…` : subject,
        email: ActivityEmail({
          firstName: recipient.firstName,
          items: groups.map((group) => ({
            title: group.latest.title,
            message: group.message,
            url: `${getEnv().APP_URL}${linkOf(group.latest, { exactComment: true }) ?? '/notificaciones'}`,
            linkText: linkTextOf(group.latest),
          })),
          notificationsUrl: `${getEnv().APP_URL}/notificaciones`,
          unsubscribe: { lists: unsubscribe, preferencesUrl: `${getEnv().APP_URL}/perfil#notificaciones` },
        }),
        // One link per topic in the footer; the mail client's button stops them all at once.
        headers: unsubscribeHeaders(unsubscribeUrl(userId, topics)),
        dedupeKey: `activity:${userId}:${wanted.map((item) => item.id).sort()[0]}`,
      },
      tx,
    )
    return true
  })
}

/** Each link says where it goes (a screen reader lists links by their text). */
function linkTextOf(item: NotificationView) {
  if (item.relatedCommentId) return 'Ver el comentario'
  if (item.relatedPostId) return 'Ver la publicación'
  if (item.relatedEventId) return 'Ver el evento'
  if (item.relatedSessionId) return 'Ver la sesión'
  return 'Ver mis notificaciones'
}
