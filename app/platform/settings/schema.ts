import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** What an operator changes without a deploy (/admin/ajustes): one row per setting, its value validated by settings.server. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
