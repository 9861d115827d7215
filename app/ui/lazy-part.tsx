import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react'

/**
 * A module whose components load when first used, not with the page (a phone's first load
 * carries none of them). Once the module is here its components render at once: React takes a
 * thenable that answers immediately without suspending, where a promise would suspend each
 * component once more.
 */
export function lazyModule<Module>(load: () => Promise<Module>) {
  let loaded: Module | undefined
  const fetchModule = () => load().then((module) => (loaded = module))
  return {
    /** Loads the module (again only if it failed); resolves when its components render at once. */
    load: fetchModule,
    component<Props extends object>(pick: (module: Module) => ComponentType<Props>) {
      return lazy(() => {
        if (!loaded) return fetchModule().then((module) => ({ default: pick(module) }))
        const value = { default: pick(loaded) }
        return { then: (resolve: (settled: typeof value) => void) => resolve(value) } as Promise<typeof value>
      })
    },
  }
}

/**
 * A part of a page (a form, a panel that opens on demand) whose code loads when it first renders.
 * The server loads it at start, so a page rendered with it (a form for members without
 * JavaScript) has it in its HTML, never the fallback; the browser keeps that HTML and hydrates the
 * part once its code arrives.
 */
export function lazyPart<Props extends object>(load: () => Promise<ComponentType<Props>>, fallback: ReactNode = null) {
  const module = lazyModule(load)
  if (import.meta.env.SSR) module.load().catch(() => undefined)
  const Part = module.component((part) => part)
  return function LazyPart(props: Props) {
    return (
      <Suspense fallback={fallback}>
        <Part {...props} />
      </Suspense>
    )
  }
}

/**
 * A dialog's content as a lazy part that renders (and loads) only once the dialog first opens:
 * never while the page hydrates, where a part still loading holds back later router updates
 * (docs/decisions/0027).
 */
export function lazyDialogPart<Props extends { open: boolean }>(load: () => Promise<ComponentType<Props>>) {
  const Part = lazyPart(load)
  return function DialogPart(props: Props) {
    return useOpenedOnce(props.open) ? <Part {...props} /> : null
  }
}

/** Whether a dialog has been open at least once (from then on it stays, to close and open again). */
export function useOpenedOnce(open: boolean) {
  const [opened, setOpened] = useState(open)
  if (open && !opened) setOpened(true)
  return opened || open
}
