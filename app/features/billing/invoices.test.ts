import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { auditLog } from '~/platform/audit/schema'
import { profiles } from '~/features/account/schema'
import { getEnv, setEnv } from '~/platform/env.server'
import * as profileRoute from '~/features/account/profile.route'
import * as memberRoute from '~/features/members/member.route'
import { loadDashboard } from '~/features/admin/dashboard.server'
import { invoices, refunds } from './schema'
import * as invoiceRoute from './invoice.route'
import { REFUND_MESSAGES } from './refund-limits'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { type FakeInvoice, useFakeStripe } from '../../../tests/setup/fake-stripe'
import { deliverWebhook as webhook, isPremium, startCheckout as checkout, stripeEvent as event } from '../../../tests/setup/billing'
import { createConfirmedUser, formRequest, getRequest, queuedMails, readToast, run } from '../../../tests/setup/requests'
import { completeProfile, createPeople, type People } from '../../../tests/setup/members'

useTestDatabase()

const context = { cspNonce: 'test' }
const fake = useFakeStripe()
const DAY = 86_400
const now = () => Math.floor(Date.now() / 1000)
const mirrored = (id: string) => getDb().select().from(invoices).where(eq(invoices.id, id))
const profilePage = (cookie: string) =>
  run(() => profileRoute.loader({ request: getRequest('/perfil', { cookie }), params: {}, context } as any))
const memberPage = (userId: string, cookie?: string) =>
  run(() => memberRoute.loader({ request: getRequest(`/usuario/${userId}`, { cookie }), params: { userId }, context } as any))
const memberAction = (userId: string, fields: Record<string, string>, cookie?: string) =>
  run(() => memberRoute.action({ request: formRequest(`/usuario/${userId}`, fields, { cookie }), params: { userId }, context } as any))

let invoiceCount = 0
/** A paying member: checkout, an active subscription, and a paid invoice `paidDaysAgo` days ago, all known to us. */
async function payingMember({ paidDaysAgo = 3, invoice = {} as Partial<FakeInvoice> } = {}) {
  const account = await createConfirmedUser()
  await completeProfile(account.userId)
  await checkout('monthly', account.cookie)
  const customerId = (await getDb().select({ c: profiles.stripeCustomerId }).from(profiles).where(eq(profiles.userId, account.userId)))[0]!
    .c!
  invoiceCount++
  const paidAt = now() - paidDaysAgo * DAY
  const subscriptionId = `sub_inv_${invoiceCount}`
  fake.subscriptions.push({ id: subscriptionId, customer: customerId, status: 'active', current_period_end: now() + 30 * DAY })
  const paid: FakeInvoice = {
    id: `in_fake_${invoiceCount}`,
    customer: customerId,
    subscription: subscriptionId,
    number: `CC-2026-${String(invoiceCount).padStart(4, '0')}`,
    status: 'paid',
    total: 8900,
    tax: 1545,
    customer_name: 'Laboratorios Uno, S.L.',
    customer_tax_id: { type: 'es_cif', value: 'B12345678' },
    customer_address: { line1: 'Calle Mayor 1', postal_code: '28001', city: 'Madrid', country: 'ES' },
    created: paidAt,
    paid_at: paidAt,
    ...invoice,
  }
  fake.invoices.push(paid)
  expect((await webhook(event('checkout.session.completed', { customer: customerId, client_reference_id: account.userId }))).status).toBe(
    200,
  )
  return { ...account, customerId, invoiceId: paid.id, subscriptionId }
}

describe('Checkout for companies and people', () => {
  test('asks for the billing address and a tax id, writes them on the customer; no tax setting: no tax parameter', async () => {
    const { cookie } = await createConfirmedUser()
    expect((await checkout('monthly', cookie)).status).toBe(303)
    const form = Object.fromEntries(fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form)
    expect(form).toMatchObject({
      billing_address_collection: 'required',
      'tax_id_collection[enabled]': 'true',
      'customer_update[name]': 'auto',
      'customer_update[address]': 'auto',
      'custom_text[submit][message]': 'IVA incluido (21 %) para compras en España',
      'line_items[0][price]': 'price_monthly_89',
    })
    expect(form).not.toHaveProperty('automatic_tax[enabled]')
    expect(form).not.toHaveProperty('line_items[0][tax_rates][0]')
  })

  test('Stripe Tax on: automatic_tax; a tax rate instead: on the line', async () => {
    const previous = getEnv()
    try {
      setEnv({ ...previous, STRIPE_AUTOMATIC_TAX: true })
      await checkout('annual', (await createConfirmedUser()).cookie)
      const automatic = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form
      expect(automatic.get('automatic_tax[enabled]')).toBe('true')
      expect(automatic.get('line_items[0][tax_rates][0]')).toBeNull()
      setEnv({ ...previous, STRIPE_TAX_RATE_ID: 'txr_iva21' })
      await checkout('annual', (await createConfirmedUser()).cookie)
      const rate = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form
      expect(rate.get('line_items[0][tax_rates][0]')).toBe('txr_iva21')
      expect(rate.get('automatic_tax[enabled]')).toBeNull()
    } finally {
      setEnv(previous)
    }
  })
})

