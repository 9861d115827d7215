import { getDb } from '~/platform/db/client.server'
import { communityCounters } from './schema'

/**
 * The stats panel of every community tab: counters kept by the database (migration 0008), one
 * small read. Events count once that feature exists.
 */
export async function communityStats() {
  const rows = await getDb().select({ name: communityCounters.name, value: communityCounters.value }).from(communityCounters)
  const counter = (name: (typeof rows)[number]['name']) => rows.find((row) => row.name === name)?.value ?? 0
  return {
    members: counter('complete_members'),
    discussions: counter('posts'),
    eventsThisMonth: 0,
    ceoSessions: counter('published_sessions'),
  }
}
