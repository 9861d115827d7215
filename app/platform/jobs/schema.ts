import { sql } from 'drizzle-orm'
import { bigserial, index, integer, jsonb, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export const jobStatusEnum = pgEnum('job_status', ['queued', 'running', 'done', 'failed'])

/**
 * The one durable job queue (docs/decisions/0014): e-mail, reminders, video reconciliation,
 * digests. Workers in any number of processes claim due rows with FOR UPDATE SKIP LOCKED.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    status: jobStatusEnum('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    // A claimed job whose worker died is claimed again once this has passed.
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    // Work that must happen once (a welcome e-mail, one reminder per member and event) carries a key.
    dedupeKey: text('dedupe_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('jobs_due_idx')
      .on(table.runAt)
      .where(sql`status in ('queued', 'running')`),
    // The console's 'last run' of a kind of job (the digest) without reading every finished job.
    index('jobs_name_finished_idx').on(table.name, table.finishedAt),
    index('jobs_failed_idx')
      .on(table.createdAt)
      .where(sql`status = 'failed'`),
  ],
)
