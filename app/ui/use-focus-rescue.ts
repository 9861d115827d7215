import { useEffect } from 'react'

/**
 * When what had focus leaves the page (the post, comment or session a member just deleted, the
 * list item an update replaced), the browser drops focus on the body and a keyboard member
 * starts again from the top (WCAG 2.4.3). This puts it where the removed element stood instead:
 * on what came after it, else before it, else its container.
 */
export function useFocusRescue() {
  useEffect(() => {
    let focused: Element | null = null
    const onFocusIn = (event: FocusEvent) => {
      focused = event.target instanceof Element ? event.target : null
    }
    const observer = new MutationObserver((records) => {
      const lost = focused
      if (!lost || lost.isConnected || (document.activeElement && document.activeElement !== document.body)) return
      const record = records.find((candidate) => [...candidate.removedNodes].some((node) => node === lost || node.contains(lost)))
      if (!record) return
      const place = [record.nextSibling, record.previousSibling, record.target].find(
        (node): node is HTMLElement => node instanceof HTMLElement && node.isConnected,
      )
      if (!place) return
      // A task later, so that what closed gives focus back itself first (a menu's or dialog's own
      // return to its button is scheduled the same way); only focus still on the body is rescued.
      setTimeout(() => {
        if (!place.isConnected || (document.activeElement && document.activeElement !== document.body)) return
        // Focusable by script only: it stays out of the tab order.
        if (place.tabIndex < 0 && !place.hasAttribute('tabindex')) place.tabIndex = -1
        place.focus({ preventScroll: true })
      })
    })
    document.addEventListener('focusin', onFocusIn)
    observer.observe(document.body, { childList: true, subtree: true })
    return () => {
      document.removeEventListener('focusin', onFocusIn)
      observer.disconnect()
    }
  }, [])
}
