import { bigint, pgTable, text } from 'drizzle-orm/pg-core'

/**
 * The stats panel's numbers, kept by triggers (migration 0008) in the same transaction as the
 * change they count, so no page counts a whole table. One row per counter.
 */
export const communityCounters = pgTable('community_counters', {
  name: text('name', { enum: ['posts', 'complete_members', 'published_sessions'] }).primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
})
