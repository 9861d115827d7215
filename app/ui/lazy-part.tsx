import { Component, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react'
import { Button } from './button'

// Failed loads of a module's code, told apart from the errors of the components once loaded.
const loadFailures = new WeakSet<object>()

/**
 * A module whose components load when first used, not with the page (a phone's first load
 * carries none of them). Once the module is here its components render at once: React takes a
 * thenable that answers immediately without suspending, where a promise would suspend each
 * component once more. React keeps a lazy component's failed load for good: `retry()` gives the
 * component a fresh one, which loads the code again when it next renders (never by itself, which
 * would fetch in a loop while the network is down).
 */
export function lazyModule<Module>(load: () => Promise<Module>) {
  let loaded: Module | undefined
  const fetchModule = () => load().then((module) => (loaded = module))
  return {
    /** Loads the module (again only if it failed); resolves when its components render at once. */
    load: fetchModule,
    component<Props extends object>(pick: (module: Module) => ComponentType<Props>) {
      let failed = false
      const fresh = () =>
        lazy(() => {
          if (!loaded)
            return fetchModule().then(
              (module) => ({ default: pick(module) }),
              (error: unknown) => {
                failed = true
                if (error instanceof Object) loadFailures.add(error)
                throw error
              },
            )
          const value = { default: pick(loaded) }
          return { then: (resolve: (settled: typeof value) => void) => resolve(value) } as Promise<typeof value>
        })
      let current = fresh()
      function LazyComponent(props: Props) {
        const Current = current
        return <Current {...props} />
      }
      return Object.assign(LazyComponent, {
        retry() {
          if (failed) [failed, current] = [false, fresh()]
        },
      })
    },
  }
}

/**
 * A part of a page (a form, a panel that opens on demand) whose code loads when it first renders.
 * The server loads it at start, so a page rendered with it (a form for members without
 * JavaScript) has it in its HTML, never the fallback; the browser keeps that HTML and hydrates the
 * part once its code arrives. When its code cannot be loaded, the part says so in its place with
 * 'Reintentar', which loads it again; the rest of the page stays as it is.
 */
export function lazyPart<Props extends object>(load: () => Promise<ComponentType<Props>>, fallback: ReactNode = null) {
  const module = lazyModule(load)
  if (import.meta.env.SSR) module.load().catch(() => undefined)
  const Part = module.component((part) => part)
  return function LazyPart(props: Props) {
    return (
      <RetryLoad retry={Part.retry}>
        <Suspense fallback={fallback}>
          <Part {...props} />
        </Suspense>
      </RetryLoad>
    )
  }
}

/** Catches a part's failed load (anything else goes on to the route's boundary). */
class RetryLoad extends Component<{ retry: () => void; children: ReactNode }, { failure: unknown }> {
  state = { failure: null as unknown }

  static getDerivedStateFromError(failure: unknown) {
    return { failure }
  }

  render() {
    const { failure } = this.state
    if (failure === null) return this.props.children
    if (!(failure instanceof Object) || !loadFailures.has(failure)) throw failure
    const retry = () => {
      this.props.retry()
      this.setState({ failure: null })
    }
    return (
      <span role="alert" className="inline-flex flex-wrap items-center gap-2 text-sm">
        No se pudo cargar esta parte de la página.
        <Button type="button" size="sm" variant="outline" onClick={retry}>
          Reintentar
        </Button>
      </span>
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
