import { cloneElement, type KeyboardEvent, type MouseEvent, type ReactElement, type ReactNode, Suspense, useRef, useState } from 'react'
import { lazyModule } from './lazy-part'

// Radix's menu and its positioning engine are about 14 KiB (gzip) that a page needs only once a
// menu opens: its button shows at once, the menu loads with the first open and then stays.
const radix = lazyModule(() => import('./dropdown-menu-impl'))
const MenuRoot = radix.component((module) => module.MenuRoot)
const MenuTrigger = radix.component((module) => module.MenuTrigger)
const MenuPortal = radix.component((module) => module.MenuPortal)
export const MenuContent = radix.component((module) => module.MenuContent)
export const MenuItem = radix.component((module) => module.MenuItem)
export const MenuSeparator = radix.component((module) => module.MenuSeparator)

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
  trigger: ReactElement<{ onClick?: (event: MouseEvent) => void; onKeyDown?: (event: KeyboardEvent) => void }>
  open?: boolean
  onOpenChange?: (open: boolean) => void
  modal?: boolean
  children: ReactNode
}) {
  const [used, setUsed] = useState(false)
  const [ownOpen, setOwnOpen] = useState(false)
  // Radix's button replaces the plain one: it takes focus over as it mounts, so focus never leaves
  // the menu's button (a non-modal menu would take that for a click outside and not give focus
  // back when it closes).
  const hadFocus = useRef(false)
  const button = useRef<HTMLElement | null>(null)
  const change = (next: boolean) => {
    if (open === undefined) setOwnOpen(next)
    onOpenChange?.(next)
    // Radix gives focus back to the button itself, except when a non-modal menu believes focus
    // went elsewhere; then it is left on the body (or on Radix's own focus guards, which leave
    // with the menu). Only there does the button take it back; focus a member moved stays put.
    if (!next)
      setTimeout(() => {
        const active = document.activeElement
        const lost = !active || active === document.body || active.hasAttribute('data-radix-focus-guard')
        if (lost && button.current?.isConnected) button.current.focus()
      })
  }
  if (!used) {
    const activate = (button: EventTarget) => {
      hadFocus.current = button === document.activeElement
      radix
        .load()
        .then(() => {
          setUsed(true)
          change(true)
        })
        // Not loaded (offline): the next click tries again.
        .catch(() => undefined)
    }
    return cloneElement(trigger, {
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onClick: (event: MouseEvent) => activate(event.currentTarget),
      onKeyDown: (event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return
        event.preventDefault()
        activate(event.currentTarget)
      },
    } as object)
  }
  const takeFocus = (element: HTMLElement | null) => {
    button.current = element
    if (!element || !hadFocus.current) return
    hadFocus.current = false
    element.focus()
  }
  return (
    <Suspense fallback={trigger}>
      <MenuRoot open={open ?? ownOpen} onOpenChange={change} modal={modal}>
        <MenuTrigger asChild>{cloneElement(trigger, { ref: takeFocus } as object)}</MenuTrigger>
        <MenuPortal>{children}</MenuPortal>
      </MenuRoot>
    </Suspense>
  )
}
