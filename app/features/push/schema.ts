import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { userIdColumn } from '../../platform/auth/schema'

/**
 * One browser's (one device's) web push subscription (issue 42): where its push service takes
 * messages and the keys they are encrypted with (RFC 8291). It goes with the account (the user
 * id's cascade). A subscription that keeps failing is removed after 3 days (delivery.server.ts).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userIdColumn(),
    /** The push service's URL for this browser: one row per endpoint (a browser subscribing again moves it). */
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and auth secret, base64url. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** What /perfil calls it ('iPhone · Safari'), told by the browser that subscribed. */
    deviceLabel: text('device_label').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    /** Since when every delivery failed (null after a success). */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    failures: integer('failures').notNull().default(0),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId, table.createdAt)],
)
