import { getFormProps, useForm } from '@conform-to/react'
import { ArrowLeft } from 'lucide-react'
import { Form, Link, useNavigation } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { formatEuros } from '~/features/admin/components/stat'
import { addDays, DEFAULT_TIME_ZONE, longDate, toWallTime } from '~/platform/dates'
import { guardedAction, refuse } from '~/platform/http/responses.server'
import { failedSubmission } from '~/platform/http/result'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Field } from '~/ui/field'
import { memberBilling, memberBillingAction } from './lifecycle.server'
import { PAUSE_MAX_DAYS, PAUSE_MESSAGES } from './limits'
import type { Route } from './+types/member-billing.route'

const STATUS_LABELS: Record<string, string> = {
  active: 'Activa',
  trialing: 'En prueba',
  past_due: 'Pago fallido, reintentando',
  unpaid: 'Impagada',
  canceled: 'Cancelada',
  incomplete: 'Incompleta',
  incomplete_expired: 'Caducada',
  paused: 'En pausa',
}
const PLAN_LABELS = { monthly: 'Mensual', annual: 'Anual' } as const

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const billing = await memberBilling(params.userId)
  if (!billing) refuse(404, 'Ese miembro no existe')
  const now = new Date()
  const today = toWallTime(now, DEFAULT_TIME_ZONE).slice(0, 10)
  return {
    member: billing.member,
    minDay: addDays(today, 1),
    maxDay: addDays(today, PAUSE_MAX_DAYS),
    subscriptions: billing.subscriptions.map((row) => ({
      id: row.id,
      status: STATUS_LABELS[row.status] ?? row.status,
      live: ['active', 'trialing', 'past_due'].includes(row.status),
      plan: row.plan ? PLAN_LABELS[row.plan] : 'Otro precio',
      monthly: formatEuros(row.monthlyCents),
      periodEnd: row.currentPeriodEnd ? longDate(row.currentPeriodEnd) : null,
      endsAtPeriodEnd: row.cancelAtPeriodEnd,
      pausedUntil: row.pausedUntil && row.pausedUntil > now ? longDate(row.pausedUntil) : null,
      failedSince: row.paymentFailedAt ? longDate(row.paymentFailedAt) : null,
    })),
  }
}

export const action = guardedAction(requireAdminConsole, (request, admin, { params }: Route.ActionArgs) =>
  memberBillingAction(request, admin, params.userId),
)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudo cargar el cobro del miembro" />
}

export default function MemberBillingPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== 'idle'
  const live = d.subscriptions.find((row) => row.live)
  const [form, fields] = useForm<{ resumesOn: string }>({
    id: 'pause-collection',
    lastResult: busy ? undefined : failedSubmission(actionData),
    shouldRevalidate: 'onBlur',
  })
  return (
    <div className="grid max-w-2xl gap-4">
      <Link
        to={`/usuario/${d.member.userId}`}
        className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden /> Perfil de {d.member.name}
      </Link>
      <h2 className="text-xl font-semibold [overflow-wrap:anywhere]">Cobro de {d.member.name}</h2>
      <ActionStatus result={actionData} />
      {d.subscriptions.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">Este miembro no tiene suscripciones.</p>
      ) : (
        <ul className="grid gap-3">
          {d.subscriptions.map((row) => (
            <li key={row.id}>
              <Card>
                <CardHeader>
                  <CardTitle className="flex flex-wrap items-center gap-2 text-base">
                    {row.plan} · {row.monthly} al mes
                    <Badge variant={row.live ? 'default' : 'secondary'}>{row.status}</Badge>
                    {row.pausedUntil ? <Badge variant="warning">En pausa</Badge> : null}
                  </CardTitle>
                  <CardDescription className="[overflow-wrap:anywhere]">{row.id}</CardDescription>
                </CardHeader>
                <CardContent className="grid gap-1 text-sm">
                  {row.periodEnd ? (
                    <p>{row.endsAtPeriodEnd ? `Termina el ${row.periodEnd}` : `Periodo pagado hasta el ${row.periodEnd}`}</p>
                  ) : null}
                  {row.pausedUntil ? <p>Cobro en pausa hasta el {row.pausedUntil}; Stripe lo reanuda ese día.</p> : null}
                  {row.failedSince ? <p>Pago fallido desde el {row.failedSince}.</p> : null}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {live ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">{live.pausedUntil ? PAUSE_MESSAGES.resume : PAUSE_MESSAGES.pause}</CardTitle>
            <CardDescription>
              Mientras el cobro está en pausa no se emiten cargos y el miembro conserva su acceso premium. Queda en el registro.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {live.pausedUntil ? (
              <Form method="post">
                <input type="hidden" name="intent" value="resume-collection" />
                <Button type="submit" disabled={busy}>
                  {PAUSE_MESSAGES.resume}
                </Button>
              </Form>
            ) : null}
            <Form method="post" className="grid gap-3 sm:max-w-xs" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="pause-collection" />
              <Field
                label={live.pausedUntil ? 'Cambiar la fecha de reanudación' : 'Reanudar el cobro el'}
                field={fields.resumesOn}
                type="date"
                min={d.minDay}
                max={d.maxDay}
                required
              />
              <Button type="submit" variant={live.pausedUntil ? 'outline' : 'default'} disabled={busy} className="justify-self-start">
                {PAUSE_MESSAGES.pause}
              </Button>
            </Form>
          </CardContent>
        </Card>
      ) : null}
    </div>
  )
}
