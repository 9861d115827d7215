import { Form, Link } from 'react-router'
import { z } from 'zod'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { Button } from '~/ui/button'
import { CardContent } from '~/ui/card'
import { applySubscriptionState, testSubscriptionsOf } from './billing.server'
import { TestModeCard } from './components/test-mode-card'
import { site } from '~/site.config'
import { isLocalTestCheckout } from './stripe.server'
import { requireUser } from '~/features/account/guards.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import type { Route } from './+types/test-portal.route'

export const meta: Route.MetaFunction = () => [{ title: `Modo de prueba · ${site.name}` }, { name: 'robots', content: 'noindex' }]

async function requireTestCustomer(request: Request) {
  if (!isLocalTestCheckout(request)) refuse(404, 'No encontrado')
  const user = await requireUser(request)
  const customerId = user.profile?.stripeCustomerId
  if (!customerId?.startsWith('test_cus_')) refuse(404, 'No encontrado')
  return { customerId, userId: user.id }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireTestCustomer(request)
  return null
}

/** The test stand-in for Stripe's billing portal: cancelling runs the webhook's code path. */
export async function action({ request }: Route.ActionArgs) {
  const { customerId, userId } = await requireTestCustomer(request)
  return handleIntent(request, z.object({ intent: z.literal('cancel-subscription') }), {
    'cancel-subscription': {
      invalid: 'Solicitud no válida',
      async run() {
        const now = Math.floor(Date.now() / 1000)
        const kept = await testSubscriptionsOf(userId)
        // Each one ends now, as Stripe describes an immediate cancellation (the dashboard counts it).
        const canceled = kept.map((subscription) => ({
          ...subscription,
          status: 'canceled' as const,
          currentPeriodEnd: null,
          startedAt: Math.floor(subscription.startedAt.getTime() / 1000),
          canceledAt: now,
          endedAt: now,
        }))
        await applySubscriptionState({
          customerId,
          subscriptions: canceled.length ? canceled : [{ status: 'canceled', currentPeriodEnd: null }],
        })
        return redirectWithToast('/perfil', { type: 'success', title: 'Suscripción cancelada' })
      },
    },
  })
}

export default function TestPortalPage() {
  return (
    <TestModeCard
      title="Gestionar suscripción"
      description="Portal de facturación simulado: en producción, aquí se abre el portal de Stripe."
    >
      <CardContent className="grid gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="cancel-subscription" />
          <Button type="submit" variant="destructive" className="w-full">
            Cancelar suscripción
          </Button>
        </Form>
        <Button asChild variant="outline">
          <Link to="/perfil">Volver a mi perfil</Link>
        </Button>
      </CardContent>
    </TestModeCard>
  )
}
