import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import * as profileRoute from '~/features/account/profile.route'
import * as memberRoute from '~/features/members/member.route'
import { invoices, subscriptions } from './schema'
import * as invoiceRoute from './invoice.route'
import { useTestDatabase } from '../../../tests/setup/database'
import { buyInTestCheckout, isPremium } from '../../../tests/setup/billing'
import { completeProfile, createPeople, type People } from '../../../tests/setup/members'
import { createConfirmedUser, formRequest, getRequest, queuedMails, run } from '../../../tests/setup/requests'

// Without configuration: the local test checkout writes its invoice through the webhook's code.
useTestDatabase()

const context = { cspNonce: 'test' }
let people: People
beforeAll(async () => {
  people = await createPeople()
})

const invoicesOf = (userId: string) => getDb().select().from(invoices).where(eq(invoices.userId, userId))
const printed = (invoiceId: string, cookie?: string) =>
  run(() =>
    invoiceRoute.loader({ request: getRequest(`/perfil/facturas/${invoiceId}`, { cookie }), params: { invoiceId }, context } as any),
  )

describe('invoices without configuration (local test checkout)', () => {
  test('a company buys with its NIF: a paid invoice with both parties, 89 € = 73,55 € + IVA 21 % 15,45 €', async () => {
    const member = await createConfirmedUser({ firstName: 'Marta', lastName: 'Ríos' })
    const paid = await buyInTestCheckout(member.cookie, {
      billingName: 'Biotec Norte, S.L.',
      taxId: 'B95123456',
      billingAddress: 'Gran Vía 10, 48001 Bilbao',
    })
    expect(paid.location).toBe('/success')
    const [invoice] = await invoicesOf(member.userId)
    expect(invoice).toMatchObject({
      status: 'paid',
      totalCents: 8900,
      taxCents: 1545,
      billingName: 'Biotec Norte, S.L.',
      billingTaxId: 'B95123456',
      billingAddress: 'Gran Vía 10, 48001 Bilbao',
      customerId: `test_cus_${member.userId}`,
      number: expect.stringMatching(/^PRUEBA-/),
    })

    const card = (
      await run(() => profileRoute.loader({ request: getRequest('/perfil', { cookie: member.cookie }), params: {}, context } as any))
    ).data.invoices
    expect(card).toEqual([
      expect.objectContaining({ status: 'Pagada', amount: '89,00\u00a0€', href: `/perfil/facturas/${invoice!.id}`, external: false }),
    ])
    const page = await printed(invoice!.id, member.cookie)
    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({
      testMode: true,
      status: 'Pagada',
      base: '73,55\u00a0€',
      tax: '15,45\u00a0€',
      total: '89,00\u00a0€',
      reverseCharge: false,
      buyer: { name: 'Biotec Norte, S.L.', taxId: 'B95123456', address: 'Gran Vía 10, 48001 Bilbao' },
    })
    // An admin may open it; another member may not.
    expect((await printed(invoice!.id, people.admin.cookie)).status).toBe(200)
    expect((await printed(invoice!.id, people.premium.cookie)).status).toBe(404)
    expect((await printed(invoice!.id)).status).toBe(302)
  })

  test('a person buys without a NIF: the invoice names them', async () => {
    const member = await createConfirmedUser({ firstName: 'Luis', lastName: 'Vega' })
    await buyInTestCheckout(member.cookie)
    expect((await invoicesOf(member.userId))[0]).toMatchObject({ billingName: 'Luis Vega', billingTaxId: null })
  })

  test('hostile billing fields: a 500-character tax id, symbols, control characters: 400, nothing paid', async () => {
    const member = await createConfirmedUser()
    const hostile: Array<Record<string, string>> = [
      { taxId: 'B'.repeat(500) },
      { taxId: '<script>' },
      { billingName: 'Uno\u202eDos' },
      { billingAddress: 'x'.repeat(301) },
    ]
    for (const billing of hostile) {
      const refused = await buyInTestCheckout(member.cookie, billing)
      expect(refused.status).toBe(400)
      expect(refused.data.message.title).toBe('Revisa los datos de facturación')
    }
    expect(await invoicesOf(member.userId)).toEqual([])
    expect(await isPremium(member.userId)).toBe(false)
  })

  test('the admin refunds within the guarantee: invoice refunded, subscription canceled, premium gone, e-mailed', async () => {
    const member = await createConfirmedUser()
    await completeProfile(member.userId)
    await buyInTestCheckout(member.cookie)
    const [invoice] = await invoicesOf(member.userId)
    const page = await run(() =>
      memberRoute.loader({
        request: getRequest(`/usuario/${member.userId}`, { cookie: people.admin.cookie }),
        params: { userId: member.userId },
        context,
      } as any),
    )
    expect(page.data.refund).toMatchObject({ invoiceId: invoice!.id, withinGuarantee: true })
    const done = await run(() =>
      memberRoute.action({
        request: formRequest(`/usuario/${member.userId}`, { intent: 'refund', invoiceId: invoice!.id }, { cookie: people.admin.cookie }),
        params: { userId: member.userId },
        context,
      } as any),
    )
    expect(done.status).toBe(302)
    expect((await invoicesOf(member.userId))[0]).toMatchObject({ refundedCents: 8900 })
    expect((await printed(invoice!.id, member.cookie)).data).toMatchObject({ status: 'Reembolsada', refunded: '89,00\u00a0€' })
    expect(
      await getDb().select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.userId, member.userId)),
    ).toEqual([{ status: 'canceled' }])
    expect(await isPremium(member.userId)).toBe(false)
    expect(await queuedMails(member.email, 'Te hemos devuelto tu pago de 89,00\u00a0€')).toHaveLength(1)
  })
})
