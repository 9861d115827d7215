import { and, eq } from 'drizzle-orm'
import { FlaskConical } from 'lucide-react'
import { data, Form, redirect, useNavigation } from 'react-router'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { getDb } from '~/db/client.server'
import { testCheckoutSessions } from '~/db/schema'
import { applySubscriptionState } from '~/models/billing.server'
import { pricing } from '~/content/landing'
import { site } from '~/site.config'
import { isLocalTestCheckout } from '~/utils/payments.server'
import { requireUser } from '~/utils/permissions.server'
import type { Route } from './+types/billing.test-checkout'

export const meta: Route.MetaFunction = () => [{ title: `Modo de prueba · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const PLAN_LABELS = Object.fromEntries(
  Object.values(pricing.plans).map((plan) => [plan.id, `${plan.label} · ${plan.price} ${plan.period}`]),
) as Record<keyof typeof pricing.plans, string>
const PERIOD_SECONDS = { monthly: 31 * 86_400, annual: 366 * 86_400 } as const

async function loadOwnSession(request: Request) {
  // Only without Stripe on a laptop, and only for this machine; anywhere else it is a 404.
  if (!isLocalTestCheckout(request)) throw data('No encontrado', { status: 404 })
  const user = await requireUser(request)
  const id = new URL(request.url).searchParams.get('session') ?? ''
  const [session] = await getDb()
    .select()
    .from(testCheckoutSessions)
    .where(and(eq(testCheckoutSessions.id, id), eq(testCheckoutSessions.userId, user.id)))
  if (!session || session.status !== 'open') throw data('No encontrado', { status: 404 })
  return { user, session }
}

export async function loader({ request }: Route.LoaderArgs) {
  const { session } = await loadOwnSession(request)
  return { plan: session.plan }
}

export async function action({ request }: Route.ActionArgs) {
  const { user, session } = await loadOwnSession(request)
  const intent = (await request.formData()).get('intent')
  if (intent === 'cancel') {
    await getDb().update(testCheckoutSessions).set({ status: 'canceled' }).where(eq(testCheckoutSessions.id, session.id))
    return redirect('/canceled')
  }
  if (intent !== 'pay') throw data('Solicitud no válida', { status: 400 })
  await getDb().update(testCheckoutSessions).set({ status: 'paid' }).where(eq(testCheckoutSessions.id, session.id))
  // The same activation code a Stripe webhook runs, with a simulated active subscription.
  await applySubscriptionState({
    customerId: `test_cus_${user.id}`,
    userId: user.id,
    subscriptions: [{ status: 'active', currentPeriodEnd: Math.floor(Date.now() / 1000) + PERIOD_SECONDS[session.plan] }],
  })
  return redirect('/success')
}

export default function TestCheckoutPage({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <Badge variant="warning" className="justify-self-start">
            <FlaskConical className="size-3.5" aria-hidden /> Modo de prueba
          </Badge>
          <CardTitle className="text-2xl">Pago simulado</CardTitle>
          <CardDescription>
            Este servidor no tiene Stripe configurado. Nada se cobra: el pago simulado activa la membresía premium con el
            mismo código que usa Stripe.
          </CardDescription>
        </CardHeader>
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
      </Card>
    </div>
  )
}
