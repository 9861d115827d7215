import { and, desc, eq } from 'drizzle-orm'
import type Stripe from 'stripe'
import { profiles } from '~/features/account/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { isCleanText, isSafeHttpUrl } from '~/platform/http/text-fields'
import { logger } from '~/platform/logger.server'
import { invoices, stripeEvents } from './schema'
import { getStripe } from './stripe.server'

/** An invoice as Stripe now describes it, or as the local test checkout makes it (decisions/0033). */
export interface InvoiceState {
  id: string
  subscriptionId: string | null
  number: string | null
  status: string
  currency: string
  totalCents: number
  taxCents: number
  refundedCents: number
  reverseCharge: boolean
  /** What a promotion code took off, IVA included; `totalCents` is after it. */
  discountCents: number
  /** The code typed, when known (the test checkout's; Stripe's own PDF names it for its invoices). */
  promotionCode: string | null
  billingName: string | null
  billingTaxId: string | null
  billingAddress: string | null
  description: string | null
  hostedUrl: string | null
  pdfUrl: string | null
  /** Seconds since the epoch, as Stripe gives them. */
  issuedAt: number
  paidAt: number | null
}

/** How many of a customer's latest invoices are re-read on each event: years of monthly renewals. */
const INVOICES_READ = 36

/**
 * What Stripe says about the buyer reaches our pages: a text that is not a plausible name,
 * address or tax id (over-long, control characters) is dropped with a log line, never stored.
 */
function cleanText(value: string | null | undefined, max: number, field: string, invoiceId: string) {
  if (!value) return null
  const text = value.trim()
  if (text.length === 0) return null
  if (text.length > max || !isCleanText(text, { multiline: true })) {
    logger.warn({ invoiceId, field, length: text.length }, 'Stripe invoice field dropped: not a plausible value')
    return null
  }
  return text
}

/** Tax ids are short (ES B12345678, EU DE123456789): letters, digits and the separators people type. */
export function cleanTaxId(value: string | null | undefined, invoiceId = '') {
  const text = cleanText(value, 32, 'tax_id', invoiceId)
  if (text && !/^[A-Za-z0-9 .\-/]+$/.test(text)) {
    logger.warn({ invoiceId, field: 'tax_id' }, 'Stripe invoice field dropped: not a plausible value')
    return null
  }
  return text
}

const url = (value: string | null | undefined) => (value && isSafeHttpUrl(value) && value.length <= 2000 ? value : null)

function addressLine(address: Stripe.Address | null | undefined) {
  if (!address) return null
  const city = [address.postal_code, address.city].filter(Boolean).join(' ')
  return [address.line1, address.line2, city, address.state, address.country].filter(Boolean).join(', ') || null
}

export function invoiceStateOf(invoice: Stripe.Invoice): InvoiceState {
  const id = invoice.id ?? ''
  const taxes = invoice.total_taxes ?? []
  const subscription = invoice.parent?.subscription_details?.subscription
  return {
    id,
    subscriptionId: typeof subscription === 'string' ? subscription : (subscription?.id ?? null),
    number: cleanText(invoice.number, 64, 'number', id),
    status: invoice.status ?? 'draft',
    currency: invoice.currency,
    totalCents: invoice.total,
    taxCents: taxes.reduce((sum, tax) => sum + (tax.amount ?? 0), 0),
    refundedCents: invoice.post_payment_credit_notes_amount ?? 0,
    reverseCharge: taxes.some((tax) => tax.taxability_reason === 'reverse_charge'),
    discountCents: (invoice.total_discount_amounts ?? []).reduce((sum, discount) => sum + (discount.amount ?? 0), 0),
    promotionCode: null,
    billingName: cleanText(invoice.customer_name, 200, 'customer_name', id),
    billingTaxId: cleanTaxId(invoice.customer_tax_ids?.[0]?.value, id),
    billingAddress: cleanText(addressLine(invoice.customer_address), 300, 'customer_address', id),
    description: cleanText(invoice.lines?.data?.[0]?.description, 300, 'description', id),
    hostedUrl: url(invoice.hosted_invoice_url),
    pdfUrl: url(invoice.invoice_pdf),
    issuedAt: invoice.status_transitions?.finalized_at ?? invoice.created,
    paidAt: invoice.status_transitions?.paid_at ?? null,
  }
}

