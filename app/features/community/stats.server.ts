import { countEventsBetween } from '~/features/events/events.server'
import { getDb } from '~/platform/db/client.server'
import { DEFAULT_TIME_ZONE, fromWallTime, toWallTime } from '~/platform/dates'
import { communityCounters } from './schema'

/**
 * The stats panel of every community tab: counters kept by the database (migration 0008), one
 * small read, and this month's events (in the community's zone) from the events' date index.
 */
export async function communityStats(now = new Date()) {
  const month = toWallTime(now, DEFAULT_TIME_ZONE).slice(0, 7)
  const [year, index] = month.split('-').map(Number) as [number, number]
  const next = index === 12 ? `${year + 1}-01` : `${year}-${String(index + 1).padStart(2, '0')}`
  const [rows, eventsThisMonth] = await Promise.all([
    getDb().select({ name: communityCounters.name, value: communityCounters.value }).from(communityCounters),
    countEventsBetween(fromWallTime(`${month}-01T00:00`)!, fromWallTime(`${next}-01T00:00`)!),
  ])
  const counter = (name: (typeof rows)[number]['name']) => rows.find((row) => row.name === name)?.value ?? 0
  return {
    members: counter('complete_members'),
    discussions: counter('posts'),
    eventsThisMonth,
    ceoSessions: counter('published_sessions'),
  }
}
