import { getDb } from '~/platform/db/client.server'
import { DEFAULT_TIME_ZONE, toWallTime } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { memberActivityDays } from './schema'

// The members this process has already written down today: after the first request of their day,
// noting them costs a set lookup, not a statement.
let noted = new Set<string>()
let notedDay = ''

/**
 * Writes down that the member used the community today (the community's zone), once per member
 * and day per process, without holding up the request: the console counts active members from it.
 */
export function noteActive(userId: string, now = new Date()) {
  const day = toWallTime(now, DEFAULT_TIME_ZONE).slice(0, 10)
  if (day !== notedDay) {
    noted = new Set()
    notedDay = day
  }
  if (noted.has(userId)) return
  noted.add(userId)
  getDb()
    .insert(memberActivityDays)
    .values({ day, userId })
    .onConflictDoNothing()
    .catch((error: unknown) => {
      // Tried again on the member's next request.
      noted.delete(userId)
      logger.warn({ err: error, userId }, 'Member activity not recorded')
    })
}
