import { date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

/**
 * What the community did each day (in its zone, Europe/Madrid), by kind: posts, comments (on posts
 * and sessions), likes (of posts, comments and sessions), event registrations and session views.
 * Kept by triggers (migration 0016) in the transaction that adds or removes what they count, so the
 * console's weekly series read a few hundred rows, never the rows counted.
 */
export const activityDaily = pgTable(
  'activity_daily',
  {
    day: date('day').notNull(),
    // 'active_last': members whose last day of use is that day; 'active_weeks', on a Monday: members
    // who used the community that week (kept from member_activity_days, migration 0045).
    kind: text('kind', { enum: ['posts', 'comments', 'likes', 'registrations', 'views', 'active_last', 'active_weeks'] }).notNull(),
    n: integer('n').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.kind] })],
)
