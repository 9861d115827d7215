import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { setStripe } from '~/features/billing/stripe.server'
import { getEnv, parseEnv, setEnv } from '~/platform/env.server'

export interface FakeSubscription {
  id: string
  customer: string
  status: string
  current_period_end: number
  /** The price as Stripe describes it (default: a monthly 89 € price with an id no app sells). */
  price?: { id: string; unit_amount: number; interval: 'month' | 'year'; currency?: string }
  quantity?: number
  created?: number
  canceled_at?: number | null
  ended_at?: number | null
  cancel_at_period_end?: boolean
}

/**
 * A local stand-in for the parts of Stripe's HTTP API the app calls (customers,
 * checkout sessions, billing portal sessions, subscriptions list and cancel). The real `stripe`
 * SDK is pointed at it, so the requests our code builds are the ones Stripe would get.
 */
export async function startFakeStripe() {
  const requests: Array<{ method: string; path: string; form: URLSearchParams; idempotencyKey?: string }> = []
  const subscriptions: FakeSubscription[] = []
  let customerCount = 0
  let failNext: { status: number; times: number } | null = null

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => resolve(body))
    })

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://stripe.local')
    const form = new URLSearchParams(await readBody(req))
    requests.push({ method: req.method!, path: url.pathname, form, idempotencyKey: req.headers['idempotency-key'] as string | undefined })
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}` })
      res.end(JSON.stringify(body))
    }
    if (failNext && failNext.times > 0) {
      failNext.times--
      return send(failNext.status, { error: { type: 'api_error', message: 'Fallo simulado' } })
    }
    if (req.headers.authorization !== 'Bearer sk_test_fake') {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
    }
    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      customerCount++
      return send(200, { id: `cus_fake_${customerCount}`, object: 'customer', email: form.get('email') })
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const id = `cs_test_${requests.length}`
      return send(200, { id, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${id}`, customer: form.get('customer') })
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      return send(200, { id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.com/p/session/test_1' })
    }
    if (req.method === 'GET' && url.pathname === '/v1/subscriptions') {
      const customer = url.searchParams.get('customer')
      const data = subscriptions
        .filter((subscription) => subscription.customer === customer)
        .map((subscription) => {
          const price = subscription.price ?? { id: 'price_fake', unit_amount: 8900, interval: 'month' }
          return {
            id: subscription.id,
            object: 'subscription',
            customer: subscription.customer,
            status: subscription.status,
            currency: price.currency ?? 'eur',
            created: subscription.created ?? 1_767_225_600,
            start_date: subscription.created ?? 1_767_225_600,
            canceled_at: subscription.canceled_at ?? null,
            ended_at: subscription.ended_at ?? null,
            cancel_at_period_end: subscription.cancel_at_period_end ?? false,
            items: {
              object: 'list',
              data: [
                {
                  id: `si_${subscription.id}`,
                  current_period_end: subscription.current_period_end,
                  quantity: subscription.quantity ?? 1,
                  price: {
                    id: price.id,
                    object: 'price',
                    currency: price.currency ?? 'eur',
                    unit_amount: price.unit_amount,
                    recurring: { interval: price.interval, interval_count: 1 },
                  },
                },
              ],
            },
          }
        })
      return send(200, { object: 'list', data, has_more: false, url: '/v1/subscriptions' })
    }
    const cancelled = req.method === 'DELETE' && /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname)
    if (cancelled) {
      const subscription = subscriptions.find((candidate) => candidate.id === cancelled[1])
      if (!subscription) return send(404, { error: { type: 'invalid_request_error', message: `No such subscription: '${cancelled[1]}'` } })
      const now = Math.floor(Date.now() / 1000)
      Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now })
      return send(200, { id: subscription.id, object: 'subscription', customer: subscription.customer, status: 'canceled' })
    }
    send(404, { error: { type: 'invalid_request_error', message: `No fake for ${req.method} ${url.pathname}` } })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    /** The next `times` requests fail (the SDK retries up to twice on its own). */
    failNextWith(status: number, times = 3) {
      failNext = { status, times }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export const FAKE_WEBHOOK_SECRET = 'whsec_test_secret'

/**
 * A test file's payments go to Stripe, that is to a fake started before its tests: the real SDK
 * with our prices, pointed at it. The environment before is restored after them.
 */
export function useFakeStripe() {
  const fake = {} as Awaited<ReturnType<typeof startFakeStripe>>
  const previous = getEnv()
  beforeAll(async () => {
    Object.assign(fake, await startFakeStripe())
    setEnv(
      parseEnv({
        NODE_ENV: 'test',
        APP_URL: 'http://localhost:3000',
        DATA_DIR: previous.DATA_DIR,
        AUTH_SECRET: previous.AUTH_SECRET,
        ADMIN_TWO_FACTOR: previous.ADMIN_TWO_FACTOR,
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
        STRIPE_PRICE_MONTHLY: 'price_monthly_89',
        STRIPE_PRICE_ANNUAL: 'price_annual_900',
        STRIPE_API_BASE: fake.url,
        LOG_LEVEL: 'silent',
      }),
    )
    setStripe(undefined)
  })
  afterAll(async () => {
    setEnv(previous)
    setStripe(undefined)
    await fake.close()
  })
  return fake
}
