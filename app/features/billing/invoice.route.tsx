import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { z } from 'zod'
import { requireUser } from '~/features/account/guards.server'
import { can } from '~/platform/auth/capabilities'
import { longDate } from '~/platform/dates'
import { refuse } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { getInvoice } from './invoices.server'
import { formatMoney, includedVatCents, invoiceStatusLabel, TAX_WORDING, VAT_PERCENT } from './tax'
import type { Route } from './+types/invoice.route'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Factura ${loaderData?.number ?? ''} · ${site.name}` },
  { name: 'robots', content: 'noindex' },
]

const InvoiceId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)

/**
 * An invoice as a printable page (decisions/0033): what RD 1619/2012 asks an invoice to say, both
 * parties' names, tax ids and addresses, the base, the IVA apart and the total. The local test
 * checkout's invoices have no Stripe PDF; this is theirs. Its member's own, or any for an admin.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request)
  const id = InvoiceId.safeParse(params.invoiceId)
  if (!id.success) refuse(404, 'Factura no encontrada')
  const invoice = await getInvoice(id.data, can(viewer, 'manage-members') ? null : viewer.id)
  if (!invoice) refuse(404, 'Factura no encontrada')
  const money = (cents: number) => formatMoney(cents, invoice.currency)
  const base = invoice.totalCents - invoice.taxCents
  // A discount is on the tax-inclusive price: its base goes on its own line, under the price's.
  const discountBase = invoice.reverseCharge ? invoice.discountCents : invoice.discountCents - includedVatCents(invoice.discountCents)
  return {
    number: invoice.number ?? invoice.id,
    testMode: invoice.id.startsWith('test_'),
    status: invoiceStatusLabel(invoice),
    issuedOn: longDate(invoice.issuedAt),
    paidOn: invoice.paidAt ? longDate(invoice.paidAt) : null,
    buyer: { name: invoice.billingName, taxId: invoice.billingTaxId, address: invoice.billingAddress },
    description: invoice.description ?? `Membresía ${site.name}`,
    line: money(base + discountBase),
    discount:
      invoice.discountCents > 0
        ? { label: invoice.promotionCode ? `Descuento (código ${invoice.promotionCode})` : 'Descuento', amount: money(discountBase) }
        : null,
    base: money(base),
    tax: money(invoice.taxCents),
    total: money(invoice.totalCents),
    refunded: invoice.refundedCents > 0 ? money(invoice.refundedCents) : null,
    reverseCharge: invoice.reverseCharge,
  }
}

export default function InvoicePage({ loaderData: invoice }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10 print:py-0">
      <Button asChild variant="ghost" size="sm" className="justify-self-start print:hidden">
        <Link to="/perfil">
          <ArrowLeft aria-hidden /> Volver a mi perfil
        </Link>
      </Button>
      <article className="grid gap-6 rounded-lg border bg-card p-6 text-sm sm:p-8">
        <header className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h1 className="text-2xl font-bold">Factura {invoice.number}</h1>
            <p className="text-muted-foreground">Fecha de expedición: {invoice.issuedOn}</p>
            {invoice.paidOn ? <p className="text-muted-foreground">Fecha de pago: {invoice.paidOn}</p> : null}
          </div>
          <div className="flex flex-wrap gap-2">
            <Badge variant="secondary">{invoice.status}</Badge>
            {invoice.testMode ? <Badge variant="warning">Modo de prueba: sin validez fiscal</Badge> : null}
          </div>
        </header>
        <div className="grid gap-6 sm:grid-cols-2">
          <section aria-labelledby="issuer">
            <h2 id="issuer" className="font-semibold">
              Emisor
            </h2>
            <p>{site.legalName}</p>
            <p>NIF: {site.taxId}</p>
            <p>{site.address.full}</p>
          </section>
          <section aria-labelledby="buyer">
            <h2 id="buyer" className="font-semibold">
              Cliente
            </h2>
            <p>{invoice.buyer.name ?? 'Sin nombre de facturación'}</p>
            {invoice.buyer.taxId ? <p>NIF: {invoice.buyer.taxId}</p> : null}
            {invoice.buyer.address ? <p className="whitespace-pre-line break-words">{invoice.buyer.address}</p> : null}
          </section>
        </div>
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">Detalle de la factura</caption>
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-2 font-semibold">
                Concepto
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Importe
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-b">
              <td className="py-2">{invoice.description}</td>
              <td className="py-2 text-right">{invoice.line}</td>
            </tr>
            {invoice.discount ? (
              <tr className="border-b">
                <td className="py-2">{invoice.discount.label}</td>
                <td className="py-2 text-right">−{invoice.discount.amount}</td>
              </tr>
            ) : null}
            <tr>
              <th scope="row" className="py-1 font-normal">
                Base imponible
              </th>
              <td className="py-1 text-right">{invoice.base}</td>
            </tr>
            <tr>
              <th scope="row" className="py-1 font-normal">
                {invoice.reverseCharge ? `IVA 0 % · ${TAX_WORDING.reverseCharge}` : `IVA ${VAT_PERCENT} %`}
              </th>
              <td className="py-1 text-right">{invoice.tax}</td>
            </tr>
            <tr className="border-t text-base font-bold">
              <th scope="row" className="py-2">
                Total {invoice.reverseCharge ? '' : `(${TAX_WORDING.included})`}
              </th>
              <td className="py-2 text-right">{invoice.total}</td>
            </tr>
            {invoice.refunded ? (
              <tr>
                <th scope="row" className="py-1 font-normal">
                  Reembolsado (factura rectificativa)
                </th>
                <td className="py-1 text-right">−{invoice.refunded}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </article>
    </div>
  )
}
