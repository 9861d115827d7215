import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import * as profileRoute from '~/features/account/profile.route'
import { invoices, promotionCodes, subscriptions } from './schema'
import * as codesRoute from './codes.route'
import * as invoiceRoute from './invoice.route'
import * as testPortalRoute from './test-portal.route'
import { listCodes } from './codes.server'
import { REDEEM_MESSAGES } from './limits'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { buyInTestCheckout, isPremium, LOCAL, postTestCheckout, startCheckout } from '../../../tests/setup/billing'
import { createPeople, type People } from '../../../tests/setup/members'
import { createConfirmedUser, formRequest, getRequest, run } from '../../../tests/setup/requests'

// Without configuration the pricing button leads to the local test checkout, which takes the
// codes created in /admin/codigos as Stripe Checkout takes Stripe's (decisions/0034).
useTestDatabase()

const context = { cspNonce: 'test' }
let people: People
beforeAll(async () => {
  people = await createPeople()
})

let codes = 0
/** A code created in the console as an admin does it; returns what a buyer types. */
async function createCode(fields: Record<string, string> = {}) {
  const code = `PRUEBA-${++codes}-${Date.now().toString(36)}`.toUpperCase()
  const outcome = await run(() =>
    codesRoute.action({
      request: formRequest(
        '/admin/codigos',
        { intent: 'create-code', code, kind: 'percent', percentOff: '20', duration: 'once', ...fields },
        { cookie: people.admin.cookie },
      ),
      params: {},
      context,
    } as any),
  )
  expect(outcome.data).toMatchObject({ ok: true })
  const [row] = await getDb().select({ id: promotionCodes.id }).from(promotionCodes).where(eq(promotionCodes.code, code))
  return { code, id: row!.id }
}

const invoicesOf = (userId: string) => getDb().select().from(invoices).where(eq(invoices.userId, userId))
const usesOf = async (id: string) => (await listCodes()).find((code) => code.id === id)!

/** A refused code: its message beside the field, what was typed given back, nothing charged, the session still open. */
async function expectRefused(member: { userId: string; cookie: string }, typed: string, message: string, title = message) {
  const started = await startCheckout('monthly', member.cookie, LOCAL)
  const fields = { intent: 'pay', billingName: 'Biotec Norte, S.L.', taxId: 'B95123456', promotionCode: typed }
  const refused = await postTestCheckout(started.location!, fields, member.cookie)
  expect(refused.status).toBe(400)
  expect(refused.data.message.title).toBe(title)
  expect(refused.data.submission.error.promotionCode).toEqual([message])
  expect(refused.data.submission.initialValue).toMatchObject({ billingName: 'Biotec Norte, S.L.', taxId: 'B95123456' })
  expect(refused.data.submission.initialValue.promotionCode.trim()).toBe(typed.trim())
  expect(await invoicesOf(member.userId)).toEqual([])
  expect(await isPremium(member.userId)).toBe(false)
  // Nothing was spent: the same session pays without the code.
  return started.location!
}

