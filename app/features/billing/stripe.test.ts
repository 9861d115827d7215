import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { auditLog } from '~/platform/audit/schema'
import { profiles } from '~/features/account/schema'
import { stripeEvents, subscriptions } from './schema'
import * as portalRoute from './portal.route'
import * as webhookRoute from './stripe-webhook.route'
import { grantsPremium, PAST_DUE_GRACE_DAYS } from './stripe.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { useFakeStripe } from '../../../tests/setup/fake-stripe'
import { deliverWebhook as webhook, premiumOf, startCheckout as checkout, stripeEvent as event } from '../../../tests/setup/billing'
import { createConfirmedUser, formRequest, readToast, run } from '../../../tests/setup/requests'
import { completeProfile } from '../../../tests/setup/members'

useTestDatabase()

const context = { cspNonce: 'test' }
const fake = useFakeStripe()

const portal = (cookie?: string) =>
  run(() => portalRoute.action({ request: formRequest('/billing/portal', { intent: 'portal' }, { cookie }), params: {}, context } as any))

const inAMonth = () => Math.floor(Date.now() / 1000) + 30 * 86_400

describe('checkout through the Stripe SDK', () => {
  test('signed-out visitors go to /auth and come back to the prices', async () => {
    const outcome = await checkout('monthly')
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/auth?redirectTo=%2Fpricing')
  })

  test('creates a customer once, then a subscription checkout in EUR prices, Spanish, for this user', async () => {
    const { cookie, userId, email } = await createConfirmedUser()
    const outcome = await checkout('annual', cookie)
    expect(outcome.status).toBe(303)
    expect(outcome.location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)

    const customerCall = fake.requests.find((r) => r.path === '/v1/customers' && r.form.get('email') === email)!
    expect(customerCall.form.get('metadata[userId]')).toBe(userId)
    expect(customerCall.idempotencyKey).toBe(`customer-${userId}`)
    const session = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!
    expect(Object.fromEntries(session.form)).toMatchObject({
      mode: 'subscription',
      client_reference_id: userId,
      'line_items[0][price]': 'price_annual_900',
      'line_items[0][quantity]': '1',
      locale: 'es',
      success_url: 'http://localhost:3000/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/canceled',
    })
    const { customer } = await premiumOf(userId)
    expect(session.form.get('customer')).toBe(customer)

    const customersBefore = fake.requests.filter((r) => r.path === '/v1/customers').length
    await checkout('monthly', cookie)
    expect(fake.requests.filter((r) => r.path === '/v1/customers').length).toBe(customersBefore)
    expect(
      fake.requests
        .filter((r) => r.path === '/v1/checkout/sessions')
        .at(-1)!
        .form.get('line_items[0][price]'),
    ).toBe('price_monthly_89')
  })

  test('an unknown plan or a Stripe failure ends on /pricing with the spec message', async () => {
    const { cookie } = await createConfirmedUser()
    // An unknown plan is an invalid field: the form gets the spec message and the field error.
    const bad = await checkout('lifetime', cookie)
    expect(bad.status).toBe(400)
    expect(bad.data).toMatchObject({ ok: false, message: { title: 'Error al procesar el pago' } })
    expect(bad.data.submission.error).toHaveProperty('plan')
    fake.failNextWith(500)
    const failed = await checkout('monthly', cookie)
    expect(failed.status).toBe(302)
    expect(failed.location).toBe('/pricing')
    expect(failed.headers.getSetCookie().some((cookie) => cookie.startsWith('toast='))).toBe(true)
    expect(await readToast(failed.headers)).toMatchObject({ type: 'error', title: 'Error al procesar el pago' })
  })

  test('the billing portal opens only for the member’s own customer', async () => {
    const none = await createConfirmedUser()
    const refused = await portal(none.cookie)
    expect(refused.location).toBe('/perfil')

    const { cookie } = await createConfirmedUser()
    await checkout('monthly', cookie)
    const opened = await portal(cookie)
    expect(opened.status).toBe(303)
    expect(opened.location).toBe('https://billing.stripe.com/p/session/test_1')
    const call = fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!
    expect(call.form.get('return_url')).toBe('http://localhost:3000/perfil')
    expect(call.form.get('customer')).toMatch(/^cus_fake_/)
  })
})