/** Re-reads a customer's latest invoices from Stripe: the truth, whatever order events came in. */
export async function readInvoices(customerId: string): Promise<InvoiceState[]> {
  const list = await getStripe().invoices.list({ customer: customerId, limit: INVOICES_READ })
  return list.data.filter((invoice) => invoice.id && invoice.status !== 'draft').map(invoiceStateOf)
}

const dateOf = (seconds: number | null) => (seconds ? new Date(seconds * 1000) : null)

/** Each invoice as described, rewritten whole (in the caller's transaction). */
export async function keepInvoices(tx: DbExecutor, userId: string, customerId: string, states: InvoiceState[]) {
  for (const state of states) {
    const { id, issuedAt, paidAt, ...rest } = state
    const row = { ...rest, userId, customerId, issuedAt: dateOf(issuedAt) ?? new Date(), paidAt: dateOf(paidAt), updatedAt: new Date() }
    await tx
      .insert(invoices)
      .values({ id, ...row })
      .onConflictDoUpdate({ target: invoices.id, set: row })
  }
}

/**
 * An invoice, credit note or refund event: the customer's invoices re-read and rewritten, for the
 * member the customer belongs to. Never touches access. An event for a customer not linked yet
 * is recorded and changes nothing; the checkout's own event re-reads the invoices when it links.
 */
export async function applyInvoiceState({
  customerId,
  invoices: states,
  eventId,
  eventType,
}: {
  customerId: string
  invoices: InvoiceState[]
  eventId: string
  eventType: string
}) {
  return getDb().transaction(async (tx) => {
    const fresh = await tx.insert(stripeEvents).values({ id: eventId, type: eventType }).onConflictDoNothing().returning()
    if (fresh.length === 0) return 'duplicate' as const
    const [owner] = await tx.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.stripeCustomerId, customerId))
    if (!owner) return null
    await keepInvoices(tx, owner.userId, customerId, states)
    return states.length
  })
}

/** The member's invoices for /perfil, newest first (index invoices_user_issued_idx). */
export async function listInvoices(userId: string, limit = 24) {
  return getDb()
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      currency: invoices.currency,
      totalCents: invoices.totalCents,
      refundedCents: invoices.refundedCents,
      reverseCharge: invoices.reverseCharge,
      pdfUrl: invoices.pdfUrl,
      issuedAt: invoices.issuedAt,
    })
    .from(invoices)
    .where(eq(invoices.userId, userId))
    .orderBy(desc(invoices.issuedAt))
    .limit(limit)
}

/** One invoice, whole, for its printable page: the owner's, or any for an admin. */
export async function getInvoice(id: string, ownerId: string | null) {
  const [row] = await getDb()
    .select({
      id: invoices.id,
      userId: invoices.userId,
      number: invoices.number,
      status: invoices.status,
      currency: invoices.currency,
      totalCents: invoices.totalCents,
      taxCents: invoices.taxCents,
      refundedCents: invoices.refundedCents,
      reverseCharge: invoices.reverseCharge,
      discountCents: invoices.discountCents,
      promotionCode: invoices.promotionCode,
      billingName: invoices.billingName,
      billingTaxId: invoices.billingTaxId,
      billingAddress: invoices.billingAddress,
      description: invoices.description,
      issuedAt: invoices.issuedAt,
      paidAt: invoices.paidAt,
    })
    .from(invoices)
    .where(ownerId ? and(eq(invoices.id, id), eq(invoices.userId, ownerId)) : eq(invoices.id, id))
  return row ?? null
}
