import { XIcon } from 'lucide-react'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { type ComponentProps, useRef } from 'react'
import { cn } from './cn'

/** Radix's dialog, loaded with the first dialog a page opens (ui/dialog.tsx). */
export const DialogRoot = DialogPrimitive.Root

/**
 * A dialog's box. Focus goes back to the control that opened it when it closes (Escape, the close
 * button, a click outside, after sending; WCAG 2.4.3), also when it was opened from a component's
 * state rather than by a trigger of its own (Radix then has no trigger to return to and leaves
 * focus on the body). If that control is gone (what it acted on was deleted), focus goes to the
 * page's main content rather than the top of the document.
 */
export function DialogContent({
  className,
  children,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content>) {
  const opener = useRef<HTMLElement | null>(null)
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <DialogPrimitive.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-background p-6 shadow-lg',
          className,
        )}
        onOpenAutoFocus={(event) => {
          // Focus has not moved into the dialog yet: what has it now opened it.
          const active = document.activeElement
          opener.current = active instanceof HTMLElement && active !== document.body ? active : null
          onOpenAutoFocus?.(event)
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event)
          if (event.defaultPrevented) return
          event.preventDefault()
          returnFocus(opener.current)
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close className="absolute right-4 top-4 rounded-sm opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <XIcon className="size-4" aria-hidden />
          <span className="sr-only">Cerrar</span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  )
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg font-semibold', className)} {...props} />
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
}

/** Focus back to `opener`, or, when it has left the page, to the main content (the skip link's target). */
function returnFocus(opener: HTMLElement | null) {
  if (opener?.isConnected) return opener.focus()
  document.getElementById('contenido')?.focus()
}
