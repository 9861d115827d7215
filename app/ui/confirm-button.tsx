import { type ReactNode, useState } from 'react'
import type { FetcherWithComponents } from 'react-router'
import { Button } from './button'
import { DisclosureForm } from './disclosure'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog'
import { useHydrated } from './use-hydrated'

/**
 * A destructive action behind the spec's confirmation question: an accessible dialog once the
 * page is interactive (not window.confirm); before that, the same question in a disclosure with
 * a plain form, so it also works without JavaScript.
 */
export function ConfirmButton({
  fetcher,
  fields,
  action,
  question,
  className,
  children,
}: {
  fetcher: FetcherWithComponents<unknown>
  fields: Record<string, string>
  /** The action that answers, and the page a form without JavaScript lands on. */
  action: string
  question: string
  className?: string
  children: ReactNode
}) {
  const [open, setOpen] = useState(false)
  const hydrated = useHydrated()
  if (!hydrated) {
    return (
      <DisclosureForm summary={children} summaryClassName={className} action={action} submitLabel="Eliminar" destructive>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <p>{question}</p>
      </DisclosureForm>
    )
  }
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {children}
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
