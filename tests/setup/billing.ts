import Stripe from 'stripe'
import { eq } from 'drizzle-orm'
import { profiles } from '~/features/account/schema'
import * as checkoutRoute from '~/features/billing/checkout.route'
import * as webhookRoute from '~/features/billing/stripe-webhook.route'
import * as testCheckoutRoute from '~/features/billing/test-checkout.route'
import { getDb } from '~/platform/db/client.server'
import { FAKE_WEBHOOK_SECRET } from './fake-stripe'
import { BASE_URL, formRequest, getRequest, run } from './requests'

/**
 * What the billing tests drive, the same way in every file: the pricing button's checkout, the
 * local test checkout's payment, a signed delivery of a Stripe event, and the member's premium.
 * The Stripe fake itself is `useFakeStripe()` (fake-stripe.ts), started by the files that need it.
 */

const context = { cspNonce: 'test' }
/** The test checkout answers requests from this machine only (decisions/0007). */
export const LOCAL = '127.0.0.1'
const stripe = new Stripe('sk_test_fake')

/** 'Hazte miembro': POST /billing/checkout, from the given address (the test checkout wants LOCAL). */
export function startCheckout(plan: string, cookie?: string, ip?: string) {
  return run(() =>
    checkoutRoute.action({
      request: formRequest('/billing/checkout', { intent: 'checkout', plan }, { cookie, ip }),
      params: {},
      context,
    } as any),
  )
}

/** A test checkout's page and form (`path` is where startCheckout sent the member). */
export function testCheckoutPage(path: string, cookie?: string, ip = LOCAL) {
  return run(() => testCheckoutRoute.loader({ request: getRequest(path, { cookie, ip }), params: {}, context } as any))
}
export function postTestCheckout(path: string, fields: Record<string, string>, cookie?: string, ip = LOCAL) {
  return run(() => testCheckoutRoute.action({ request: formRequest(path, fields, { cookie, ip }), params: {}, context } as any))
}

/** Through the local test checkout: 'Hazte miembro', then 'Pagar (simulado)' with these fields. */
export async function buyInTestCheckout(cookie: string, fields: Record<string, string> = {}, plan = 'monthly') {
  const started = await startCheckout(plan, cookie, LOCAL)
  if (!started.location?.startsWith('/billing/test-checkout')) throw new Error(`No test checkout: ${started.status} ${started.location}`)
  return postTestCheckout(started.location, { intent: 'pay', ...fields }, cookie)
}

let events = 0
/** A Stripe event about `object`, with an id of its own. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${++events}_${Date.now()}`) {
  return { id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } }
}

/** A delivery to the webhook signed as Stripe signs it; `tamper` changes the body after it was signed. */
export function deliverWebhook(
  payload: object,
  {
    secret = FAKE_WEBHOOK_SECRET,
    timestamp,
    tamper = (body) => body,
  }: { secret?: string; timestamp?: number; tamper?: (body: string) => string } = {},
) {
  const body = JSON.stringify(payload)
  const signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp })
  const request = new Request(`${BASE_URL}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: tamper(body),
  })
  return run(() => webhookRoute.action({ request, params: {}, context } as any))
}

/** The member's premium as the profile has it, and where it came from. */
export async function premiumOf(userId: string) {
  const [row] = await getDb()
    .select({ isPremium: profiles.isPremium, premiumSource: profiles.premiumSource, customer: profiles.stripeCustomerId })
    .from(profiles)
    .where(eq(profiles.userId, userId))
  if (!row) throw new Error(`No profile for ${userId}`)
  return row
}

export const isPremium = async (userId: string) => (await premiumOf(userId)).isPremium
