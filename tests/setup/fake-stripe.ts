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
  /** Billing part B: the invoice Stripe is retrying, a paused collection, a redeemed promotion code. */
  latest_invoice?: string | null
  pause_collection?: { behavior: string; resumes_at: number | null } | null
  promotion_code?: string | null
}

// --- invoices, tax, credit notes, refunds (billing part A) ---
/** An invoice as the fake keeps it; the listing builds Stripe's shape from it. */
export interface FakeInvoice {
  id: string
  customer: string
  subscription?: string
  number?: string | null
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible'
  /** Cents, IVA included. */
  total: number
  /** The IVA inside the total (0 under the reverse charge). */
  tax?: number
  reverse_charge?: boolean
  currency?: string
  customer_name?: string | null
  customer_tax_id?: { type: string; value: string } | null
  customer_address?: { line1?: string; postal_code?: string; city?: string; country?: string } | null
  created?: number
  paid_at?: number | null
  post_payment_credit_notes_amount?: number
}

function fakeInvoiceBody(invoice: FakeInvoice) {
  const created = invoice.created ?? Math.floor(Date.now() / 1000)
  return {
    id: invoice.id,
    object: 'invoice',
    customer: invoice.customer,
    number: invoice.number ?? null,
    status: invoice.status,
    currency: invoice.currency ?? 'eur',
    total: invoice.total,
    amount_paid: invoice.status === 'paid' ? invoice.total : 0,
    post_payment_credit_notes_amount: invoice.post_payment_credit_notes_amount ?? 0,
    total_taxes: invoice.reverse_charge
      ? [
          {
            amount: 0,
            tax_behavior: 'inclusive',
            taxability_reason: 'reverse_charge',
            taxable_amount: invoice.total,
            type: 'tax_rate_details',
          },
        ]
      : invoice.tax
        ? [
            {
              amount: invoice.tax,
              tax_behavior: 'inclusive',
              taxability_reason: 'standard_rated',
              taxable_amount: invoice.total - invoice.tax,
              type: 'tax_rate_details',
            },
          ]
        : [],
    customer_name: invoice.customer_name ?? null,
    customer_tax_ids: invoice.customer_tax_id ? [invoice.customer_tax_id] : [],
    customer_address: invoice.customer_address ?? null,
    hosted_invoice_url: `https://invoice.stripe.com/i/${invoice.id}`,
    invoice_pdf: `https://pay.stripe.com/invoice/${invoice.id}/pdf`,
    created,
    status_transitions: { finalized_at: invoice.status === 'draft' ? null : created, paid_at: invoice.paid_at ?? null },
    parent: invoice.subscription
      ? { type: 'subscription_details', subscription_details: { subscription: invoice.subscription, metadata: {} } }
      : null,
    lines: {
      object: 'list',
      data: [{ id: `il_${invoice.id}`, object: 'line_item', description: 'Membresía Círculo CEO', amount: invoice.total }],
    },
  }
}
// --- end of billing part A's types ---

/**
 * A local stand-in for the parts of Stripe's HTTP API the app calls (customers,
 * checkout sessions, billing portal sessions, subscriptions list and cancel). The real `stripe`
 * SDK is pointed at it, so the requests our code builds are the ones Stripe would get.
 */
