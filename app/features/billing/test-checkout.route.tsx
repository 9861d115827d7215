import { Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { pricing } from '~/features/site/content'
import { requireUser } from '~/features/account/guards.server'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { CardContent } from '~/ui/card'
import { TestModeCard } from './components/test-mode-card'
import { applySubscriptionState, getOpenTestCheckout, setTestCheckoutStatus } from './billing.server'
import { isLocalTestCheckout } from './stripe.server'
import type { Route } from './+types/test-checkout.route'

export const meta: Route.MetaFunction = () => [{ title: `Modo de prueba · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const PLAN_LABELS = Object.fromEntries(
  Object.values(pricing.plans).map((plan) => [plan.id, `${plan.label} · ${plan.price} ${plan.period}`]),
) as Record<keyof typeof pricing.plans, string>
const PERIOD_SECONDS = { monthly: 31 * 86_400, annual: 366 * 86_400 } as const

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
  return { plan: session.plan }
}

export async function action({ request }: Route.ActionArgs) {
  const { user, session } = await loadOwnSession(request)
  return handleIntent(request, z.object({ intent: z.enum(['pay', 'cancel']) }), {
    cancel: {
      invalid: 'Solicitud no válida',
      async run() {
        await setTestCheckoutStatus(session.id, 'canceled')
        return redirect('/canceled')
      },
    },
    pay: {
      invalid: 'Solicitud no válida',
      async run() {
        await setTestCheckoutStatus(session.id, 'paid')
        const now = Math.floor(Date.now() / 1000)
        // The same activation code a Stripe webhook runs, with a simulated active subscription.
        await applySubscriptionState({
          customerId: `test_cus_${user.id}`,
          userId: user.id,
          subscriptions: [
            {
              status: 'active',
              currentPeriodEnd: now + PERIOD_SECONDS[session.plan],
              id: `test_sub_${session.id}`,
              plan: session.plan,
              // The prices the page shows: an annual one counts as a twelfth a month.
              monthlyCents: Math.round((pricing.plans[session.plan].amount * 100) / (session.plan === 'annual' ? 12 : 1)),
              currency: 'eur',
              startedAt: now,
            },
          ],
        })
        return redirect('/success')
      },
    },
  })
}

export default function TestCheckoutPage({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <TestModeCard
      title="Pago simulado"
      description="Este servidor no tiene Stripe configurado. Nada se cobra: el pago simulado activa la membresía premium con el mismo código que usa Stripe."
    >
      <CardContent className="grid gap-4">
        <p className="rounded-lg border bg-muted p-4 font-medium">{PLAN_LABELS[loaderData.plan]}</p>
        <Form method="post" className="grid gap-2">
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
