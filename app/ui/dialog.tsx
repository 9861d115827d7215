import { type ReactNode, Suspense } from 'react'
import { lazyModule, useOpenedOnce } from './lazy-part'

// Radix's dialog, its focus trap and scroll lock are about 10 KiB (gzip) that no page needs until
// a dialog opens: they load then, and stay (a phone's first load carries none of it).
const radix = lazyModule(() => import('./dialog-impl'))
const DialogRoot = radix.component((module) => module.DialogRoot)
export const DialogContent = radix.component((module) => module.DialogContent)
export const DialogTitle = radix.component((module) => module.DialogTitle)
export const DialogDescription = radix.component((module) => module.DialogDescription)

/**
 * A dialog, controlled by its `open` state. Nothing renders (and nothing loads) until it first
 * opens; from then on the dialog is there to close, give focus back and open again.
 */
export function Dialog({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  if (!useOpenedOnce(open)) return null
  return (
    <Suspense fallback={null}>
      <DialogRoot open={open} onOpenChange={onOpenChange}>
        {children}
      </DialogRoot>
    </Suspense>
  )
}
