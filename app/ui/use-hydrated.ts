import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False in the server's HTML and during hydration, true once React runs in the browser.
 * Controls that need JavaScript (a button disabled until a field is filled, a toggle that
 * saves on change) use it to stay usable as plain HTML forms before that, or without it.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
