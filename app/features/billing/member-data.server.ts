import { eq, sql } from 'drizzle-orm'
import { profiles } from '~/features/account/schema'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { getStripe, readSubscriptions } from './stripe.server'

/** Stripe statuses that still bill or could bill again. */
const LIVE = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused'])

/**
 * A deleted account's live subscriptions are cancelled now, not at the period's end. Queued by the
 * deletion's transaction (it exists only if the account went) and retried while Stripe is away; it
 * carries the Stripe customer alone, so a try that gives up names nobody in the console's failed jobs.
 */
export const cancelSubscriptionsJob = defineJob<{ customerId: string }>({
  name: 'billing.cancel-subscriptions',
  label: 'Cancelación de la suscripción de una cuenta eliminada',
  async run({ customerId }) {
    for (const subscription of await readSubscriptions(customerId)) {
      if (!subscription.id || !LIVE.has(subscription.status)) continue
      await getStripe().subscriptions.cancel(subscription.id, {}, { idempotencyKey: `account-deletion:${subscription.id}` })
    }
  },
})

export const billingData: MemberDataPart = {
  tables: {
    subscriptions: { section: 'suscripciones' },
    test_checkout_sessions: { not: 'the local test checkout of a laptop, never a real payment' },
    invoices: { section: 'facturas' },
    refunds: { section: 'reembolsos' },
  },
  sections: {
    suscripciones: (id) => sql`select id, customer_id, status, plan, monthly_cents, currency, current_period_end, cancel_at_period_end,
      started_at, canceled_at, ended_at, updated_at, payment_failed_at, paused_until, cancel_reason, cancel_reason_text, cancel_reason_at
      from subscriptions where user_id = ${id} order by started_at`,
    // Their own invoices as Stripe (or the test checkout) described them: their billing name, tax id and address.
    facturas: (
      id,
    ) => sql`select id, number, status, currency, total_cents, tax_cents, refunded_cents, reverse_charge, discount_cents, promotion_code,
      billing_name, billing_tax_id, billing_address, description, pdf_url, issued_at, paid_at from invoices where user_id = ${id} order by issued_at`,
    // What was refunded to them and why; not who decided (the audit log's actor).
    reembolsos: (id) => sql`select invoice_id, amount_cents, currency, within_guarantee, reason, status, created_at
      from refunds where user_id = ${id} order by created_at`,
  },
  async erase(tx, { id }) {
    if (getEnv().PAYMENTS_PROVIDER !== 'stripe') return
    const [profile] = await tx.select({ customerId: profiles.stripeCustomerId }).from(profiles).where(eq(profiles.userId, id))
    if (profile?.customerId) await enqueue(cancelSubscriptionsJob, { customerId: profile.customerId }, { executor: tx })
  },
}
