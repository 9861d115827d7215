import { pricing } from '~/features/site/content'
import { getDb } from '~/platform/db/client.server'
import { refuse } from '~/platform/http/responses.server'
import { applySubscriptionState, setTestCheckoutStatus } from './billing.server'
import { discountCentsOf, type RedeemableCode, redeemableCode } from './codes.server'
import { includedVatCents } from './tax'

export const PLAN_LABELS = Object.fromEntries(
  Object.values(pricing.plans).map((plan) => [plan.id, `${plan.label} · ${plan.price} ${plan.period}`]),
) as Record<keyof typeof pricing.plans, string>
const PERIOD_SECONDS = { monthly: 31 * 86_400, annual: 366 * 86_400 } as const

export interface TestPayment {
  user: { id: string; name: string | null }
  session: { id: string; plan: keyof typeof pricing.plans }
  billingName: string | null
  taxId: string | null
  billingAddress: string | null
  promotionCode: string | null
}

/**
 * A refused code: its message next to the field, what was typed given back (also without
 * JavaScript), nothing paid.
 */
function refuseCode(message: string, payment: TestPayment): never {
  const { billingName, taxId, billingAddress, promotionCode } = payment
  const typed = Object.entries({ billingName, taxId, billingAddress, promotionCode }).filter(
    (entry): entry is [string, string] => entry[1] !== null,
  )
  refuse(400, message, {
    detail: { session: payment.session.id, promotionCode },
    submission: { status: 'error', initialValue: { intent: 'pay', ...Object.fromEntries(typed) }, error: { promotionCode: [message] } },
  })
}

/**
 * 'Pagar (simulado)': the same activation code a Stripe webhook runs, with a simulated active
 * subscription and its paid invoice (decisions/0007, 0033). A promotion code is checked as Stripe
 * Checkout checks it, once before (its message at once) and again in the transaction that writes
 * the subscription naming it, with the code's row locked: its last use goes to one buyer.
 */
export async function payTestCheckout(payment: TestPayment) {
  const { user, session } = payment
  let code: RedeemableCode | null = null
  if (payment.promotionCode) {
    const found = await redeemableCode(getDb(), payment.promotionCode, user.id)
    if ('refusal' in found) refuseCode(found.refusal, payment)
    code = found.code
  }
  const now = Math.floor(Date.now() / 1000)
  const priceCents = pricing.plans[session.plan].amount * 100
  const discountCents = code ? discountCentsOf(code, priceCents) : 0
  const totalCents = priceCents - discountCents
  await applySubscriptionState({
    customerId: `test_cus_${user.id}`,
    userId: user.id,
    async claim(tx) {
      if (code) {
        const still = await redeemableCode(tx, code.code, user.id, { lock: true })
        if ('refusal' in still) refuseCode(still.refusal, payment)
      }
      // Paid once: a second click on the same session finds it spent.
      if (!(await setTestCheckoutStatus(session.id, 'paid', tx))) refuse(404, 'No encontrado', { detail: { session: session.id } })
    },
    subscriptions: [
      {
        status: 'active',
        currentPeriodEnd: now + PERIOD_SECONDS[session.plan],
        id: `test_sub_${session.id}`,
        plan: session.plan,
        // The prices the page shows, as Stripe's mirror keeps them (the price, not the discount):
        // an annual one counts as a twelfth a month.
        monthlyCents: Math.round(priceCents / (session.plan === 'annual' ? 12 : 1)),
        currency: 'eur',
        startedAt: now,
        promotionCodeId: code?.id ?? null,
      },
    ],
    // Its paid invoice, as Stripe's invoice.paid would bring it: IVA included in the price.
    invoices: [
      {
        id: `test_in_${session.id}`,
        subscriptionId: `test_sub_${session.id}`,
        number: `PRUEBA-${session.id.slice(-12).toUpperCase()}`,
        status: 'paid',
        currency: 'eur',
        totalCents,
        taxCents: includedVatCents(totalCents),
        refundedCents: 0,
        reverseCharge: false,
        discountCents,
        promotionCode: code?.code ?? null,
        billingName: payment.billingName ?? (user.name || null),
        billingTaxId: payment.taxId,
        billingAddress: payment.billingAddress,
        description: `${pricing.cardTitle} · ${PLAN_LABELS[session.plan]}`,
        hostedUrl: null,
        pdfUrl: null,
        issuedAt: now,
        paidAt: now,
      },
    ],
  })
}
