import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { deleteExpiredRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { defineJob, enqueue } from './jobs.server'
import { jobs } from './schema'

/** Tomorrow's date as the key: every process schedules it, the queue keeps one. */
const dayKey = (date: Date) => date.toISOString().slice(0, 10)

/**
 * Once a day: finished jobs older than two weeks go (those with a dedupe key stay: they are
 * what keeps "once" once), and so do rate-limit windows long past. Then it schedules itself.
 */
export const housekeepingJob = defineJob<Record<string, never>>({
  name: 'platform.housekeeping',
  async run() {
    await getDb()
      .delete(jobs)
      .where(and(eq(jobs.status, 'done'), isNull(jobs.dedupeKey), lt(jobs.finishedAt, sql`now() - interval '14 days'`)))
    await deleteExpiredRateLimits()
    await scheduleHousekeeping(new Date(Date.now() + 24 * 60 * 60 * 1000))
  },
})

export async function scheduleHousekeeping(at = new Date()) {
  await enqueue(housekeepingJob, {}, { runAt: at, dedupeKey: dayKey(at) })
}
