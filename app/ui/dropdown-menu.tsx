import { cloneElement, type KeyboardEvent, lazy, type ReactElement, type ReactNode, Suspense, useState } from 'react'

// Radix's menu and its positioning engine are about 14 KiB (gzip) that a page needs only once a
// menu opens: its button shows at once, the menu loads with the first open and then stays.
const load = () => import('./dropdown-menu-impl')
const MenuRoot = lazy(() => load().then((module) => ({ default: module.MenuRoot })))
const MenuTrigger = lazy(() => load().then((module) => ({ default: module.MenuTrigger })))
const MenuPortal = lazy(() => load().then((module) => ({ default: module.MenuPortal })))
export const MenuContent = lazy(() => load().then((module) => ({ default: module.MenuContent })))
export const MenuItem = lazy(() => load().then((module) => ({ default: module.MenuItem })))
export const MenuSeparator = lazy(() => load().then((module) => ({ default: module.MenuSeparator })))

const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown'])

/**
 * A menu opened by `trigger` (a button element). Until it is first opened the button is a plain
 * one (the keys and click that open a menu open it); from then on it is Radix's menu, which gives
 * focus back to the button when it closes. `children` is the menu's content (`MenuContent`).
 */
export function DropdownMenu({
  trigger,
  open,
  onOpenChange,
  modal,
  children,
}: {
  trigger: ReactElement<{ onClick?: () => void; onKeyDown?: (event: KeyboardEvent) => void }>
  open?: boolean
  onOpenChange?: (open: boolean) => void
  modal?: boolean
  children: ReactNode
}) {
  const [used, setUsed] = useState(false)
  const [ownOpen, setOwnOpen] = useState(false)
  const change = (next: boolean) => {
    if (open === undefined) setOwnOpen(next)
    onOpenChange?.(next)
  }
  if (!used) {
    const activate = () => {
      setUsed(true)
      change(true)
    }
    return cloneElement(trigger, {
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onClick: activate,
      onKeyDown: (event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return
        event.preventDefault()
        activate()
      },
    } as object)
  }
  return (
    <Suspense fallback={trigger}>
      <MenuRoot open={open ?? ownOpen} onOpenChange={change} modal={modal}>
        <MenuTrigger asChild>{trigger}</MenuTrigger>
        <MenuPortal>{children}</MenuPortal>
      </MenuRoot>
    </Suspense>
  )
}
