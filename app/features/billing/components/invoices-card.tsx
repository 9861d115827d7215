import { Download } from 'lucide-react'
import { Form } from 'react-router'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { PartUnavailable } from '~/ui/error-boundary'
import { INVOICE_STATUS, type InvoiceStatusLabel, TAX_WORDING } from '../tax'

export interface InvoiceRow {
  id: string
  number: string
  date: string
  amount: string
  status: InvoiceStatusLabel
  /** An EU company's invoice without IVA (Stripe Tax's reverse charge). */
  reverseCharge: boolean
  /** Stripe's PDF, or our printable page for the test checkout's invoices. */
  href: string
  external: boolean
}

export const INVOICES_FAILED = 'No se pudieron cargar tus facturas'

/**
 * 'Facturas' in /perfil (decisions/0033): each invoice with its date, number, amount, state and
 * PDF; 'Datos de facturación' opens the billing portal, where the address and tax id of future
 * invoices are changed.
 */
export function InvoicesCard({ invoices, hasBillingAccount }: { invoices: InvoiceRow[] | null; hasBillingAccount: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Facturas</CardTitle>
        <CardDescription>
          Tus facturas con el IVA desglosado. El nombre, la dirección y el NIF se cambian en «Datos de facturación».
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {invoices === null ? (
          <PartUnavailable failed={INVOICES_FAILED} inCard />
        ) : invoices.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aún no tienes facturas.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Tus facturas">
            {invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 p-3 text-sm">
                <div className="grid gap-0.5">
                  <span className="font-medium">{invoice.number}</span>
                  <span className="text-muted-foreground">{invoice.date}</span>
                  {invoice.reverseCharge ? <span className="text-muted-foreground">{TAX_WORDING.reverseCharge}</span> : null}
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <span className="font-semibold tabular-nums">{invoice.amount}</span>
                  <Badge
                    variant={
                      invoice.status === INVOICE_STATUS.paid
                        ? 'secondary'
                        : invoice.status === INVOICE_STATUS.pending
                          ? 'warning'
                          : 'outline'
                    }
                  >
                    {invoice.status}
                  </Badge>
                  <a
                    href={invoice.href}
                    {...(invoice.external ? { target: '_blank', rel: 'noreferrer' } : {})}
                    className="inline-flex min-h-11 items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
                  >
                    <Download className="size-4" aria-hidden />
                    Descargar PDF<span className="sr-only"> de la factura {invoice.number}</span>
                    {invoice.external ? <span className="sr-only"> (se abre en una pestaña nueva)</span> : null}
                  </a>
                </div>
              </li>
            ))}
          </ul>
        )}
        {hasBillingAccount ? (
          <Form method="post" action="/billing/portal">
            <input type="hidden" name="intent" value="portal" />
            <Button type="submit" variant="outline">
              Datos de facturación
            </Button>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  )
}
