import { pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { userIdColumn } from '../../platform/auth/schema'

/** Every Stripe event handled, by id: a redelivered event is acknowledged and ignored. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
})

export const planEnum = pgEnum('membership_plan', ['monthly', 'annual'])
export const testCheckoutStatusEnum = pgEnum('test_checkout_status', ['open', 'paid', 'canceled'])

/** Checkout sessions of the local test checkout ('Modo de prueba'), used only on a laptop. */
export const testCheckoutSessions = pgTable('test_checkout_sessions', {
  id: text('id').primaryKey(),
  userId: userIdColumn(),
  plan: planEnum('plan').notNull(),
  status: testCheckoutStatusEnum('status').notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
