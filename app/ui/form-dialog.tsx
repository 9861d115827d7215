import { Loader2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog'

/**
 * A dialog holding a long form (a session, an event): it scrolls within the screen, a click
 * outside does not close it (nothing typed is lost), and while it sends it stays open.
 */
export function FormDialog({
  title,
  description,
  open,
  busy,
  onClose,
  children,
}: {
  title: string
  description: ReactNode
  open: boolean
  busy: boolean
  onClose: () => void
  children: ReactNode
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (!next && !busy ? onClose() : undefined)}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto" onInteractOutside={(event) => event.preventDefault()}>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        {children}
      </DialogContent>
    </Dialog>
  )
}

/** 'Cancelar' and the form's submit button, which spins while it sends. */
export function FormDialogButtons({ busy, onCancel, submitLabel }: { busy: boolean; onCancel: () => void; submitLabel: string }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button type="button" variant="ghost" onClick={onCancel} disabled={busy}>
        Cancelar
      </Button>
      <Button type="submit" disabled={busy}>
        {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
        {submitLabel}
      </Button>
    </div>
  )
}
