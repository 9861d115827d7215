import { useEffect, useRef } from 'react'

/**
 * For a part of the page that opens in place (an edit form, a reply box): when it closes, focus
 * goes back to the control that opened it, which the returned ref marks. Without it the form
 * leaving the page drops focus on the body, and a keyboard member starts again from the top
 * (WCAG 2.4.3).
 */
export function useFocusReturn<T extends HTMLElement>(open: boolean) {
  const opener = useRef<T>(null)
  const wasOpen = useRef(open)
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus()
    wasOpen.current = open
  }, [open])
  return opener
}