describe('the invoices mirror', () => {
  test('invoice.paid brings the invoice with both parties and the IVA apart; /perfil lists it', async () => {
    const member = await payingMember()
    expect((await webhook(event('invoice.paid', { object: 'invoice', customer: member.customerId }))).data).toEqual({ received: true })
    expect(await mirrored(member.invoiceId)).toEqual([
      expect.objectContaining({
        userId: member.userId,
        status: 'paid',
        totalCents: 8900,
        taxCents: 1545,
        reverseCharge: false,
        billingName: 'Laboratorios Uno, S.L.',
        billingTaxId: 'B12345678',
        billingAddress: 'Calle Mayor 1, 28001 Madrid, ES',
        pdfUrl: `https://pay.stripe.com/invoice/${member.invoiceId}/pdf`,
      }),
    ])
    const page = await profilePage(member.cookie)
    expect(page.data.invoices).toEqual([
      expect.objectContaining({
        number: expect.stringMatching(/^CC-2026-/),
        amount: '89,00\u00a0€',
        status: 'Pagada',
        href: `https://pay.stripe.com/invoice/${member.invoiceId}/pdf`,
        external: true,
      }),
    ])
  })

  test('an EU company under Stripe Tax: the reverse charge is kept and printed', async () => {
    const member = await payingMember({
      invoice: { tax: 0, reverse_charge: true, customer_tax_id: { type: 'eu_vat', value: 'DE123456789' }, total: 7355 },
    })
    const [row] = await mirrored(member.invoiceId)
    expect(row).toMatchObject({ reverseCharge: true, taxCents: 0, billingTaxId: 'DE123456789' })
    expect((await profilePage(member.cookie)).data.invoices[0]).toMatchObject({ reverseCharge: true, amount: '73,55\u00a0€' })
    const printed = await run(() =>
      invoiceRoute.loader({
        request: getRequest(`/perfil/facturas/${member.invoiceId}`, { cookie: member.cookie }),
        params: { invoiceId: member.invoiceId },
        context,
      } as any),
    )
    expect(printed.data).toMatchObject({ reverseCharge: true, tax: '0,00\u00a0€', total: '73,55\u00a0€' })
  })

  test('an invoice event before the checkout links the customer is applied when the checkout completes; a duplicate is ignored', async () => {
    const account = await createConfirmedUser()
    await completeProfile(account.userId)
    const customerId = `cus_late_${account.userId.slice(0, 8)}`
    fake.subscriptions.push({
      id: `sub_late_${account.userId}`,
      customer: customerId,
      status: 'active',
      current_period_end: now() + 30 * DAY,
    })
    fake.invoices.push({
      id: `in_late_${account.userId.slice(0, 8)}`,
      customer: customerId,
      status: 'paid',
      total: 8900,
      tax: 1545,
      paid_at: now(),
    })
    const early = event('invoice.paid', { customer: customerId })
    expect((await webhook(early)).status).toBe(200)
    expect(await mirrored(`in_late_${account.userId.slice(0, 8)}`)).toEqual([])
    await webhook(event('checkout.session.completed', { customer: customerId, client_reference_id: account.userId }))
    expect(await mirrored(`in_late_${account.userId.slice(0, 8)}`)).toHaveLength(1)
    expect((await webhook(early)).data).toEqual({ received: true, duplicate: true })
  })

  test('hostile values from Stripe: a 500-character tax id and a name with control characters are dropped, the invoice kept', async () => {
    const member = await payingMember({
      invoice: { customer_tax_id: { type: 'es_cif', value: 'B'.repeat(500) }, customer_name: 'Uno\u0000\u202eS.L.' },
    })
    expect((await webhook(event('invoice.finalized', { customer: member.customerId }))).status).toBe(200)
    expect((await mirrored(member.invoiceId))[0]).toMatchObject({ billingTaxId: null, billingName: null, totalCents: 8900 })
  })

  test('invoice events never take premium away, whatever Stripe lists', async () => {
    const member = await payingMember()
    expect(await isPremium(member.userId)).toBe(true)
    fake.subscriptions.find((s) => s.id === member.subscriptionId)!.status = 'canceled'
    for (const type of ['invoice.paid', 'invoice.voided', 'credit_note.created', 'charge.refunded']) {
      expect((await webhook(event(type, { customer: member.customerId }))).status).toBe(200)
    }
    expect(await isPremium(member.userId)).toBe(true)
  })

  test('another member cannot open my invoice; an unknown or malformed id is a 404', async () => {
    const member = await payingMember()
    const other = await createConfirmedUser()
    for (const [invoiceId, cookie] of [
      [member.invoiceId, other.cookie],
      ['in_unknown', member.cookie],
      ['../../etc/passwd', member.cookie],
    ] as const) {
      const outcome = await run(() =>
        invoiceRoute.loader({ request: getRequest(`/perfil/facturas/x`, { cookie }), params: { invoiceId }, context } as any),
      )
      expect(outcome.status).toBe(404)
      expect(outcome.data.message.title).toBe('Factura no encontrada')
    }
  })
})

