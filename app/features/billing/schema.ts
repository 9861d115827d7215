import { sql } from 'drizzle-orm'
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
export const testCheckoutSessions = pgTable(
  'test_checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: userIdColumn(),
    plan: planEnum('plan').notNull(),
    status: testCheckoutStatusEnum('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // An account's deletion finds its checkouts by index (foreign-keys.test.ts).
  (table) => [index('test_checkout_sessions_user_idx').on(table.userId)],
)

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
    /** Since when Stripe has been retrying its latest invoice (status past_due); null once paid. */
    paymentFailedAt: timestamp('payment_failed_at', { withTimezone: true }),
    /** The invoice being retried (Stripe's latest_invoice while past_due or unpaid). */
    failingInvoiceId: text('failing_invoice_id'),
    /** The last failing invoice the member was e-mailed about: one e-mail per invoice, not per retry. */
    failureNotifiedInvoiceId: text('failure_notified_invoice_id'),
    /** Collection paused until then (pause_collection.resumes_at; Stripe resumes it itself). */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    /** The promotion code redeemed at checkout (Stripe allows one per subscription). */
    promotionCodeId: text('promotion_code_id'),
    /** Why the member cancelled, when they said so (CANCEL_REASONS): not rewritten by events. */
    cancelReason: text('cancel_reason'),
    cancelReasonText: text('cancel_reason_text'),
    cancelReasonAt: timestamp('cancel_reason_at', { withTimezone: true }),
  },
  (table) => [
    index('subscriptions_user_idx').on(table.userId),
    index('subscriptions_status_idx').on(table.status),
    // The members table's 'Pago fallido' and 'En pausa' read only these few rows.
    index('subscriptions_payment_failed_idx')
      .on(table.userId)
      .where(sql`payment_failed_at is not null`),
    index('subscriptions_paused_idx')
      .on(table.userId)
      .where(sql`paused_until is not null`),
    index('subscriptions_promotion_code_idx')
      .on(table.promotionCodeId)
      .where(sql`promotion_code_id is not null`),
  ],
)

export const couponDurationEnum = pgEnum('coupon_duration', ['once', 'repeating', 'forever'])

/**
 * The promotion codes created in the console, as they were created (Stripe holds the coupon and
 * the code and counts the redemptions; the subscriptions that redeemed one name it). Nobody's
 * data: the admin who created it is in the audit line only.
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    /** Stripe's promotion code id (`promo_…`). */
    id: text('id').primaryKey(),
    /** What the member types at checkout (upper case, unique among ours). */
    code: text('code').notNull().unique(),
    couponId: text('coupon_id').notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    duration: couponDurationEnum('duration').notNull(),
    durationMonths: integer('duration_months'),
    maxRedemptions: integer('max_redemptions'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('promotion_codes_created_idx').on(table.createdAt)],
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
    /** What a promotion code took off, IVA included (Stripe's total_discount_amounts): the total is after it. */
    discountCents: integer('discount_cents').notNull().default(0),
    /** The code as the member typed it, when the invoice names it (the local test checkout's do). */
    promotionCode: text('promotion_code'),
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
