import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** The app's own rate limits (better-auth keeps its `rate_limit` table for its endpoints). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
})