describe('refund within the guarantee (admin, /usuario/:id)', () => {
  let people: People
  const admin = () => people.admin.cookie!
  beforeAll(async () => {
    people = await createPeople()
  })

  test('authorization: anonymous to sign in, member and moderator refused, nothing refunded', async () => {
    const member = await payingMember()
    const fields = { intent: 'refund', invoiceId: member.invoiceId }
    const notes = fake.creditNotes.length
    expect((await memberAction(member.userId, fields)).status).toBe(302)
    for (const persona of ['member', 'premium', 'moderator'] as const) {
      const refused = await memberAction(member.userId, fields, people[persona].cookie)
      expect(refused.status).toBe(403)
      expect(refused.data.message.title).toBe('Solo para administradores')
    }
    expect(fake.creditNotes.length).toBe(notes)
    expect(await getDb().select().from(refunds).where(eq(refunds.invoiceId, member.invoiceId))).toEqual([])
    // Only admins see the card's data.
    expect((await memberPage(member.userId, people.premium.cookie)).data.refund).toBeNull()
  })

  test('within 30 days: a credit note refunds the whole invoice, the subscription ends now, premium goes; audited and e-mailed', async () => {
    const member = await payingMember({ paidDaysAgo: 29 })
    const page = await memberPage(member.userId, admin())
    expect(page.data.refund).toMatchObject({ invoiceId: member.invoiceId, withinGuarantee: true, refunded: false, amount: '89,00\u00a0€' })

    const before = await loadDashboard(30)
    const done = await memberAction(member.userId, { intent: 'refund', invoiceId: member.invoiceId }, admin())
    expect(done.status).toBe(302)
    expect(done.location).toBe(`/usuario/${member.userId}`)
    expect(await readToast(done.headers)).toMatchObject({ type: 'success', title: 'Pago reembolsado y membresía cancelada' })

    const note = fake.requests.filter((r) => r.path === '/v1/credit_notes').at(-1)!
    expect(Object.fromEntries(note.form)).toMatchObject({ invoice: member.invoiceId, amount: '8900', refund_amount: '8900' })
    expect(note.idempotencyKey).toBe(`refund:${member.invoiceId}`)
    const cancel = fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${member.subscriptionId}`)
    expect(cancel).toHaveLength(1)
    expect(await isPremium(member.userId)).toBe(false)
    expect((await mirrored(member.invoiceId))[0]).toMatchObject({ refundedCents: 8900 })
    expect((await profilePage(member.cookie)).data.invoices[0].status).toBe('Reembolsada')

    const lines = await getDb().select().from(auditLog).where(eq(auditLog.targetUserId, member.userId))
    expect(lines.find((line) => line.action === 'payment_refunded')).toMatchObject({
      actorUserId: people.admin.userId,
      details: expect.objectContaining({ invoiceId: member.invoiceId, amountCents: 8900, withinGuarantee: true }),
    })
    expect(await queuedMails(member.email, 'Te hemos devuelto tu pago de 89,00\u00a0€')).toHaveLength(1)
    const after = await loadDashboard(30)
    expect(after.money.refunds - before.money.refunds).toBe(1)
    expect(after.money.refundedCents - before.money.refundedCents).toBe(8900)

    // Twice: refused, and Stripe is not called again.
    const notes = fake.creditNotes.length
    const again = await memberAction(member.userId, { intent: 'refund', invoiceId: member.invoiceId }, admin())
    expect(again.status).toBe(409)
    expect(again.data.message.title).toBe(REFUND_MESSAGES.already)
    expect(fake.creditNotes.length).toBe(notes)
    expect((await memberPage(member.userId, admin())).data.refund).toMatchObject({ refunded: true })
  })

  test('past 30 days: not offered; a reason is required, 10,000 characters refused, a typed one refunds and is audited', async () => {
    const member = await payingMember({ paidDaysAgo: 40 })
    expect((await memberPage(member.userId, admin())).data.refund).toMatchObject({ withinGuarantee: false })
    const fields = { intent: 'refund', invoiceId: member.invoiceId }
    const missing = await memberAction(member.userId, fields, admin())
    expect(missing.status).toBe(400)
    expect(missing.data.message.title).toBe(REFUND_MESSAGES.reasonRequired)
    const long = await memberAction(member.userId, { ...fields, reason: 'x'.repeat(10_000) }, admin())
    expect(long.status).toBe(400)
    expect(long.data.message.title).toBe(REFUND_MESSAGES.invalid)
    expect(long.data.submission.error.reason).toEqual([REFUND_MESSAGES.reasonTooLong])
    const control = await memberAction(member.userId, { ...fields, reason: 'Motivo\u202e' }, admin())
    expect(control.status).toBe(400)
    expect(fake.creditNotes.filter((note) => note.invoice === member.invoiceId)).toEqual([])

    const done = await memberAction(member.userId, { ...fields, reason: 'Baja médica: lo pide por escrito' }, admin())
    expect(done.status).toBe(302)
    const [refund] = await getDb().select().from(refunds).where(eq(refunds.invoiceId, member.invoiceId))
    expect(refund).toMatchObject({ status: 'done', withinGuarantee: false, reason: 'Baja médica: lo pide por escrito', amountCents: 8900 })
    expect(await isPremium(member.userId)).toBe(false)
  })

  test('unknown members, a member who never paid, a stale invoice id: 4xx with the fixed message, never a 500', async () => {
    const unknown = crypto.randomUUID()
    const none = await memberAction(unknown, { intent: 'refund', invoiceId: 'in_x' }, admin())
    expect(none.status).toBe(404)
    expect(none.data.message.title).toBe(REFUND_MESSAGES.nothing)
    expect((await memberAction('not-a-uuid', { intent: 'refund', invoiceId: 'in_x' }, admin())).status).toBe(400)
    const unpaid = await createConfirmedUser()
    expect((await memberAction(unpaid.userId, { intent: 'refund', invoiceId: 'in_x' }, admin())).status).toBe(404)
    const member = await payingMember()
    const stale = await memberAction(member.userId, { intent: 'refund', invoiceId: 'in_other' }, admin())
    expect(stale.status).toBe(409)
    expect(stale.data.message.title).toBe(REFUND_MESSAGES.changed)
    const huge = await memberAction(member.userId, { intent: 'refund', invoiceId: 'i'.repeat(5000) }, admin())
    expect(huge.status).toBe(400)
  })

  test('Stripe refusing: 500 with the fixed message, nothing kept; the admin can try again', async () => {
    const member = await payingMember()
    fake.failNextWith(500)
    const failed = await memberAction(member.userId, { intent: 'refund', invoiceId: member.invoiceId }, admin())
    expect(failed.status).toBe(500)
    expect(failed.data.message.title).toBe(REFUND_MESSAGES.failed)
    expect(await getDb().select().from(refunds).where(eq(refunds.invoiceId, member.invoiceId))).toEqual([])
    expect(await isPremium(member.userId)).toBe(true)
    expect((await memberAction(member.userId, { intent: 'refund', invoiceId: member.invoiceId }, admin())).status).toBe(302)
  })

  concurrencyTest('two admins refunding at once refund once', async () => {
    const member = await payingMember()
    const fields = { intent: 'refund', invoiceId: member.invoiceId }
    const outcomes = await Promise.all([memberAction(member.userId, fields, admin()), memberAction(member.userId, fields, admin())])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 409])
    expect(fake.creditNotes.filter((note) => note.invoice === member.invoiceId)).toHaveLength(1)
    expect(await getDb().select().from(refunds).where(eq(refunds.invoiceId, member.invoiceId))).toHaveLength(1)
  })
})
