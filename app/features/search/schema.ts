import { date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

/**
 * Searches that found nothing, per day and folded text (the key: a period is a range of it), for the operator's console: what members look
 * for and do not find. Nobody's id: a count, never who searched (issue 39).
 */
export const searchMisses = pgTable(
  'search_misses',
  {
    query: text('query').notNull(),
    day: date('day').notNull(),
    count: integer('count').notNull().default(1),
  },
  (table) => [primaryKey({ columns: [table.day, table.query] })],
)