export async function startFakeStripe() {
  const requests: Array<{ method: string; path: string; form: URLSearchParams; idempotencyKey?: string }> = []
  const subscriptions: FakeSubscription[] = []
  const invoices: FakeInvoice[] = []
  const creditNotes: Array<{ id: string; invoice: string; amount: number; refund_amount: number; memo: string | null }> = []
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
            ...lifecycleFields(subscription),
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
    // --- subscriptions' life cycle, promotion codes (billing part B) ---
    const lifecycle = idempotent(req.headers['idempotency-key'] as string | undefined, () =>
      lifecycleRoutes(req.method!, url.pathname, form),
    )
    if (lifecycle) return send(lifecycle.status, lifecycle.body)
    // --- end of billing part B ---
    const cancelled = req.method === 'DELETE' && /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname)
    if (cancelled) {
      const subscription = subscriptions.find((candidate) => candidate.id === cancelled[1])
      if (!subscription) return send(404, { error: { type: 'invalid_request_error', message: `No such subscription: '${cancelled[1]}'` } })
      const now = Math.floor(Date.now() / 1000)
      Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now })
      return send(200, { id: subscription.id, object: 'subscription', customer: subscription.customer, status: 'canceled' })
    }
    // --- invoices, tax, credit notes, refunds (billing part A) ---
    if (req.method === 'GET' && url.pathname === '/v1/invoices') {
      const customer = url.searchParams.get('customer')
      const data = invoices
        .filter((invoice) => invoice.customer === customer)
        .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))
        .map(fakeInvoiceBody)
      return send(200, { object: 'list', data, has_more: false, url: '/v1/invoices' })
    }
    const invoiceRead = req.method === 'GET' && /^\/v1\/invoices\/([^/]+)$/.exec(url.pathname)
    if (invoiceRead) {
      const invoice = invoices.find((candidate) => candidate.id === invoiceRead[1])
      if (!invoice) return send(404, { error: { type: 'invalid_request_error', message: `No such invoice: '${invoiceRead[1]}'` } })
      return send(200, fakeInvoiceBody(invoice))
    }
    if (req.method === 'POST' && url.pathname === '/v1/credit_notes') {
      const invoice = invoices.find((candidate) => candidate.id === form.get('invoice'))
      if (!invoice) return send(404, { error: { type: 'invalid_request_error', message: `No such invoice: '${form.get('invoice')}'` } })
      const amount = Number(form.get('amount'))
      const refund = Number(form.get('refund_amount') ?? 0)
      const credited = invoice.post_payment_credit_notes_amount ?? 0
      // Stripe's rules as far as we use them: a paid invoice, amounts that add up, never more than what is left.
      if (invoice.status !== 'paid' || !(amount > 0) || refund !== amount || credited + amount > invoice.total) {
        return send(400, { error: { type: 'invalid_request_error', message: 'The credit note amount is invalid for this invoice' } })
      }
      invoice.post_payment_credit_notes_amount = credited + amount
      const note = { id: `cn_fake_${creditNotes.length + 1}`, invoice: invoice.id, amount, refund_amount: refund, memo: form.get('memo') }
      creditNotes.push(note)
      return send(200, {
        ...note,
        object: 'credit_note',
        status: 'issued',
        customer: invoice.customer,
        currency: invoice.currency ?? 'eur',
      })
    }
    // --- end of billing part A's endpoints ---
    send(404, { error: { type: 'invalid_request_error', message: `No fake for ${req.method} ${url.pathname}` } })
  })
  // --- subscriptions' life cycle, promotion codes (billing part B) ---
  interface FakeCoupon {
    id: string
    percent_off: number | null
    amount_off: number | null
    currency: string | null
    duration: string
    duration_in_months: number | null
    name: string | null
  }
  interface FakePromotionCode {
    id: string
    code: string
    coupon: string
    active: boolean
    max_redemptions: number | null
    expires_at: number | null
    times_redeemed: number
    first_time_transaction: boolean
  }
  const coupons: FakeCoupon[] = []
  const promotionCodes: FakePromotionCode[] = []
  const notFound = (what: string, id: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', message: `No such ${what}: '${id}'` } },
  })
  const invalid = (message: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', message } } })
  const numberOr = (value: string | null) => (value === null || value === '' ? null : Number(value))

  // As Stripe does: a request repeated with its idempotency key gets the first answer, and makes nothing again.
  const answered = new Map<string, { status: number; body: unknown }>()
  function idempotent(key: string | undefined, answer: () => { status: number; body: unknown } | null) {
    if (key && answered.has(key)) return answered.get(key)!
    const result = answer()
    if (key && result) answered.set(key, result)
    return result
  }

  function lifecycleFields(subscription: FakeSubscription) {
    const promotion = subscription.promotion_code ? promotionCodes.find((code) => code.id === subscription.promotion_code) : undefined
    return {
      latest_invoice: subscription.latest_invoice ?? null,
      pause_collection: subscription.pause_collection ?? null,
      // As Stripe expands `data.discounts`: the discount names its promotion code.
      discounts: promotion
        ? [
            {
              id: `di_${subscription.id}`,
              object: 'discount',
              promotion_code: promotion.id,
              coupon: coupons.find((c) => c.id === promotion.coupon) ?? null,
            },
          ]
        : [],
    }
  }

  function lifecycleRoutes(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } | null {
    const updated = method === 'POST' && /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
    if (updated) {
      const subscription = subscriptions.find((candidate) => candidate.id === updated[1])
      if (!subscription) return notFound('subscription', updated[1]!)
      if (form.has('cancel_at_period_end')) {
        subscription.cancel_at_period_end = form.get('cancel_at_period_end') === 'true'
        subscription.canceled_at = subscription.cancel_at_period_end ? Math.floor(Date.now() / 1000) : null
      }
      if (form.get('pause_collection') === '') subscription.pause_collection = null
      else if (form.has('pause_collection[behavior]')) {
        const behavior = form.get('pause_collection[behavior]')!
        if (!['void', 'keep_as_draft', 'mark_uncollectible'].includes(behavior)) return invalid('Invalid pause_collection[behavior]')
        const resumesAt = numberOr(form.get('pause_collection[resumes_at]'))
        if (resumesAt !== null && resumesAt <= Date.now() / 1000) return invalid('resumes_at must be in the future')
        subscription.pause_collection = { behavior, resumes_at: resumesAt }
      }
      return {
        status: 200,
        body: {
          id: subscription.id,
          object: 'subscription',
          customer: subscription.customer,
          status: subscription.status,
          ...lifecycleFields(subscription),
        },
      }
    }
    if (method === 'POST' && path === '/v1/coupons') {
      const percent = numberOr(form.get('percent_off'))
      const amount = numberOr(form.get('amount_off'))
      if ((percent === null) === (amount === null)) return invalid('Exactly one of percent_off or amount_off is required')
      if (percent !== null && (percent <= 0 || percent > 100)) return invalid('Invalid percent_off')
      if (amount !== null && (amount <= 0 || !form.get('currency'))) return invalid('Invalid amount_off or currency')
      const duration = form.get('duration') ?? 'once'
      if (duration === 'repeating' && !form.get('duration_in_months')) return invalid('duration_in_months is required')
      const coupon: FakeCoupon = {
        id: `coupon_fake_${coupons.length + 1}`,
        percent_off: percent,
        amount_off: amount,
        currency: form.get('currency'),
        duration,
        duration_in_months: numberOr(form.get('duration_in_months')),
        name: form.get('name'),
      }
      coupons.push(coupon)
      return { status: 200, body: { object: 'coupon', valid: true, ...coupon } }
    }
    if (method === 'POST' && path === '/v1/promotion_codes') {
      const coupon = form.get('promotion[coupon]') ?? ''
      if (form.get('promotion[type]') !== 'coupon' || !coupons.some((c) => c.id === coupon)) return notFound('coupon', coupon)
      const code = form.get('code') ?? ''
      if (!/^[A-Za-z0-9-]+$/.test(code)) return invalid('Invalid code')
      if (promotionCodes.some((existing) => existing.active && existing.code.toUpperCase() === code.toUpperCase()))
        return invalid('An active promotion code with this code already exists')
      const promotion: FakePromotionCode = {
        id: `promo_fake_${promotionCodes.length + 1}`,
        code,
        coupon,
        active: true,
        max_redemptions: numberOr(form.get('max_redemptions')),
        expires_at: numberOr(form.get('expires_at')),
        times_redeemed: 0,
        first_time_transaction: form.get('restrictions[first_time_transaction]') === 'true',
      }
      promotionCodes.push(promotion)
      return { status: 200, body: fakePromotionCode(promotion) }
    }
    const promotionUpdate = method === 'POST' && /^\/v1\/promotion_codes\/([^/]+)$/.exec(path)
    if (promotionUpdate) {
      const promotion = promotionCodes.find((candidate) => candidate.id === promotionUpdate[1])
      if (!promotion) return notFound('promotion_code', promotionUpdate[1]!)
      if (form.has('active')) promotion.active = form.get('active') === 'true'
      return { status: 200, body: fakePromotionCode(promotion) }
    }
    return null
  }

  const fakePromotionCode = (promotion: FakePromotionCode) => ({
    object: 'promotion_code',
    ...promotion,
    promotion: { type: 'coupon', coupon: promotion.coupon },
    restrictions: { first_time_transaction: promotion.first_time_transaction },
  })

  /**
   * What Checkout does with a code typed by a customer: refused when inactive, expired, used up,
   * or (first_time_transaction) when the customer has paid before; else the new subscription
   * carries it. Returns the refusal, or the subscription.
   */
  function checkoutWithCode(code: string, subscription: FakeSubscription): string | FakeSubscription {
    const promotion = promotionCodes.find((candidate) => candidate.code.toUpperCase() === code.toUpperCase())
    if (!promotion || !promotion.active) return 'This code is invalid.'
    if (promotion.expires_at !== null && promotion.expires_at <= Date.now() / 1000) return 'This code has expired.'
    if (promotion.max_redemptions !== null && promotion.times_redeemed >= promotion.max_redemptions) return 'This code has been used up.'
    if (promotion.first_time_transaction && subscriptions.some((existing) => existing.customer === subscription.customer))
      return 'This code is only for first-time customers.'
    promotion.times_redeemed++
    subscriptions.push({ ...subscription, promotion_code: promotion.id })
    return subscriptions.at(-1)!
  }
  // --- end of billing part B ---

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    // Billing part B: what the fake holds of codes, and a Checkout that redeems one.
    coupons,
    promotionCodes,
    checkoutWithCode,
    /** billing part A: invoices as Stripe lists them, and the credit notes created. */
    invoices,
    creditNotes,
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
export function useFakeStripe(extraEnv: Record<string, string> = {}) {
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
        // billing part A: a file may turn on Stripe Tax or a tax rate (STRIPE_AUTOMATIC_TAX, STRIPE_TAX_RATE_ID).
        ...extraEnv,
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
