import { and, eq, lt, or, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { deleteExpiredRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { defineJob, enqueue } from './jobs.server'
import { auditLog } from '~/platform/audit/schema'
import { user } from '~/platform/auth/schema'
import { jobs } from './schema'

/** Tomorrow's date as the key: every process schedules it, the queue keeps one. */
const dayKey = (date: Date) => date.toISOString().slice(0, 10)

/**
 * Once a day: finished jobs go, with their payload (a rendered e-mail and its address), two weeks
 * after they ran, or 30 days for those with a dedupe key: each key names a moment past (an hour, a
 * reminder, a digest's period) or work that another row also records (the welcome), so nothing
 * asks for it again by then. Queued and running jobs stay, and failed ones for the operator to
 * retry, but those addressed to nobody with an account (a deleted member's last e-mail, refused for
 * good) go 30 days after they gave up. Rate-limit windows long past go too, and audit lines older
 * than 12 months (the privacy page's 'registros de seguridad', deleted accounts' last line
 * included). Then it schedules itself.
 */
export const housekeepingJob = defineJob<Record<string, never>>({
  name: 'platform.housekeeping',
  label: 'Limpieza diaria',
  async run() {
    await getDb()
      .delete(jobs)
      .where(
        and(
          eq(jobs.status, 'done'),
          lt(jobs.finishedAt, sql`now() - case when ${jobs.dedupeKey} is null then interval '14 days' else interval '30 days' end`),
        ),
      )
    await getDb()
      .delete(jobs)
      .where(
        and(
          eq(jobs.status, 'failed'),
          lt(jobs.finishedAt, sql`now() - interval '30 days'`),
          or(
            sql`${jobs.payload}->>'to' is not null and not exists (select 1 from ${user} where ${user.email} = lower(${jobs.payload}->>'to'))`,
            sql`${jobs.payload}->>'userId' is not null and not exists (select 1 from ${user} where ${user.id} = ${jobs.payload}->>'userId')`,
          ),
        ),
      )
    await deleteExpiredRateLimits()
    await getDb()
      .delete(auditLog)
      .where(lt(auditLog.createdAt, sql`now() - interval '12 months'`))
    await scheduleHousekeeping(new Date(Date.now() + 24 * 60 * 60 * 1000))
  },
})

export async function scheduleHousekeeping(at = new Date()) {
  await enqueue(housekeepingJob, {}, { runAt: at, dedupeKey: dayKey(at) })
}
