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

/**
 * The member's invoices as Stripe last described them (decisions/0033): the 'Facturas' card in
 * /perfil and the refund read them. Rewritten whole from the re-read invoice on every event; the
 * local test checkout writes its own through the same code. Amounts in cents of `currency`,
 * IVA included in `totalCents` (our prices are tax-inclusive).
 */
export const invoices = pgTable(
  'invoices',
  {
    /** Stripe's invoice id (`test_in_…` for the local test checkout). */
    id: text('id').primaryKey(),
    userId: userIdColumn(),
    customerId: text('customer_id').notNull(),
    subscriptionId: text('subscription_id'),
    /** The correlative number Stripe gives at finalization (null for a draft). */
    number: text('number'),
    /** Stripe's: draft, open, paid, void, uncollectible. */
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    totalCents: integer('total_cents').notNull(),
    taxCents: integer('tax_cents').notNull().default(0),
    /** Credited and refunded after payment (credit notes): equal to the total when fully refunded. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** EU company with a valid VAT number under Stripe Tax: no IVA, 'Inversión del sujeto pasivo'. */
    reverseCharge: boolean('reverse_charge').notNull().default(false),
    /** The buyer as the invoice names them: the member's own billing name, tax id and address. */
    billingName: text('billing_name'),
    billingTaxId: text('billing_tax_id'),
    billingAddress: text('billing_address'),
    description: text('description'),
    hostedUrl: text('hosted_url'),
    pdfUrl: text('pdf_url'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('invoices_user_issued_idx').on(table.userId, table.issuedAt)],
)

/**
 * One refund per invoice, claimed before Stripe is called: the primary key makes two admins
 * clicking at once refund once (decisions/0033). `done` once Stripe answered.
 */
export const refunds = pgTable(
  'refunds',
  {
    invoiceId: text('invoice_id').primaryKey(),
    userId: userIdColumn(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Within the guarantee, or past it with the admin's typed reason. */
    withinGuarantee: boolean('within_guarantee').notNull(),
    reason: text('reason'),
    creditNoteId: text('credit_note_id'),
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('refunds_user_idx').on(table.userId), index('refunds_created_idx').on(table.createdAt)],
)
