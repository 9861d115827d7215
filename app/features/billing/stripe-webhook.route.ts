import type Stripe from 'stripe'
import { z } from 'zod'
import { applySubscriptionState, isEventProcessed, readSubscriptions } from './billing.server'
import { getEnv } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { webhookEvents } from '~/platform/metrics/metrics.server'
import { getStripe } from './stripe.server'
import { applyInvoiceState, readInvoices } from './invoices.server'
import type { Route } from './+types/stripe-webhook.route'

/** Stripe signs the timestamp with the body; older deliveries are refused as replays. */
const SIGNATURE_TOLERANCE_SECONDS = 300

function customerOf(event: Stripe.Event): { customerId: string | null; userId: string | null } {
  const object = event.data.object as { customer?: string | { id: string } | null; client_reference_id?: string | null }
  const customer = object.customer
  const customerId = typeof customer === 'string' ? customer : (customer?.id ?? null)
  const reference = event.type === 'checkout.session.completed' ? object.client_reference_id : null
  return { customerId, userId: z.uuid().safeParse(reference).success ? reference! : null }
}

const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
])

/**
 * Events about invoices and their refunds (decisions/0033): the customer's invoices are re-read
 * and mirrored for 'Facturas'; access is not touched, so none of them can take premium away.
 */
const INVOICE_EVENTS = new Set([
  'invoice.finalized',
  'invoice.paid',
  'invoice.voided',
  'invoice.marked_uncollectible',
  'credit_note.created',
  'credit_note.voided',
  'charge.refunded',
])

/**
 * Verifies the signature on the raw body, ignores events already processed, re-reads the
 * customer's subscriptions from Stripe (so duplicated or reordered events cannot leave a
 * wrong state), and answers 2xx only once the change is committed; any failure answers
 * 5xx and Stripe delivers again.
 */
export async function action({ request }: Route.ActionArgs) {
  const env = getEnv()
  if (env.PAYMENTS_PROVIDER !== 'stripe' || !env.STRIPE_WEBHOOK_SECRET) return new Response('Not found', { status: 404 })
  const signature = request.headers.get('stripe-signature')
  const body = await request.text()
  let event: Stripe.Event
  try {
    if (!signature) throw new Error('missing signature')
    event = getStripe().webhooks.constructEvent(body, signature, env.STRIPE_WEBHOOK_SECRET, SIGNATURE_TOLERANCE_SECONDS)
  } catch (error) {
    logger.warn({ err: error }, 'Stripe webhook refused: bad signature')
    webhookEvents.inc({ provider: 'stripe', outcome: 'rejected' })
    return Response.json({ error: 'invalid signature' }, { status: 400 })
  }

  if (await isEventProcessed(event.id)) {
    webhookEvents.inc({ provider: 'stripe', outcome: 'duplicate' })
    return Response.json({ received: true, duplicate: true })
  }

  const { customerId, userId } = customerOf(event)
  if (INVOICE_EVENTS.has(event.type) && customerId) {
    try {
      const result = await applyInvoiceState({
        customerId,
        invoices: await readInvoices(customerId),
        eventId: event.id,
        eventType: event.type,
      })
      logger.info({ eventId: event.id, type: event.type, customerId, result }, 'Stripe invoice event processed')
      webhookEvents.inc({ provider: 'stripe', outcome: 'processed' })
      return Response.json({ received: true })
    } catch (error) {
      logger.error({ err: error, eventId: event.id }, 'Stripe invoice event failed; Stripe will retry')
      webhookEvents.inc({ provider: 'stripe', outcome: 'failed' })
      return Response.json({ error: 'processing failed' }, { status: 500 })
    }
  }
  // Any other event (customer.updated, charge.succeeded…) says nothing about access:
  // acknowledged untouched, so it can never take premium away from a paying member.
  if (!HANDLED.has(event.type) || !customerId) {
    logger.info({ eventId: event.id, type: event.type }, 'Stripe event acknowledged without changes')
    webhookEvents.inc({ provider: 'stripe', outcome: 'processed' })
    return Response.json({ received: true, ignored: true })
  }
  try {
    // Both read before anything is written: the invoices are kept in the same transaction, so the
    // checkout that links a customer also brings the invoices whose events came before it.
    const subscriptions = await readSubscriptions(customerId)
    const invoices = await readInvoices(customerId)
    const result = await applySubscriptionState({
      customerId,
      userId,
      subscriptions,
      eventId: event.id,
      eventType: event.type,
      invoices,
    })
    logger.info({ eventId: event.id, type: event.type, customerId, result }, 'Stripe event processed')
    webhookEvents.inc({ provider: 'stripe', outcome: 'processed' })
    return Response.json({ received: true })
  } catch (error) {
    logger.error({ err: error, eventId: event.id }, 'Stripe event failed; Stripe will retry')
    webhookEvents.inc({ provider: 'stripe', outcome: 'failed' })
    return Response.json({ error: 'processing failed' }, { status: 500 })
  }
}

export async function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}
