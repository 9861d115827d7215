import { createHash, createHmac, randomBytes } from 'node:crypto'
import { and, asc, eq, gte } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { calendarFeeds, eventAttendees, events } from './schema'

/** Where a member's private feed lives: `/calendario/privado/<token>.ics`. */
export const FEED_PATH = '/calendario/privado/'

const tokenOf = (userId: string, nonce: string) =>
  createHmac('sha256', getEnv().AUTH_SECRET).update(`calendar-feed:${userId}:${nonce}`).digest('base64url')
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/** The member's feed address, made on first use. */
export async function calendarFeedPath(userId: string) {
  const [row] = await getDb().select({ nonce: calendarFeeds.nonce }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId))
  return row ? `${FEED_PATH}${tokenOf(userId, row.nonce)}.ics` : renewCalendarFeed(userId)
}

/** A new address; the old one stops working at once (a member who shared it by mistake). */
export async function renewCalendarFeed(userId: string) {
  const nonce = randomBytes(16).toString('base64url')
  const token = tokenOf(userId, nonce)
  await getDb()
    .insert(calendarFeeds)
    .values({ userId, nonce, tokenHash: hashOf(token) })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { nonce, tokenHash: hashOf(token), createdAt: new Date() } })
  return `${FEED_PATH}${token}.ics`
}

/**
 * The events the token's owner registered for (only theirs, nothing of other members), from a
 * month ago on. Null for a token that is not, or no longer, anyone's.
 */
export async function feedEvents(token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null
  const [owner] = await getDb()
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, hashOf(token)))
  if (!owner) return null
  return getDb()
    .select({
      id: events.id,
      title: events.title,
      description: events.description,
      location: events.location,
      eventDate: events.eventDate,
      durationMinutes: events.durationMinutes,
      timeZone: events.timeZone,
      externalLink: events.externalLink,
      updatedAt: events.updatedAt,
    })
    .from(eventAttendees)
    .innerJoin(events, eq(events.id, eventAttendees.eventId))
    .where(
      and(
        eq(eventAttendees.userId, owner.userId),
        eq(eventAttendees.status, 'registered'),
        gte(events.eventDate, new Date(Date.now() - 31 * 24 * 60 * 60 * 1000)),
      ),
    )
    .orderBy(asc(events.eventDate))
    .limit(500)
}