describe('webhooks', () => {
  async function customerWithCheckout() {
    const account = await createConfirmedUser()
    await completeProfile(account.userId)
    await checkout('monthly', account.cookie)
    const { customer } = await premiumOf(account.userId)
    return { ...account, customerId: customer! }
  }

  test('checkout completed + active subscription → premium; deleted → not; audited', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    const done = await webhook(
      event('checkout.session.completed', { object: 'checkout.session', customer: customerId, client_reference_id: userId }),
    )
    expect(done.status).toBe(200)
    expect(await premiumOf(userId)).toMatchObject({ isPremium: true, premiumSource: 'subscription' })

    fake.subscriptions.find((s) => s.customer === customerId)!.status = 'canceled'
    await webhook(event('customer.subscription.deleted', { object: 'subscription', customer: customerId }))
    expect(await premiumOf(userId)).toMatchObject({ isPremium: false, premiumSource: null })
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.targetUserId, userId))
    expect(entries.map((e) => e.action)).toEqual(['premium_granted', 'premium_removed'])
  })

  test('each subscription is kept as Stripe describes it, for the console: plan, cents a month, cancellation', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({
      id: `sub_annual_${userId}`,
      customer: customerId,
      status: 'active',
      current_period_end: inAMonth(),
      price: { id: 'price_annual_900', unit_amount: 90_000, interval: 'year' },
      created: 1_767_225_600,
    })
    await webhook(event('checkout.session.completed', { object: 'checkout.session', customer: customerId, client_reference_id: userId }))
    const kept = () => getDb().select().from(subscriptions).where(eq(subscriptions.userId, userId))
    expect(await kept()).toEqual([
      expect.objectContaining({
        id: `sub_annual_${userId}`,
        customerId,
        status: 'active',
        plan: 'annual',
        monthlyCents: 7500,
        currency: 'eur',
        startedAt: new Date(1_767_225_600_000),
        canceledAt: null,
        endedAt: null,
      }),
    ])
    const subscription = fake.subscriptions.find((s) => s.customer === customerId)!
    Object.assign(subscription, { status: 'canceled', canceled_at: 1_780_000_000, ended_at: 1_780_000_000 })
    await webhook(event('customer.subscription.deleted', { object: 'subscription', customer: customerId }))
    expect(await kept()).toEqual([
      expect.objectContaining({ status: 'canceled', canceledAt: new Date(1_780_000_000_000), endedAt: new Date(1_780_000_000_000) }),
    ])
  })

  test('a forged signature is refused and grants nothing', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    const forged = await webhook(event('customer.subscription.created', { customer: customerId }), { secret: 'whsec_attacker' })
    expect(forged.status).toBe(400)
    expect((await premiumOf(userId)).isPremium).toBe(false)
  })

  test('a missing signature or a tampered body is refused', async () => {
    const request = new Request('http://localhost:3000/api/webhooks/stripe', { method: 'POST', body: '{}' })
    expect((await run(() => webhookRoute.action({ request, params: {}, context } as any))).status).toBe(400)

    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    // One byte changed after signing, in the event id: still an event that would grant premium.
    const tampered = await webhook(event('customer.subscription.created', { customer: customerId }), {
      tamper: (body) => body.replace('evt_test_', 'evt_tesT_'),
    })
    expect(tampered.status).toBe(400)
    expect((await premiumOf(userId)).isPremium).toBe(false)
  })

  test('a stale timestamp (replay) is refused', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    const replay = await webhook(event('customer.subscription.updated', { customer: customerId }), {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    })
    expect(replay.status).toBe(400)
    expect((await premiumOf(userId)).isPremium).toBe(false)
  })

  test('a duplicated event is acknowledged once and not applied twice', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    const payload = event('customer.subscription.created', { customer: customerId })
    expect((await webhook(payload)).data).toEqual({ received: true })
    // Meanwhile the member cancelled; a redelivery of the old event must not re-grant anything.
    fake.subscriptions.find((s) => s.customer === customerId)!.status = 'canceled'
    await webhook(event('customer.subscription.deleted', { customer: customerId }))
    expect((await webhook(payload)).data).toEqual({ received: true, duplicate: true })
    expect((await premiumOf(userId)).isPremium).toBe(false)
    expect(await getDb().select().from(stripeEvents).where(eq(stripeEvents.id, payload.id))).toHaveLength(1)
  })

  test('out-of-order events end in the current state, because the state is re-read', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_${userId}`, customer: customerId, status: 'canceled', current_period_end: inAMonth() })
    // "deleted" arrives first, then the older "created": Stripe says canceled, so no premium.
    await webhook(event('customer.subscription.deleted', { customer: customerId }))
    await webhook(event('customer.subscription.created', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(false)
  })

  test('a late, older "deleted" event cannot take premium from a member whose subscription is active', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_late_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    const older = event('customer.subscription.deleted', { customer: customerId })
    await webhook(event('customer.subscription.updated', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(true)
    expect((await webhook(older)).status).toBe(200)
    expect((await premiumOf(userId)).isPremium).toBe(true)
  })

  test('events that say nothing about access are acknowledged and never remove premium', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_other_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    await webhook(event('customer.subscription.created', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(true)
    // Even if Stripe were to list nothing for this customer, these events are not about access.
    fake.subscriptions.splice(
      fake.subscriptions.findIndex((s) => s.customer === customerId),
      1,
    )
    for (const type of ['invoice.upcoming', 'customer.updated', 'charge.succeeded', 'payment_intent.succeeded']) {
      const outcome = await webhook(event(type, { customer: customerId }))
      expect(outcome.status).toBe(200)
      expect(outcome.data).toEqual({ received: true, ignored: true })
    }
    expect((await premiumOf(userId)).isPremium).toBe(true)
  })

  test('a paid checkout for a member whose profile is missing still activates premium', async () => {
    const account = await createConfirmedUser()
    await getDb().delete(profiles).where(eq(profiles.userId, account.userId))
    const customerId = `cus_noprofile_${account.userId.slice(0, 8)}`
    fake.subscriptions.push({ id: 'sub_noprofile', customer: customerId, status: 'active', current_period_end: inAMonth() })
    expect((await webhook(event('checkout.session.completed', { customer: customerId, client_reference_id: account.userId }))).status).toBe(
      200,
    )
    expect(await premiumOf(account.userId)).toMatchObject({ isPremium: true, customer: customerId })
  })

  test('a subscription event before the checkout link is applied when checkout completes', async () => {
    const account = await createConfirmedUser()
    await completeProfile(account.userId)
    // Customer created by Stripe Checkout itself, unknown to us until checkout.session.completed.
    const customerId = `cus_new_${account.userId.slice(0, 8)}`
    fake.subscriptions.push({ id: 'sub_new', customer: customerId, status: 'active', current_period_end: inAMonth() })
    await webhook(event('customer.subscription.created', { customer: customerId }))
    expect((await premiumOf(account.userId)).isPremium).toBe(false)
    await webhook(event('checkout.session.completed', { customer: customerId, client_reference_id: account.userId }))
    expect(await premiumOf(account.userId)).toMatchObject({ isPremium: true, customer: customerId })
  })

  test('a client_reference_id cannot move another member’s customer', async () => {
    const owner = await customerWithCheckout()
    const attacker = await createConfirmedUser()
    fake.subscriptions.push({ id: 'sub_owner', customer: owner.customerId, status: 'active', current_period_end: inAMonth() })
    await webhook(event('checkout.session.completed', { customer: owner.customerId, client_reference_id: attacker.userId }))
    expect((await premiumOf(attacker.userId)).isPremium).toBe(false)
    expect((await premiumOf(owner.userId)).isPremium).toBe(true)
  })

  test('payment failed: past_due keeps access within the grace period, not after', async () => {
    const { userId, customerId } = await customerWithCheckout()
    const now = Math.floor(Date.now() / 1000)
    fake.subscriptions.push({ id: 'sub_pd', customer: customerId, status: 'past_due', current_period_end: now - 86_400 })
    await webhook(event('invoice.payment_failed', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(true)
    fake.subscriptions.find((s) => s.id === 'sub_pd')!.current_period_end = now - (PAST_DUE_GRACE_DAYS + 1) * 86_400
    await webhook(event('invoice.payment_failed', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(false)
  })

  test('premium an admin granted stays when a subscription.deleted webhook arrives', async () => {
    const { userId, customerId } = await customerWithCheckout()
    await getDb().update(profiles).set({ isPremium: true, premiumSource: 'admin' }).where(eq(profiles.userId, userId))
    expect(await premiumOf(userId)).toMatchObject({ isPremium: true, customer: customerId })
    fake.subscriptions.push({ id: `sub_admin_${userId}`, customer: customerId, status: 'canceled', current_period_end: inAMonth() })
    const outcome = await webhook(event('customer.subscription.deleted', { object: 'subscription', customer: customerId }))
    expect(outcome.status).toBe(200)
    expect(outcome.data).toEqual({ received: true })
    expect(await premiumOf(userId)).toMatchObject({ isPremium: true, premiumSource: 'admin' })
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.targetUserId, userId))
    expect(entries.map((e) => e.action)).not.toContain('premium_removed')
  })

  test('premium an admin granted to a paying member stays when the subscription later ends', async () => {
    const { userId, customerId } = await customerWithCheckout()
    fake.subscriptions.push({ id: `sub_both_${userId}`, customer: customerId, status: 'active', current_period_end: inAMonth() })
    await webhook(event('customer.subscription.created', { customer: customerId }))
    expect(await premiumOf(userId)).toMatchObject({ isPremium: true, premiumSource: 'subscription' })
    // An admin grants premium by hand (as setPremiumByAdmin does); the subscription still renews for a while.
    await getDb().update(profiles).set({ isPremium: true, premiumSource: 'admin' }).where(eq(profiles.userId, userId))
    await webhook(event('customer.subscription.updated', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(true)
    fake.subscriptions.find((s) => s.customer === customerId)!.status = 'canceled'
    await webhook(event('customer.subscription.deleted', { customer: customerId }))
    expect((await premiumOf(userId)).isPremium).toBe(true)
  })

  test('when Stripe cannot be read the webhook answers 500 so Stripe retries, and nothing is recorded', async () => {
    const { customerId } = await customerWithCheckout()
    const payload = event('customer.subscription.updated', { customer: customerId })
    fake.failNextWith(500)
    const outcome = await webhook(payload)
    expect(outcome.status).toBe(500)
    expect(await getDb().select().from(stripeEvents).where(eq(stripeEvents.id, payload.id))).toEqual([])
  })
})

describe('status → access mapping', () => {
  const now = Date.UTC(2026, 10, 22)
  const end = now / 1000
  test.each([
    ['active', true],
    ['trialing', true],
    ['canceled', false],
    ['unpaid', false],
    ['incomplete', false],
    ['incomplete_expired', false],
    ['paused', false],
  ] as const)('%s → %s', (status, expected) => {
    expect(grantsPremium([{ status, currentPeriodEnd: end }], now)).toBe(expected)
  })
  test('past_due within and beyond the grace period; any granting subscription wins', () => {
    expect(grantsPremium([{ status: 'past_due', currentPeriodEnd: end - 6 * 86_400 }], now)).toBe(true)
    expect(grantsPremium([{ status: 'past_due', currentPeriodEnd: end - 8 * 86_400 }], now)).toBe(false)
    expect(
      grantsPremium(
        [
          { status: 'canceled', currentPeriodEnd: end },
          { status: 'active', currentPeriodEnd: end },
        ],
        now,
      ),
    ).toBe(true)
    expect(grantsPremium([], now)).toBe(false)
  })
})
