// The community's banner on its own: every community page loads it, so it carries no form library
// (the question why, with Conform, is /perfil's: membership-notices.tsx).
import { AlertTriangle, CalendarClock } from 'lucide-react'
import { Form, useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { useResultToast } from '~/ui/toast'
import { MEMBERSHIP_MESSAGES } from '../limits'

/** What `membershipOf` gives the pages (serialised by the loaders). */
export interface MembershipView {
  paymentFailed: { text: string; retrying: boolean } | null
  ending: { text: string; subscriptionId: string; reason: string | null } | null
  paused: { text: string } | null
}

/** 'Actualizar método de pago': the billing portal, where the card is changed (decisions/0007). */
export function UpdatePaymentButton() {
  return (
    <Form method="post" action="/billing/portal">
      <input type="hidden" name="intent" value="portal" />
      <Button type="submit" size="sm">
        {MEMBERSHIP_MESSAGES.updatePayment}
      </Button>
    </Form>
  )
}

/**
 * 'Mantener mi membresía' removes the notice that holds its button: its fetcher is keyed so that the
 * toast is told by `useKeepToast`, called where the page stays (the banner, /perfil's notices), not
 * by the button, which the revalidated page may drop before it renders the action's answer.
 */
const KEEP_FETCHER = 'keep-membership'

export function useKeepToast() {
  const fetcher = useFetcher<Result>({ key: KEEP_FETCHER })
  useResultToast(fetcher.state, fetcher.data)
}

export function KeepButton({ subscriptionId }: { subscriptionId: string }) {
  const fetcher = useFetcher<Result>({ key: KEEP_FETCHER })
  return (
    <fetcher.Form method="post" action="/billing/membresia">
      <input type="hidden" name="intent" value="keep-membership" />
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      <Button type="submit" size="sm" variant="gold" disabled={fetcher.state !== 'idle'}>
        {MEMBERSHIP_MESSAGES.keep}
      </Button>
    </fetcher.Form>
  )
}

/**
 * The community's banner: a failed payment (with the portal's button) and a cancellation at the
 * period's end (with 'Mantener mi membresía'). A region with a name, so a screen reader can go to it.
 */
export function MembershipBanner({ membership }: { membership: MembershipView | null }) {
  useKeepToast()
  if (!membership?.paymentFailed && !membership?.ending) return null
  return (
    <section aria-label="Tu membresía" className="grid gap-2">
      {membership.paymentFailed ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
        >
          <AlertTriangle className="size-4 shrink-0" aria-hidden />
          <p className="min-w-0 flex-1 basis-60">{membership.paymentFailed.text}</p>
          <UpdatePaymentButton />
        </div>
      ) : null}
      {membership.ending ? (
        <div className="flex flex-wrap items-center gap-3 rounded-lg border px-4 py-3 text-sm">
          <CalendarClock className="size-4 shrink-0" aria-hidden />
          <p className="min-w-0 flex-1 basis-60">{membership.ending.text}.</p>
          <KeepButton subscriptionId={membership.ending.subscriptionId} />
        </div>
      ) : null}
    </section>
  )
}