describe('a promotion code at the local test checkout', () => {
  test('a company buys with its NIF and a 20 % code: the invoice shows the discount and the code, the code counts a redemption', async () => {
    const { code, id } = await createCode({ maxRedemptions: '5' })
    const member = await createConfirmedUser()
    const paid = await buyInTestCheckout(member.cookie, {
      billingName: 'Biotec Norte, S.L.',
      taxId: 'B95123456',
      billingAddress: 'Gran Vía 10, 48001 Bilbao',
      // Typed in lower case with spaces around: the code as created.
      promotionCode: ` ${code.toLowerCase()} `,
    })
    expect(paid.location).toBe('/success')
    expect(await isPremium(member.userId)).toBe(true)
    const [invoice] = await invoicesOf(member.userId)
    // 89 € − 20 % = 71,20 €, IVA included: 58,84 € + 12,36 €.
    expect(invoice).toMatchObject({ totalCents: 7120, taxCents: 1236, discountCents: 1780, promotionCode: code, billingTaxId: 'B95123456' })
    const [subscription] = await getDb()
      .select({ promotionCodeId: subscriptions.promotionCodeId, monthlyCents: subscriptions.monthlyCents })
      .from(subscriptions)
      .where(eq(subscriptions.userId, member.userId))
    expect(subscription).toEqual({ promotionCodeId: id, monthlyCents: 8900 })

    const printed = await run(() =>
      invoiceRoute.loader({
        request: getRequest(`/perfil/facturas/${invoice!.id}`, { cookie: member.cookie }),
        params: { invoiceId: invoice!.id },
        context,
      } as any),
    )
    expect(printed.data).toMatchObject({
      line: '73,55\u00a0€',
      discount: { label: `Descuento (código ${code})`, amount: '14,71\u00a0€' },
      base: '58,84\u00a0€',
      tax: '12,36\u00a0€',
      total: '71,20\u00a0€',
      buyer: { name: 'Biotec Norte, S.L.', taxId: 'B95123456' },
    })
    const card = (
      await run(() => profileRoute.loader({ request: getRequest('/perfil', { cookie: member.cookie }), params: {}, context } as any))
    ).data.invoices
    expect(card).toEqual([expect.objectContaining({ status: 'Pagada', amount: '71,20\u00a0€' })])

    // The console's redemptions and revenue (the subscription's price, as for Stripe's codes) move.
    expect(await usesOf(id)).toMatchObject({ redemptions: 1, mrrCents: 8900, state: 'active' })
    const page = await run(() =>
      codesRoute.loader({ request: getRequest('/admin/codigos', { cookie: people.admin.cookie }), params: {}, context } as any),
    )
    expect(page.data.codes.find((row: { code: string }) => row.code === code)).toMatchObject({ uses: '1 de 5' })
  })

  test('an amount code takes off at most the price: 10 € off 89 €', async () => {
    const { code } = await createCode({ kind: 'amount', percentOff: '', amountOff: '10' })
    const member = await createConfirmedUser()
    expect((await buyInTestCheckout(member.cookie, { promotionCode: code })).location).toBe('/success')
    expect((await invoicesOf(member.userId))[0]).toMatchObject({ totalCents: 7900, discountCents: 1000, promotionCode: code })
  })

  test('expired, exhausted, deactivated, unknown: its message beside the field, nothing charged, what was typed kept', async () => {
    const expired = await createCode({ endsOn: '2099-12-31' })
    await getDb()
      .update(promotionCodes)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(promotionCodes.id, expired.id))
    const exhausted = await createCode({ maxRedemptions: '1' })
    expect((await buyInTestCheckout((await createConfirmedUser()).cookie, { promotionCode: exhausted.code })).location).toBe('/success')
    const deactivated = await createCode()
    await run(() =>
      codesRoute.action({
        request: formRequest('/admin/codigos', { intent: 'deactivate-code', codeId: deactivated.id }, { cookie: people.admin.cookie }),
        params: {},
        context,
      } as any),
    )

    const member = await createConfirmedUser()
    await expectRefused(member, expired.code, REDEEM_MESSAGES.expired)
    await expectRefused(member, exhausted.code, REDEEM_MESSAGES.exhausted)
    await expectRefused(member, deactivated.code, REDEEM_MESSAGES.invalid)
    const path = await expectRefused(member, 'NO-EXISTE', REDEEM_MESSAGES.invalid)
    expect(await usesOf(exhausted.id)).toMatchObject({ redemptions: 1, state: 'exhausted' })
    expect(await usesOf(expired.id)).toMatchObject({ redemptions: 0, state: 'expired' })

    // The session the refusals left open still pays, without a code, at the full price.
    expect((await postTestCheckout(path, { intent: 'pay' }, member.cookie)).location).toBe('/success')
    expect((await invoicesOf(member.userId))[0]).toMatchObject({ totalCents: 8900, discountCents: 0, promotionCode: null })
  })

  test('hostile codes: control characters, 500 characters, symbols: the same message, nothing charged', async () => {
    const { code } = await createCode()
    const member = await createConfirmedUser()
    for (const typed of [`${code}\u0000`, `${code}\u202e`, 'A'.repeat(500), "SOCIO' OR '1'='1", '<script>']) {
      await expectRefused(member, typed, REDEEM_MESSAGES.invalid, 'Revisa los datos de facturación')
    }
  })

  test('only for a first-time customer: a member who had a subscription cannot bring a code to a new one', async () => {
    const { code, id } = await createCode()
    const member = await createConfirmedUser()
    expect((await buyInTestCheckout(member.cookie)).location).toBe('/success')
    const cancelled = await run(() =>
      testPortalRoute.action({
        request: formRequest('/billing/test-portal', { intent: 'cancel-subscription' }, { cookie: member.cookie, ip: LOCAL }),
        params: {},
        context,
      } as any),
    )
    expect(cancelled.location).toBe('/perfil')
    const started = await startCheckout('monthly', member.cookie, LOCAL)
    const refused = await postTestCheckout(started.location!, { intent: 'pay', promotionCode: code }, member.cookie)
    expect(refused.status).toBe(400)
    expect(refused.data.submission.error).toEqual({ promotionCode: [REDEEM_MESSAGES.notFirstTime] })
    expect(await invoicesOf(member.userId)).toHaveLength(1)
    expect(await usesOf(id)).toMatchObject({ redemptions: 0 })
  })

  concurrencyTest('the last use of a code taken by two buyers at once is redeemed once', async () => {
    const { code, id } = await createCode({ maxRedemptions: '1' })
    const buyers = [await createConfirmedUser(), await createConfirmedUser()]
    const paths = await Promise.all(buyers.map(async (buyer) => (await startCheckout('monthly', buyer.cookie, LOCAL)).location!))
    const outcomes = await Promise.all(
      buyers.map((buyer, index) => postTestCheckout(paths[index]!, { intent: 'pay', promotionCode: code }, buyer.cookie)),
    )
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 400])
    const loser = outcomes.find((outcome) => outcome.status === 400)!
    expect(loser.data.submission.error).toEqual({ promotionCode: [REDEEM_MESSAGES.exhausted] })
    expect(await usesOf(id)).toMatchObject({ redemptions: 1, state: 'exhausted' })
    const charged = await getDb().select({ userId: invoices.userId }).from(invoices).where(eq(invoices.promotionCode, code))
    expect(charged).toHaveLength(1)
    const premium = await Promise.all(buyers.map((buyer) => isPremium(buyer.userId)))
    expect(premium.sort()).toEqual([false, true])
  })

  concurrencyTest('the same session paid twice at once is paid once', async () => {
    const member = await createConfirmedUser()
    const started = await startCheckout('monthly', member.cookie, LOCAL)
    const outcomes = await Promise.all([
      postTestCheckout(started.location!, { intent: 'pay' }, member.cookie),
      postTestCheckout(started.location!, { intent: 'pay' }, member.cookie),
    ])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 404])
    expect(await invoicesOf(member.userId)).toHaveLength(1)
  })
})
