import { bigint, pgTable, text } from 'drizzle-orm/pg-core'

/**
 * Numbers kept by triggers in the same transaction as the change they count, so no page counts a
 * whole table: the stats panel's (migration 0008), and the totals of the console, the directory and
 * the admissions queue (migration 0037, issue 38). One row per counter.
 */
export const COUNTER_NAMES = [
  'posts',
  'complete_members',
  'published_sessions',
  'members',
  'premium_members',
  'premium_admin',
  'premium_subscription',
  'directory_members',
  'applications_pending',
  'applications_info_requested',
  'applications_waitlisted',
  'applications_approved',
  'applications_rejected',
  'applications_withdrawn',
] as const
export type CounterName = (typeof COUNTER_NAMES)[number]

export const communityCounters = pgTable('community_counters', {
  name: text('name', { enum: COUNTER_NAMES }).primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
})
