import { Flag } from 'lucide-react'
import { useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { HiddenFields } from '~/ui/hidden-fields'
import { useResultToast } from '~/ui/toast'
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '../reasons'

export type ReportedKind = 'post' | 'comment' | 'session_comment' | 'member'
const ACTION = '/moderacion/informar'

/** What a post, a comment or a member is reported for ('Mensajes no deseados' is for private messages). */
const ITEM_REASONS = (Object.keys(REPORT_REASONS) as ReportReason[]).filter((reason) => reason !== 'unwanted_messages')

/**
 * Where a report goes when it is not moderation's own page: another feature's action that takes
 * the `report` intent with these fields (a private message's conversation, issue 41), with the
 * reasons offered, the first checked.
 */
export interface ReportTarget {
  action: string
  fields: Record<string, string>
  reasons: readonly ReportReason[]
}

/** Where 'Informar' leads without JavaScript: a page with the same form (report.route.tsx). */
export const reportPageOf = (kind: ReportedKind, itemId: string) => `${ACTION}?tipo=${kind}&id=${itemId}`

/**
 * 'Informar' (issue 28): a disclosure whose form mounts when it is opened, so a page of cards
 * renders one line each. With JavaScript the form posts in place and answers with a toast;
 * before it runs (or without it), opening it offers the same form on a page of its own.
 */
export function ReportButton({ kind, itemId, className }: { kind: ReportedKind; itemId: string; className?: string }) {
  const [open, setOpen] = useState(false)
  const details = useRef<HTMLDetailsElement>(null)
  return (
    <details ref={details} className={cn('group', className)} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded px-2 py-1 text-xs text-muted-foreground hover:bg-accent [&::-webkit-details-marker]:hidden">
        <Flag className="size-3.5" aria-hidden /> Informar
      </summary>
      {open ? (
        <ReportForm kind={kind} itemId={itemId} onSent={() => details.current?.removeAttribute('open')} className="mt-2" />
      ) : (
        <a href={reportPageOf(kind, itemId)} className="mt-2 block text-sm text-primary underline">
          Abrir el formulario para informar
        </a>
      )}
    </details>
  )
}

/** The report itself: a reason and an optional note (in the disclosure above, or on the no-JavaScript page). */
export function ReportForm({
  kind,
  itemId,
  onSent,
  className,
  target,
}: {
  kind?: ReportedKind
  itemId: string
  onSent?: () => void
  className?: string
  target?: ReportTarget
}) {
  const fetcher = useFetcher<Result>()
  useResultToast(fetcher.state, fetcher.data, { onSuccess: onSent })
  const name = `report-${itemId}`
  return (
    // Posted to the form's own page: without JavaScript, the answer is shown there.
    <fetcher.Form
      method="post"
      action={target ? target.action : reportPageOf(kind!, itemId)}
      className={cn('grid gap-2 rounded-md border bg-background p-3 text-sm', className)}
    >
      <HiddenFields values={target ? { intent: 'report', ...target.fields } : { intent: 'report', kind: kind!, itemId }} />
      <fieldset className="grid gap-1">
        <legend className="mb-1 font-medium">¿Qué ocurre?</legend>
        {(target?.reasons ?? ITEM_REASONS).map((value, index) => (
          <label key={value} className="flex items-center gap-2">
            <input type="radio" name="reason" value={value} required defaultChecked={index === 0} className="size-4 accent-primary" />
            {REPORT_REASONS[value]}
          </label>
        ))}
      </fieldset>
      <label className="grid gap-1" htmlFor={`${name}-note`}>
        <span className="font-medium">Nota para el equipo de moderación (opcional)</span>
      </label>
      <textarea id={`${name}-note`} name="note" rows={2} maxLength={REPORT_NOTE_MAX} className="rounded-md border bg-background p-2" />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'} className="justify-self-start">
        {fetcher.state !== 'idle' ? 'Enviando...' : 'Enviar informe'}
      </Button>
    </fetcher.Form>
  )
}

/**
 * What the author of a hidden item sees on it: why it was hidden, that only they see it, and
 * 'Pedir revisión' once they have edited it (or as it is).
 */
export function HiddenNotice({
  kind,
  itemId,
  moderation,
}: {
  kind: ReportedKind
  itemId: string
  moderation: { reason: string | null; reviewRequested: boolean }
}) {
  const fetcher = useFetcher<Result>()
  useResultToast(fetcher.state, fetcher.data)
  const asked = moderation.reviewRequested || (fetcher.data?.ok ?? false)
  return (
    <div role="note" className="mt-2 grid gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p>
        <span className="font-semibold">Oculto por moderación</span>
        {moderation.reason ? `: ${moderation.reason}` : ''}. Solo tú lo ves.
      </p>
      {asked ? (
        <p>Has pedido una revisión: el equipo de moderación lo está mirando.</p>
      ) : (
        <fetcher.Form method="post" action={ACTION} className="flex flex-wrap items-center gap-2">
          <HiddenFields values={{ intent: 'request-review', kind, itemId }} />
          <span>Puedes editarlo y pedir que lo revisen.</span>
          <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
            Pedir revisión
          </Button>
        </fetcher.Form>
      )}
    </div>
  )
}
