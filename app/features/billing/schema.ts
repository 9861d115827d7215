import { boolean, index, integer, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
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

/**
 * Each member's subscriptions as Stripe last described them (written with premium, in the same
 * transaction): what the console's money figures are read from. Stripe stays the truth; a row is
 * rewritten whole from the re-read subscription on every handled event.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    /** Stripe's subscription id (`test_sub_…` for the local test checkout). */
    id: text('id').primaryKey(),
    userId: userIdColumn(),
    customerId: text('customer_id').notNull(),
    status: text('status').notNull(),
    /** Which of our two prices it is; null for a price this app does not sell (kept, counted apart). */
    plan: planEnum('plan'),
    /** What it brings in a month, in cents of `currency`: an annual price counts as a twelfth. */
    monthlyCents: integer('monthly_cents').notNull(),
    currency: text('currency').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** When the member asked to cancel (Stripe's canceled_at). */
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** When it stopped (Stripe's ended_at): churn is counted from this. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('subscriptions_user_idx').on(table.userId), index('subscriptions_status_idx').on(table.status)],
)
