import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { subscriptions } from './schema'
import * as webhookRoute from './stripe-webhook.route'
import * as portalRoute from './portal.route'
import * as testPortalRoute from './test-portal.route'
import { getEnv, parseEnv, setEnv } from '~/platform/env.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { isPremium, LOCAL, postTestCheckout, startCheckout, testCheckoutPage } from '../../../tests/setup/billing'
import { createConfirmedUser, formRequest, run } from '../../../tests/setup/requests'

useTestDatabase()

const context = { cspNonce: 'test' }

async function startTestCheckout(cookie: string, plan = 'monthly') {
  const outcome = await startCheckout(plan, cookie, LOCAL)
  expect(outcome.status).toBe(303)
  expect(outcome.location).toMatch(/^\/billing\/test-checkout\?session=test_cs_/)
  return outcome.location!
}

describe('local test checkout (no Stripe keys, localhost)', () => {
  test('is the provider on a laptop without Stripe', () => {
    expect(getEnv().PAYMENTS_PROVIDER).toBe('test')
  })

  test('paying runs the activation code: premium, a test customer, then /success', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const path = await startTestCheckout(cookie, 'annual')
    const page = await testCheckoutPage(path, cookie)
    expect(page.data).toEqual({ planLabel: 'Anual · 900 € al año' })

    const paid = await postTestCheckout(path, { intent: 'pay' }, cookie)
    expect(paid.location).toBe('/success')
    expect(await isPremium(userId)).toBe(true)
    // Kept for the console like a Stripe subscription: 900 € a year is 75 € a month.
    const kept = () =>
      getDb()
        .select({
          plan: subscriptions.plan,
          status: subscriptions.status,
          monthlyCents: subscriptions.monthlyCents,
          endedAt: subscriptions.endedAt,
        })
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
    expect(await kept()).toEqual([{ plan: 'annual', status: 'active', monthlyCents: 7500, endedAt: null }])

    // The session is spent: it cannot be paid twice.
    const again = await postTestCheckout(path, { intent: 'pay' }, cookie)
    expect(again.status).toBe(404)

    // Premium members are not sent to checkout again.
    const repeat = await startCheckout('monthly', cookie, LOCAL)
    expect(repeat.location).toBe('/perfil')

    // 'Gestionar suscripción' opens the test portal, whose cancel removes premium.
    const portal = await run(() =>
      portalRoute.action({
        request: formRequest('/billing/portal', { intent: 'portal' }, { cookie, ip: LOCAL }),
        params: {},
        context,
      } as any),
    )
    expect(portal.location).toBe('/billing/test-portal')
    const cancelled = await run(() =>
      testPortalRoute.action({
        request: formRequest('/billing/test-portal', { intent: 'cancel-subscription' }, { cookie, ip: LOCAL }),
        params: {},
        context,
      } as any),
    )
    expect(cancelled.location).toBe('/perfil')
    expect(await isPremium(userId)).toBe(false)
    expect(await kept()).toEqual([{ plan: 'annual', status: 'canceled', monthlyCents: 7500, endedAt: expect.any(Date) }])
  })

  test('cancelling ends on /canceled with nothing granted', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const path = await startTestCheckout(cookie)
    const outcome = await postTestCheckout(path, { intent: 'cancel' }, cookie)
    expect(outcome.location).toBe('/canceled')
    expect(await isPremium(userId)).toBe(false)
  })

  test('another member cannot open or pay my session', async () => {
    const owner = await createConfirmedUser()
    const path = await startTestCheckout(owner.cookie)
    const intruder = await createConfirmedUser()
    const view = await testCheckoutPage(path, intruder.cookie)
    expect(view.status).toBe(404)
    const pay = await postTestCheckout(path, { intent: 'pay' }, intruder.cookie)
    expect(pay.status).toBe(404)
    expect(await isPremium(intruder.userId)).toBe(false)
    expect(await isPremium(owner.userId)).toBe(false)
  })

  test('from any other address than this machine (a public host whose APP_URL was forgotten) it does not exist', async () => {
    const { cookie, userId } = await createConfirmedUser()
    for (const ip of ['203.0.113.7', '10.0.0.5', '::ffff:192.0.2.1']) {
      const checkout = await startCheckout('monthly', cookie, ip)
      expect(checkout.location).toBe('/pricing')
    }
    const path = await startTestCheckout(cookie)
    for (const ip of ['203.0.113.7', '::ffff:192.0.2.1', 'unknown']) {
      const view = await testCheckoutPage(path, cookie, ip)
      expect(view.status).toBe(404)
      const pay = await postTestCheckout(path, { intent: 'pay' }, cookie, ip)
      expect(pay.status).toBe(404)
    }
    expect(await isPremium(userId)).toBe(false)
    const ipv6 = await testCheckoutPage(path, cookie, '::1')
    expect(ipv6.status).toBe(200)
  })

  test('the Stripe webhook does not exist without Stripe', async () => {
    const request = new Request('http://localhost:3000/api/webhooks/stripe', { method: 'POST', body: '{}' })
    expect((await run(() => webhookRoute.action({ request, params: {}, context } as any))).status).toBe(404)
  })

  test('with PAYMENTS_PROVIDER=manual the test checkout is unreachable and checkout explains itself', async () => {
    const previous = getEnv()
    setEnv(parseEnv({ NODE_ENV: 'test', DATA_DIR: previous.DATA_DIR, AUTH_SECRET: previous.AUTH_SECRET, PAYMENTS_PROVIDER: 'manual' }))
    try {
      const { cookie } = await createConfirmedUser()
      const outcome = await startCheckout('monthly', cookie, LOCAL)
      expect(outcome.location).toBe('/pricing')
      const page = await testCheckoutPage('/billing/test-checkout?session=x', cookie)
      expect(page.status).toBe(404)
    } finally {
      setEnv(previous)
    }
  })
})

describe('a public deployment', () => {
  const base = { APP_URL: 'https://circulo.example', AUTH_SECRET: 's'.repeat(40), SMTP_URL: 'smtp://mail.example' }
  test('refuses to start without Stripe keys or an explicit manual mode', () => {
    expect(() => parseEnv(base)).toThrow(/STRIPE_\* keys, or PAYMENTS_PROVIDER=manual/)
    expect(parseEnv({ ...base, PAYMENTS_PROVIDER: 'manual' }).PAYMENTS_PROVIDER).toBe('manual')
  })
  test('can never run the test checkout', () => {
    expect(() => parseEnv({ ...base, PAYMENTS_PROVIDER: 'test' })).toThrow(/test checkout never runs on a public address/)
  })
  test('needs every Stripe setting when Stripe is chosen', () => {
    expect(() => parseEnv({ ...base, STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/)
    const env = parseEnv({
      ...base,
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PRICE_MONTHLY: 'price_m',
      STRIPE_PRICE_ANNUAL: 'price_a',
    })
    expect(env.PAYMENTS_PROVIDER).toBe('stripe')
  })
})
