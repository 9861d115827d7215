/**
 * What members read about tax and invoices (decisions/0033). No Zod and no server code: the
 * pricing card, the test checkout, /perfil and the printable invoice all import it.
 */

/** Spanish IVA, general rate. Our prices include it for buyers in Spain (Stripe Tax or a tax rate charges it). */
export const VAT_PERCENT = 21

export const TAX_WORDING = {
  included: 'IVA incluido',
  /** Beside a price: the card, the test checkout. */
  priceNote: `IVA incluido (${VAT_PERCENT} %) para compras en España`,
  /** EU company with a valid VAT number, Stripe Tax on: no IVA charged (art. 84 LIVA). */
  reverseCharge: 'Inversión del sujeto pasivo',
} as const

export const INVOICE_STATUS = { paid: 'Pagada', pending: 'Pendiente', refunded: 'Reembolsada', void: 'Anulada' } as const
export type InvoiceStatusLabel = (typeof INVOICE_STATUS)[keyof typeof INVOICE_STATUS]

/** What the member sees of an invoice's state: refunded wins over paid once credit notes cover the total. */
export function invoiceStatusLabel({ status, totalCents, refundedCents }: { status: string; totalCents: number; refundedCents: number }) {
  if (status === 'void') return INVOICE_STATUS.void
  if (status === 'paid' && totalCents > 0 && refundedCents >= totalCents) return INVOICE_STATUS.refunded
  if (status === 'paid') return INVOICE_STATUS.paid
  return INVOICE_STATUS.pending
}

/** The IVA inside a tax-inclusive total (89 € → 15,45 €), rounded to the cent as Stripe does. */
export function includedVatCents(totalCents: number, percent = VAT_PERCENT) {
  return totalCents - Math.round((totalCents * 100) / (100 + percent))
}

const formatters = new Map<string, Intl.NumberFormat>()

export function formatMoney(cents: number, currency = 'eur') {
  const code = currency.toUpperCase()
  let formatter = formatters.get(code)
  if (!formatter) {
    formatter = new Intl.NumberFormat('es-ES', { style: 'currency', currency: code })
    formatters.set(code, formatter)
  }
  return formatter.format(cents / 100)
}
