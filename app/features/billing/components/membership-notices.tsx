import { getFormProps, getTextareaProps, useForm } from '@conform-to/react'
import { AlertTriangle, CalendarClock, PauseCircle } from 'lucide-react'
import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { Label } from '~/ui/label'
import { useResultToast } from '~/ui/toast'
import { CANCEL_REASONS, MEMBERSHIP_LIMITS, MEMBERSHIP_MESSAGES } from '../limits'
import { KeepButton, type MembershipView, UpdatePaymentButton, useKeepToast } from './membership-banner'

/** /perfil's part of the membership: the same notices, the pause, and the optional question why. */
export function MembershipNotices({ membership }: { membership: MembershipView | null }) {
  useKeepToast()
  if (!membership) return null
  const { paymentFailed, ending, paused } = membership
  if (!paymentFailed && !ending && !paused) return null
  return (
    <div id="membresia" className="mt-4 grid gap-3">
      {paymentFailed ? (
        <div role="alert" className="grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="flex gap-2">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden /> {paymentFailed.text}
          </p>
          <UpdatePaymentButton />
        </div>
      ) : null}
      {paused ? (
        <p className="flex gap-2 rounded-lg border p-3 text-sm">
          <PauseCircle className="mt-0.5 size-4 shrink-0" aria-hidden /> {paused.text}. Mientras tanto conservas tu acceso premium.
        </p>
      ) : null}
      {ending ? (
        <div className="grid gap-3 rounded-lg border p-3 text-sm">
          <p className="flex gap-2 font-medium">
            <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden /> {ending.text}
          </p>
          <KeepButton subscriptionId={ending.subscriptionId} />
          <CancelReasonForm subscriptionId={ending.subscriptionId} answered={ending.reason} />
        </div>
      ) : null}
    </div>
  )
}

function CancelReasonForm({ subscriptionId, answered }: { subscriptionId: string; answered: string | null }) {
  const fetcher = useFetcher<Result>()
  useResultToast(fetcher.state, fetcher.data)
  const [form, fields] = useForm<{ reason: string; detail: string }>({
    id: `cancel-reason-${subscriptionId}`,
    lastResult: fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.submission : undefined,
    defaultValue: { reason: answered ?? '' },
  })
  if (answered && fetcher.data?.ok) return <p className="text-muted-foreground">{MEMBERSHIP_MESSAGES.reasonSaved}.</p>
  return (
    <fetcher.Form method="post" action="/billing/membresia" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="cancel-reason" />
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      <fieldset className="grid gap-2" aria-describedby={fields.reason.errors?.length ? fields.reason.errorId : undefined}>
        <legend className="mb-1 font-medium">¿Nos cuentas por qué te vas? (opcional)</legend>
        {Object.entries(CANCEL_REASONS).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name={fields.reason.name}
              value={value}
              defaultChecked={answered === value}
              className="size-4 shrink-0 accent-primary"
            />
            {label}
          </label>
        ))}
        {fields.reason.errors?.length ? (
          <p id={fields.reason.errorId} className="text-destructive">
            {fields.reason.errors[0]}
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-1.5">
        <Label htmlFor={fields.detail.id}>Si quieres, cuéntanos algo más</Label>
        <textarea
          {...getTextareaProps(fields.detail)}
          maxLength={MEMBERSHIP_LIMITS.reasonText}
          rows={3}
          className="rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm"
        />
        {fields.detail.errors?.length ? (
          <p id={fields.detail.errorId} className="text-destructive">
            {fields.detail.errors[0]}
          </p>
        ) : null}
      </div>
      <Button type="submit" size="sm" variant="outline" className="justify-self-start" disabled={fetcher.state !== 'idle'}>
        Enviar respuesta
      </Button>
    </fetcher.Form>
  )
}
