import { Flag } from 'lucide-react'
import { useRef } from 'react'
import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { useResultToast } from '~/ui/toast'
import { REPORT_NOTE_MAX, REPORT_REASONS } from '../reasons'

export type ReportedKind = 'post' | 'comment' | 'session_comment' | 'member'
const ACTION = '/moderacion/informar'

/**
 * 'Informar' (issue 28): a disclosure with the reasons and an optional note. With JavaScript it
 * posts in place and answers with a toast; without, the answer is a page of its own.
 */
export function ReportButton({ kind, itemId, className }: { kind: ReportedKind; itemId: string; className?: string }) {
  const fetcher = useFetcher<Result>()
  const details = useRef<HTMLDetailsElement>(null)
  useResultToast(fetcher.state, fetcher.data, { onSuccess: () => details.current?.removeAttribute('open') })
  const name = `report-${itemId}`
  return (
    <details ref={details} className={cn('group', className)}>
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded px-2 py-1 text-xs text-muted-foreground hover:bg-accent [&::-webkit-details-marker]:hidden">
        <Flag className="size-3.5" aria-hidden /> Informar
      </summary>
      <fetcher.Form method="post" action={ACTION} className="mt-2 grid gap-2 rounded-md border bg-background p-3 text-sm">
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="kind" value={kind} />
        <input type="hidden" name="itemId" value={itemId} />
        <fieldset className="grid gap-1">
          <legend className="mb-1 font-medium">¿Qué ocurre?</legend>
          {Object.entries(REPORT_REASONS).map(([value, label], index) => (
            <label key={value} className="flex items-center gap-2">
              <input type="radio" name="reason" value={value} required defaultChecked={index === 0} className="size-4 accent-primary" />
              {label}
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
    </details>
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
          <input type="hidden" name="intent" value="request-review" />
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="itemId" value={itemId} />
          <span>Puedes editarlo y pedir que lo revisen.</span>
          <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
            Pedir revisión
          </Button>
        </fetcher.Form>
      )}
    </div>
  )
}
