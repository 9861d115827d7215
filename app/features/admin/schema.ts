import { date, index, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core'

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

/**
 * The dashboard's most commented posts (issue 38): for each period (its `days`, as PERIODS in
 * filters.ts), the comments of each post made on or after `since`, the period's first day when the
 * windows were last moved (Europe/Madrid). Triggers keep the counts in the transaction that adds or
 * removes a comment; the job of dashboard.server.ts moves the windows at midnight (migrations 0049 and 0050).
 * Counts, not a member's data; a post's rows go with its comments (the cascade's delete moves them
 * to zero), so no key to the post: its cascade would look each deleted post's rows up by post.
 */
export const postCommentWindows = pgTable('post_comment_windows', {
  days: smallint('days').primaryKey(),
  since: date('since').notNull(),
})

export const postCommentCounts = pgTable(
  'post_comment_counts',
  {
    days: smallint('days').notNull(),
    postId: uuid('post_id').notNull(),
    n: integer('n').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.days, table.postId] }),
    // The period's most commented first, as the dashboard reads them (a Limit of 5 stops the read).
    index('post_comment_counts_top_idx').on(table.days, table.n.desc().nullsFirst(), table.postId),
  ],
)
