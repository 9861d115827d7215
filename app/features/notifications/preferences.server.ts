import { eq, type SQL, sql } from 'drizzle-orm'
import { profiles } from '~/features/account/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { type Channel, type DigestFrequency, type MailingList, type Topic, TOPICS } from './preferences'
import { notificationSettings } from './schema'

export type Preferences = Record<Topic, Channel> & {
  digest: DigestFrequency
  timeZone: string | null
  quietStart: number
  quietEnd: number
}

/** Each topic's column (TOPICS in preferences.ts). */
const TOPIC_COLUMNS = {
  comments: notificationSettings.comments,
  replies: notificationSettings.replies,
  likes: notificationSettings.likes,
  sessions: notificationSettings.sessions,
  events: notificationSettings.events,
  myEvents: notificationSettings.myEvents,
  admissions: notificationSettings.admissions,
  reports: notificationSettings.reports,
  messages: notificationSettings.messages,
}

const PREFERENCE_COLUMNS = {
  ...TOPIC_COLUMNS,
  digest: notificationSettings.digest,
  timeZone: notificationSettings.timeZone,
  quietStart: notificationSettings.quietStart,
  quietEnd: notificationSettings.quietEnd,
}

/** What a member has before their row exists: the columns' own defaults (schema.ts), not a copy. */
const DEFAULTS = Object.fromEntries(Object.entries(PREFERENCE_COLUMNS).map(([key, column]) => [key, column.default ?? null])) as Preferences

/** The member's preferences; the table's defaults for one whose row does not exist yet. */
export async function getPreferences(userId: string): Promise<Preferences> {
  const [row] = await getDb().select(PREFERENCE_COLUMNS).from(notificationSettings).where(eq(notificationSettings.userId, userId))
  return row ?? DEFAULTS
}

/**
 * How a member hears of a topic, the one rule for the bell, e-mail and push: 'off' nothing, 'web'
 * the bell, 'email' the bell and e-mail, 'push' the bell and push, 'all' the three, but no e-mail
 * while 'Recibir notificaciones por email' is off ('email' is then 'web', 'all' is 'push'). In
 * SQL, so that a notification for everyone applies it in its one statement; the query joins
 * `profiles` to `notification_settings`.
 */
export function deliveryOf(topic: Topic) {
  const channel = TOPIC_COLUMNS[topic]
  return sql<Channel>`(case when not ${profiles.emailNotifications} and ${channel} = 'email' then 'web'::notification_channel
    when not ${profiles.emailNotifications} and ${channel} = 'all' then 'push'::notification_channel else ${channel} end)`
}

/** A delivery (deliveryOf) that e-mails, in SQL. */
export const emailedSql = (delivery: SQL<Channel>) => sql<boolean>`(${delivery} in ('email', 'all'))`

/** Every topic's delivery, to select at once. */
export const deliveries = () => Object.fromEntries(TOPICS.map(({ key }) => [key, deliveryOf(key)])) as Record<Topic, SQL<Channel>>

/** One member's delivery of one topic. */
export async function deliveryFor(executor: DbExecutor, userId: string, topic: Topic): Promise<Channel> {
  const [row] = await executor
    .select({ delivery: deliveryOf(topic) })
    .from(notificationSettings)
    .innerJoin(profiles, eq(profiles.userId, notificationSettings.userId))
    .where(eq(notificationSettings.userId, userId))
  // Preferences come with the profile (a trigger adds them): until then, the bell only.
  return row?.delivery ?? 'web'
}

/** Without a zone (a browser without the page's script), the known one stays; so do quiet hours not sent. */
export async function savePreferences(
  userId: string,
  preferences: Omit<Preferences, 'timeZone' | 'quietStart' | 'quietEnd'> & {
    timeZone?: string | null
    quietStart?: number
    quietEnd?: number
  },
) {
  // The digest's query reads the zone in SQL: one the database does not know would stop it for everyone.
  if (preferences.timeZone && !(await databaseKnowsZone(preferences.timeZone))) preferences = { ...preferences, timeZone: null }
  await getDb()
    .insert(notificationSettings)
    .values({ userId, ...preferences })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...preferences, updatedAt: sql`now()` } })
}

async function databaseKnowsZone(timeZone: string) {
  try {
    await getDb().execute(sql`select now() at time zone ${timeZone}`)
    return true
  } catch {
    return false
  }
}

/**
 * What an unsubscribe link does: each topic's e-mail stops and it stays in the bell (and in push,
 * for 'all'; a topic already 'Nada' stays so); the digest stops. Clicking twice changes nothing more.
 */
export async function unsubscribe(userId: string, lists: MailingList[]) {
  const set: Partial<Record<Topic, SQL>> & { digest?: 'never' } = {}
  for (const list of lists) {
    if (list === 'digest') set.digest = 'never'
    else
      set[list] = sql`case ${PREFERENCE_COLUMNS[list]} when 'email' then 'web'::notification_channel
        when 'all' then 'push'::notification_channel else ${PREFERENCE_COLUMNS[list]} end`
  }
  await getDb()
    .update(notificationSettings)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(notificationSettings.userId, userId))
}
