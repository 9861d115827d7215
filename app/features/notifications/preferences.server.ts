import { eq, type SQL, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import type { Channel, DigestFrequency, MailingList, Topic } from './preferences'
import { notificationSettings } from './schema'

export type Preferences = Record<Topic, Channel> & { digest: DigestFrequency; timeZone: string | null }

/** Each topic's column (TOPICS in preferences.ts). */
export const TOPIC_COLUMNS = {
  comments: notificationSettings.comments,
  replies: notificationSettings.replies,
  likes: notificationSettings.likes,
  sessions: notificationSettings.sessions,
  events: notificationSettings.events,
  myEvents: notificationSettings.myEvents,
}

const PREFERENCE_COLUMNS = {
  ...TOPIC_COLUMNS,
  digest: notificationSettings.digest,
  timeZone: notificationSettings.timeZone,
}

/** The member's preferences; the table's defaults for one whose row does not exist yet. */
export async function getPreferences(userId: string): Promise<Preferences> {
  const [row] = await getDb().select(PREFERENCE_COLUMNS).from(notificationSettings).where(eq(notificationSettings.userId, userId))
  if (row) return row
  const [defaults] = await getDb()
    .insert(notificationSettings)
    .values({ userId })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { userId } })
    .returning(PREFERENCE_COLUMNS)
  return defaults!
}

/** Without a zone (a browser without the page's script), the known one stays. */
export async function savePreferences(userId: string, preferences: Omit<Preferences, 'timeZone'> & { timeZone?: string | null }) {
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
 * What an unsubscribe link does: each topic's e-mail stops and it stays in the bell (a topic
 * already 'Nada' stays so); the digest stops. Clicking twice changes nothing more.
 */
export async function unsubscribe(userId: string, lists: MailingList[]) {
  const set: Partial<Record<Topic, SQL>> & { digest?: 'never' } = {}
  for (const list of lists) {
    if (list === 'digest') set.digest = 'never'
    else
      set[list] = sql`case when ${PREFERENCE_COLUMNS[list]} = 'email' then 'web'::notification_channel else ${PREFERENCE_COLUMNS[list]} end`
  }
  await getDb()
    .update(notificationSettings)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(notificationSettings.userId, userId))
}
