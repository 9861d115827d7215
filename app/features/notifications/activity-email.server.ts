import { and, asc, eq, inArray, lte, sql, TransactionRollbackError } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { profiles, recipientColumns } from '~/features/account/schema'
import { user } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { enqueueRenderedMail, type OutgoingMail, renderMail } from '~/platform/mail/mail.server'
import { ActivityEmail } from './emails/activity'
import { groupNotifications, linkOf, type NotificationView } from './grouping'
import { byEmail, type Channel, type Topic, topicOf } from './preferences'
import { deliveries } from './preferences.server'
import { notifications, notificationSettings } from './schema'
import { emailUnsubscribe } from './unsubscribe.server'
import { actorsOf, NOTIFICATION_COLUMNS } from './views.server'

/**
 * Notification e-mail (issue 14). A notification the member wants by e-mail is stored with
 * `email_pending`; the first one of a burst schedules one job for EMAIL_BATCH_SECONDS later, and
 * that job sends everything pending then in one e-mail, minus what the member has already read on
 * the site. The settings row is the recipient's lock: a notification being added and a batch
 * being claimed take turns, so each pending notification is in exactly one batch.
 */
export const activityEmailJob = defineJob<{ userId?: string }>({
  name: 'notifications.activity-email',
  label: 'Correo de actividad',
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

/** Tries when what was read changes before it is claimed (another sender, a read, a preference). */
const CLAIM_TRIES = 3

/**
 * Sends the member's pending notifications as one e-mail; returns whether one was queued. The
 * e-mail is rendered from a plain reading, with no transaction open (on PGlite every other query
 * would wait); then, under the member's lock, the rows read are claimed and the e-mail queued only
 * if they are all still pending and what is wanted of them has not changed. Otherwise nothing is
 * kept and it reads again.
 */
export async function sendActivityEmail(userId: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const [recipient] = await getDb()
      .select({ ...recipientColumns, ...deliveries() })
      .from(notificationSettings)
      .innerJoin(user, eq(user.id, notificationSettings.userId))
      .innerJoin(profiles, eq(profiles.userId, notificationSettings.userId))
      .where(eq(notificationSettings.userId, userId))
    const pending = await getDb()
      .select(NOTIFICATION_COLUMNS)
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.emailPending, true)))
    if (pending.length === 0) return false
    const ids = pending.map((item) => item.id)
    const wanted = wantedOf(pending, recipient)
    const mail = recipient && wanted.length > 0 ? await renderMail(await activityMail(userId, recipient, wanted)) : null
    try {
      return await getDb().transaction(async (tx) => {
        const [locked] = await tx
          .select(deliveries())
          .from(notificationSettings)
          .innerJoin(profiles, eq(profiles.userId, notificationSettings.userId))
          .where(eq(notificationSettings.userId, userId))
          .for('update', { of: notificationSettings })
        const claimed = await tx
          .update(notifications)
          .set({ emailPending: false })
          .where(and(inArray(notifications.id, ids), eq(notifications.emailPending, true)))
          .returning({ id: notifications.id, type: notifications.type, isRead: notifications.isRead })
        if (claimed.length < ids.length || idsOf(wantedOf(claimed, locked)) !== idsOf(wanted)) tx.rollback()
        // Notifications added since the reading found this batch's job queued: they start the next.
        await scheduleActivityEmail(tx, userId)
        return mail ? enqueueRenderedMail(mail, tx) : false
      })
    } catch (error) {
      if (!(error instanceof TransactionRollbackError) || attempt === CLAIM_TRIES) throw error
    }
  }
}

type Notification = typeof notifications.$inferSelect

/** What goes by e-mail: unread, of a topic the member (still) wants by e-mail. */
function wantedOf<Row extends Pick<Notification, 'type' | 'isRead'>>(rows: Row[], delivery?: Record<Topic, Channel>) {
  return rows.filter((row) => {
    const topic = topicOf(row.type)
    return !row.isRead && topic !== null && byEmail(delivery?.[topic])
  })
}

const idsOf = (rows: Array<{ id: string }>) =>
  rows
    .map((row) => row.id)
    .sort()
    .join()

async function activityMail(
  userId: string,
  recipient: { email: string; firstName: string | null },
  wanted: Array<Pick<Notification, keyof typeof NOTIFICATION_COLUMNS>>,
): Promise<OutgoingMail> {
  const actors = await actorsOf(getDb(), wanted)
  const views: NotificationView[] = [...wanted]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map((item) => ({
      ...item,
      createdAt: item.createdAt.toISOString(),
      actor: item.actorUserId
        ? { name: actors.has(item.actorUserId) ? displayName(actors.get(item.actorUserId)!) : 'Un miembro', avatarUrl: null }
        : null,
    }))
  const groups = groupNotifications(views)
  const { headers, footer } = emailUnsubscribe(userId, [...new Set(wanted.map((item) => topicOf(item.type)!))])
  const first = groups[0]!
  const subject = groups.length === 1 ? `${first.latest.title}: ${first.message}` : `Tienes ${groups.length} novedades en la comunidad`
  return {
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
      unsubscribe: footer,
    }),
    headers,
    dedupeKey: `activity:${userId}:${idsOf(wanted).split(',')[0]}`,
  }
}

/** Each link says where it goes (a screen reader lists links by their text). */
function linkTextOf(item: NotificationView) {
  if (item.relatedCommentId) return 'Ver el comentario'
  if (item.relatedPostId) return 'Ver la publicación'
  if (item.relatedEventId) return 'Ver el evento'
  if (item.relatedSessionId) return 'Ver la sesión'
  if (item.type === 'admission_application') return 'Ver las solicitudes'
  return 'Ver mis notificaciones'
}
