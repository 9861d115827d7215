import { sql } from 'drizzle-orm'
import { boolean, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { user } from './auth'

export const profiles = pgTable('profiles', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => user.id, { onDelete: 'cascade' }),
  firstName: text('first_name'),
  lastName: text('last_name'),
  displayName: text('display_name'),
  bio: text('bio'),
  company: text('company'),
  position: text('position'),
  avatarUrl: text('avatar_url'),
  isPremium: boolean('is_premium').notNull().default(false),
  stripeCustomerId: text('stripe_customer_id').unique(),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  // Set in the same statement that queues the welcome e-mail, so it is sent once.
  welcomedAt: timestamp('welcomed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => sql`now()`),
})

export const roleEnum = pgEnum('app_role', ['admin', 'moderator', 'user'])

export const userRoles = pgTable(
  'user_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: roleEnum('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.role] })],
)

export type Role = (typeof roleEnum.enumValues)[number]
