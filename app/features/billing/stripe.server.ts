import Stripe from 'stripe'
import { getEnv } from '~/platform/env.server'
import { clientIp } from '~/platform/http/client-ip'

export type Plan = 'monthly' | 'annual'

/** The part of a Stripe subscription that decides access, and what the console's money figures need. */
export interface SubscriptionState {
  status: Stripe.Subscription.Status
  /** End of the paid period, seconds since the epoch. */
  currentPeriodEnd: number | null
  /** Stripe's id: with it the subscription is kept in `subscriptions` (the rest below describes it). */
  id?: string
  plan?: Plan | null
  /** Cents per month: the price times the quantity, an annual price as a twelfth. */
  monthlyCents?: number
  currency?: string
  cancelAtPeriodEnd?: boolean
  /** Seconds since the epoch, as Stripe gives them. */
  startedAt?: number
  canceledAt?: number | null
  endedAt?: number | null
  /** Stripe's latest invoice: the one being retried while past_due or unpaid. */
  latestInvoiceId?: string | null
  /** pause_collection.resumes_at, seconds since the epoch; null when collection runs. */
  pausedUntil?: number | null
  /** The promotion code redeemed on it (Stripe's discounts; one at most, see decisions/0034). */
  promotionCodeId?: string | null
}

const MONTHS_PER: Record<Stripe.Price.Recurring.Interval, number> = { day: 12 / 365, week: 12 / 52, month: 1, year: 12 }

/** What a Stripe subscription brings in a month, in cents (its first item: our prices are one item). */
export function monthlyCentsOf(item: Pick<Stripe.SubscriptionItem, 'price' | 'quantity'> | undefined) {
  const recurring = item?.price?.recurring
  if (!item || !recurring) return 0
  const months = (MONTHS_PER[recurring.interval] ?? 1) * (recurring.interval_count || 1)
  return Math.round(((item.price.unit_amount ?? 0) * (item.quantity ?? 1)) / months)
}

function planOfPrice(priceId: string | undefined): Plan | null {
  const env = getEnv()
  if (priceId && priceId === env.STRIPE_PRICE_MONTHLY) return 'monthly'
  if (priceId && priceId === env.STRIPE_PRICE_ANNUAL) return 'annual'
  return null
}

/** How long a member keeps access while Stripe retries a failed renewal (status past_due). */
export const PAST_DUE_GRACE_DAYS = 7

/**
 * The one status → access mapping (see docs/decisions/0007-payments.md):
 * active, trialing → premium; past_due → premium until 7 days after the paid period ended;
 * canceled, unpaid, incomplete, incomplete_expired, paused → not premium.
 * With several subscriptions, any one that grants access is enough.
 */
export function grantsPremium(subscriptions: SubscriptionState[], now = Date.now()) {
  return subscriptions.some(({ status, currentPeriodEnd }) => {
    if (status === 'active' || status === 'trialing') return true
    if (status === 'past_due') {
      return currentPeriodEnd !== null && now < (currentPeriodEnd + PAST_DUE_GRACE_DAYS * 86_400) * 1000
    }
    return false
  })
}

let stripe: Stripe | undefined

export function getStripe(): Stripe {
  if (stripe) return stripe
  const env = getEnv()
  if (!env.STRIPE_SECRET_KEY) throw new Error('Stripe is not configured')
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null
  stripe = new Stripe(env.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  })
  return stripe
}

/** Tests point the SDK at their fake. */
export function setStripe(client: Stripe | undefined) {
  stripe = client
}

export function priceIdFor(plan: Plan) {
  const env = getEnv()
  const price = plan === 'annual' ? env.STRIPE_PRICE_ANNUAL : env.STRIPE_PRICE_MONTHLY
  if (!price) throw new Error(`No Stripe price configured for the ${plan} plan`)
  return price
}

/** A pause with no resumes_at: 9999-12-31, so 'en pausa' stays true until someone resumes it. */
const FOREVER = 253_402_214_400

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null))

/** The promotion code of the subscription's discount (the SDK types `discounts` as ids or objects). */
function promotionCodeOf(subscription: Stripe.Subscription) {
  for (const discount of subscription.discounts ?? []) {
    if (typeof discount !== 'string' && discount.promotion_code) return idOf(discount.promotion_code)
  }
  return null
}

/**
 * How Checkout charges IVA (decisions/0033): Stripe Tax when the operator turned it on (it also
 * applies the reverse charge to EU companies with a valid VAT number), else the configured
 * inclusive tax rate on the line. With neither, the price is charged as it is (the prices already
 * include IVA; the invoice then shows no tax line).
 */
export function taxParams(): {
  session: { automatic_tax?: { enabled: true } }
  lineItem: { tax_rates?: string[] }
} {
  const env = getEnv()
  if (env.STRIPE_AUTOMATIC_TAX) return { session: { automatic_tax: { enabled: true } }, lineItem: {} }
  if (env.STRIPE_TAX_RATE_ID) return { session: {}, lineItem: { tax_rates: [env.STRIPE_TAX_RATE_ID] } }
  return { session: {}, lineItem: {} }
}

/** Re-reads a customer's subscriptions from Stripe: the truth, whatever order events came in. */
export async function readSubscriptions(customerId: string): Promise<SubscriptionState[]> {
  const list = await getStripe().subscriptions.list({ customer: customerId, status: 'all', limit: 20, expand: ['data.discounts'] })
  return list.data.map((subscription) => {
    const item = subscription.items.data[0]
    return {
      status: subscription.status,
      currentPeriodEnd: item?.current_period_end ?? null,
      id: subscription.id,
      plan: planOfPrice(item?.price?.id),
      monthlyCents: monthlyCentsOf(item),
      currency: item?.price?.currency ?? subscription.currency ?? 'eur',
      cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end),
      startedAt: subscription.start_date ?? subscription.created,
      canceledAt: subscription.canceled_at ?? null,
      endedAt: subscription.ended_at ?? null,
      latestInvoiceId: idOf(subscription.latest_invoice),
      // A pause without an end date is one only an admin in Stripe's dashboard ends.
      pausedUntil: subscription.pause_collection ? (subscription.pause_collection.resumes_at ?? FOREVER) : null,
      promotionCodeId: promotionCodeOf(subscription),
    }
  })
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (how Node reports them on a dual-stack socket). */
function isLoopbackAddress(ip: string) {
  return /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(ip) || ip === '::1'
}

/**
 * The local test checkout grants premium without payment. Configuration already keeps it off
 * any public APP_URL; on top of that it serves only requests from this machine, so a server
 * whose operator forgot APP_URL on a public host still gives nobody free premium.
 */
export function isLocalTestCheckout(request: Request) {
  return getEnv().PAYMENTS_PROVIDER === 'test' && isLoopbackAddress(clientIp(request))
}
