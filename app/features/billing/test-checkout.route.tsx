import { getFormProps, useForm } from '@conform-to/react'
import { Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { optionalText } from '~/platform/http/text-fields'
import { Field, FormError } from '~/ui/field'
import { TAX_WORDING } from './tax'
import { TaxIdField } from './invoice-fields'
import { CODE_LIMITS } from './limits'
import { requireUser } from '~/features/account/guards.server'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { CardContent } from '~/ui/card'
import { TestModeCard } from './components/test-mode-card'
import { getOpenTestCheckout, setTestCheckoutStatus } from './billing.server'
import { TypedCode } from './codes.server'
import { isLocalTestCheckout } from './stripe.server'
import { PLAN_LABELS, payTestCheckout } from './test-checkout.server'
import type { Route } from './+types/test-checkout.route'

export const meta: Route.MetaFunction = () => [{ title: `Modo de prueba · ${site.name}` }, { name: 'robots', content: 'noindex' }]

async function loadOwnSession(request: Request) {
  // Only without Stripe on a laptop, and only for this machine; anywhere else it is a 404.
  if (!isLocalTestCheckout(request)) refuse(404, 'No encontrado')
  const user = await requireUser(request)
  const session = await getOpenTestCheckout(new URL(request.url).searchParams.get('session') ?? '', user.id)
  if (!session) refuse(404, 'No encontrado')
  return { user, session }
}

export async function loader({ request }: Route.LoaderArgs) {
  const { session } = await loadOwnSession(request)
  return { planLabel: PLAN_LABELS[session.plan] }
}

/**
 * What Stripe Checkout asks a buyer for an invoice (decisions/0033), asked here too so the local
 * invoice names both parties: the name (a company's or a person's), a tax id when buying as a
 * company, the billing address; and, as Checkout accepts one, a promotion code (decisions/0034).
 */
const TestCheckoutIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('cancel') }),
  z.object({
    intent: z.literal('pay'),
    billingName: optionalText(200),
    taxId: TaxIdField,
    billingAddress: optionalText(300, { multiline: true }),
    promotionCode: TypedCode,
  }),
])

export async function action({ request }: Route.ActionArgs) {
  const { user, session } = await loadOwnSession(request)
  return handleIntent(request, TestCheckoutIntent, {
    cancel: {
      invalid: 'Solicitud no válida',
      async run() {
        await setTestCheckoutStatus(session.id, 'canceled')
        return redirect('/canceled')
      },
    },
    pay: {
      invalid: 'Revisa los datos de facturación',
      async run({ billingName, taxId, billingAddress, promotionCode }) {
        await payTestCheckout({ user, session, billingName, taxId, billingAddress, promotionCode })
        return redirect('/success')
      },
    },
  })
}

export default function TestCheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const [form, fields] = useForm<{ billingName?: string; taxId?: string; billingAddress?: string; promotionCode?: string }>({
    id: 'test-checkout',
    lastResult: actionData && !actionData.ok ? actionData.submission : undefined,
  })
  return (
    <TestModeCard
      title="Pago simulado"
      description="Este servidor no tiene Stripe configurado. Nada se cobra: el pago simulado activa la membresía premium con el mismo código que usa Stripe."
    >
      <CardContent className="grid gap-4">
        <div className="rounded-lg border bg-muted p-4">
          <p className="font-medium">{loaderData.planLabel}</p>
          <p className="text-sm text-muted-foreground">{TAX_WORDING.priceNote}</p>
        </div>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <fieldset className="grid gap-3">
            <legend className="mb-1 font-medium">Datos de facturación</legend>
            <Field label="Nombre o razón social" field={fields.billingName} autoComplete="organization" maxLength={200} />
            <Field label="NIF (si compras como empresa)" field={fields.taxId} maxLength={32} />
            <Field label="Dirección de facturación" field={fields.billingAddress} autoComplete="street-address" maxLength={300} />
          </fieldset>
          <Field
            label="Código promocional (opcional)"
            field={fields.promotionCode}
            maxLength={CODE_LIMITS.codeMax}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
          />
          <FormError errors={form.errors} id={form.errorId} />
          <Button type="submit" name="intent" value="pay" disabled={busy}>
            {busy ? 'Procesando...' : 'Pagar (simulado)'}
          </Button>
          <Button type="submit" name="intent" value="cancel" variant="outline" disabled={busy}>
            Cancelar
          </Button>
        </Form>
      </CardContent>
    </TestModeCard>
  )
}
