import { FlaskConical } from 'lucide-react'
import { data, Form, Link } from 'react-router'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { applySubscriptionState } from '~/models/billing.server'
import { site } from '~/site.config'
import { isLocalTestCheckout } from '~/utils/payments.server'
import { requireUser } from '~/utils/permissions.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { Route } from './+types/billing.test-portal'

export const meta: Route.MetaFunction = () => [{ title: `Modo de prueba · ${site.name}` }, { name: 'robots', content: 'noindex' }]

async function requireTestCustomer(request: Request) {
  if (!isLocalTestCheckout(request)) throw data('No encontrado', { status: 404 })
  const user = await requireUser(request)
  const customerId = user.profile?.stripeCustomerId
  if (!customerId?.startsWith('test_cus_')) throw data('No encontrado', { status: 404 })
  return customerId
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireTestCustomer(request)
  return null
}

/** The test stand-in for Stripe's billing portal: cancelling runs the webhook's code path. */
export async function action({ request }: Route.ActionArgs) {
  const customerId = await requireTestCustomer(request)
  await applySubscriptionState({ customerId, subscriptions: [{ status: 'canceled', currentPeriodEnd: null }] })
  return redirectWithToast('/perfil', { type: 'success', title: 'Suscripción cancelada' })
}

export default function TestPortalPage() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <Badge variant="warning" className="justify-self-start">
            <FlaskConical className="size-3.5" aria-hidden /> Modo de prueba
          </Badge>
          <CardTitle className="text-2xl">Gestionar suscripción</CardTitle>
          <CardDescription>Portal de facturación simulado: en producción, aquí se abre el portal de Stripe.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          <Form method="post">
            <Button type="submit" variant="destructive" className="w-full">
              Cancelar suscripción
            </Button>
          </Form>
          <Button asChild variant="outline">
            <Link to="/perfil">Volver a mi perfil</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}
