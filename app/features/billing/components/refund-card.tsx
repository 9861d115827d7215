import { getFormProps, useForm } from '@conform-to/react'
import { Undo2 } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import type { Failure } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { Disclosure } from '~/ui/disclosure'
import { FormError, TextareaField } from '~/ui/field'
import { HiddenFields } from '~/ui/hidden-fields'
import { GUARANTEE_DAYS, REFUND_REASON_MAX } from '../refund-limits'

/** What the member page's loader gives the card (refund.server.ts's offer, dates already in words). */
export interface RefundCardData {
  invoiceId: string
  number: string | null
  amount: string
  paidOn: string
  firstPaidOn: string
  withinGuarantee: boolean
  refunded: boolean
}

/**
 * The admin's 'Reembolso' card on /usuario/:id (decisions/0033): within the guarantee one button
 * refunds the first payment; past it the card says why it is not offered, and a typed reason
 * still refunds the latest payment. Either way the subscription ends now and premium goes.
 */
export function RefundCard({ offer, failure }: { offer: RefundCardData | null | 'failed'; failure?: Failure }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const [form, fields] = useForm<{ intent: string; invoiceId: string; reason?: string }>({
    id: 'refund',
    lastResult: failure?.submission,
  })
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Undo2 className="size-5" aria-hidden /> Reembolso
        </CardTitle>
        <CardDescription>
          Devuelve el pago íntegro con una factura rectificativa, cancela su suscripción en el acto y le quita el acceso premium. Se le
          avisa por email y queda registrado.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {offer === 'failed' ? (
          <p role="alert" className="text-sm text-destructive">
            No se pudieron cargar sus pagos
          </p>
        ) : offer === null ? (
          <p className="text-sm text-muted-foreground">No tiene ningún pago que reembolsar.</p>
        ) : offer.refunded ? (
          <p className="text-sm text-muted-foreground">
            Su pago del {offer.paidOn} ({offer.amount}) ya está reembolsado.
          </p>
        ) : offer.withinGuarantee ? (
          <Form method="post" className="grid gap-3">
            <HiddenFields values={{ intent: 'refund', invoiceId: offer.invoiceId }} />
            <p className="text-sm">
              Su primer pago, del {offer.paidOn}
              {offer.number ? ` (factura ${offer.number})` : ''}, está dentro de la garantía de {GUARANTEE_DAYS} días: se le devuelven{' '}
              <strong>{offer.amount}</strong>.
            </p>
            <Button type="submit" variant="destructive" size="sm" disabled={busy} className="justify-self-start">
              Reembolsar
            </Button>
          </Form>
        ) : (
          <>
            <p className="text-sm">
              No se ofrece el reembolso: han pasado más de {GUARANTEE_DAYS} días desde su primer pago (el {offer.firstPaidOn}).
            </p>
            <Disclosure summary="Reembolsar igualmente" summaryClassName="text-sm font-medium text-destructive hover:underline">
              <Form method="post" className="mt-3 grid gap-3" {...getFormProps(form)}>
                <HiddenFields values={{ intent: 'refund', invoiceId: offer.invoiceId }} />
                <p className="text-sm text-muted-foreground">
                  Se devuelve su último pago, del {offer.paidOn}
                  {offer.number ? ` (factura ${offer.number})` : ''}: {offer.amount}.
                </p>
                <TextareaField label="Motivo del reembolso" field={fields.reason!} required maxLength={REFUND_REASON_MAX} rows={3} />
                <FormError errors={form.errors} id={form.errorId} />
                <Button type="submit" variant="destructive" size="sm" disabled={busy} className="justify-self-start">
                  Reembolsar
                </Button>
              </Form>
            </Disclosure>
          </>
        )}
      </CardContent>
    </Card>
  )
}
