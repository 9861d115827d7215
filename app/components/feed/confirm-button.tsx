import { type ReactNode, useState } from 'react'
import type { FetcherWithComponents } from 'react-router'
import { Button } from '~/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/components/ui/dialog'

/** A destructive action behind the spec's confirmation question (an accessible dialog, not window.confirm). */
export function ConfirmButton({
  fetcher,
  fields,
  question,
  className,
  children,
}: {
  fetcher: FetcherWithComponents<unknown>
  fields: Record<string, string>
  question: string
  className?: string
  children: ReactNode
}) {
  const [open, setOpen] = useState(false)
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
                void fetcher.submit(fields, { method: 'post', action: '/comunidad' })
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
