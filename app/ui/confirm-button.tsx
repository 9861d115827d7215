import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import type { FetcherWithComponents } from 'react-router'
import { Button } from './button'
import { DisclosureForm } from './disclosure'
import { HiddenFields } from './hidden-fields'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog'
import { useHydrated } from './use-hydrated'

/** 'Eliminar' among a card's small controls (a comment's, a session card's), or beside buttons (a post's, an event's). */
const LOOKS = {
  compact: { button: 'inline-flex items-center gap-1 rounded px-2 py-1 text-destructive hover:bg-accent', icon: 'size-3.5' },
  regular: {
    button: 'inline-flex h-9 items-center gap-1.5 rounded-md px-3 text-sm font-medium text-destructive hover:bg-accent',
    icon: 'size-4',
  },
}

/**
 * 'Eliminar' behind the spec's confirmation question: an accessible dialog once the page is
 * interactive (not window.confirm); before that, the same question in a disclosure with a plain
 * form, so it also works without JavaScript.
 */
export function ConfirmButton({
  fetcher,
  fields,
  action,
  question,
  compact,
}: {
  fetcher: FetcherWithComponents<unknown>
  fields: Record<string, string>
  /** The action that answers, and the page a form without JavaScript lands on. */
  action: string
  question: string
  compact?: boolean
}) {
  const [open, setOpen] = useState(false)
  const hydrated = useHydrated()
  const look = LOOKS[compact ? 'compact' : 'regular']
  const label = (
    <>
      <Trash2 className={look.icon} aria-hidden /> Eliminar
    </>
  )
  if (!hydrated) {
    return (
      <DisclosureForm summary={label} summaryClassName={look.button} action={action} submitLabel="Eliminar" destructive>
        <HiddenFields values={fields} />
        <p>{question}</p>
      </DisclosureForm>
    )
  }
  return (
    <>
      <button type="button" className={look.button} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-sm">
          <DialogTitle>Confirmar</DialogTitle>
          <DialogDescription>{question}</DialogDescription>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancelar
            </Button>
            <Button
              type="button"
              variant="destructive"
              onClick={() => {
                setOpen(false)
                void fetcher.submit(fields, { method: 'post', action })
              }}
            >
              Eliminar
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  )
}
