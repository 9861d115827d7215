import { Check, Clock } from 'lucide-react'
import { useFetcher } from 'react-router'
import { usePremiumGate } from '~/features/community/components/premium-gate'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { HiddenFields } from '~/ui/hidden-fields'
import { useResultToast } from '~/ui/toast'
import { CALENDAR_ACTION } from '../paths'

type RegistrationResult = Result<{ status?: 'registered' | 'waitlisted' | 'none' }>

/** Spec 001 §4: registration toggles; a full event takes the member into its queue instead. */
export function RegisterButton({
  eventId,
  status,
  full,
  past,
}: {
  eventId: string
  status: 'registered' | 'waitlisted' | null
  full: boolean
  past: boolean
}) {
  const fetcher = useFetcher<RegistrationResult>()
  const { hasAccess, ask } = usePremiumGate()
  useResultToast(fetcher.state, fetcher.data)
  if (past) return null
  // While the answer comes, the button shows where the click leads.
  const pending = fetcher.formData ? (status ? 'none' : full ? 'waitlisted' : 'registered') : null
  const shown = pending ?? (fetcher.data?.ok ? fetcher.data.status : undefined) ?? status ?? 'none'
  return (
    <fetcher.Form
      method="post"
      action={CALENDAR_ACTION}
      onSubmit={(event) => {
        if (!hasAccess) {
          event.preventDefault()
          ask()
        }
      }}
    >
      <HiddenFields values={{ intent: 'toggle-registration', eventId }} />
      {shown === 'registered' ? (
        <Button type="submit" variant="secondary" aria-pressed="true" title="Cancelar registro">
          <Check className="size-4" aria-hidden /> Registrado
        </Button>
      ) : shown === 'waitlisted' ? (
        <Button type="submit" variant="secondary" aria-pressed="true" title="Salir de la lista de espera">
          <Clock className="size-4" aria-hidden /> En lista de espera
        </Button>
      ) : (
        <Button type="submit">{full ? 'Unirme a la lista de espera' : 'Registrarse'}</Button>
      )}
    </fetcher.Form>
  )
}
