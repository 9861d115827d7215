import { Loader2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { MAX_RELOAD } from '~/platform/http/query'
import type { Failure } from '~/platform/http/result'
import { cn } from './cn'

/** One page of a list and where the next starts (an opaque cursor; null: none). */
export interface ListPage<T> {
  items: T[]
  next: string | null
}

/**
 * A list whose next pages are appended (the feed, the sessions library, the events list;
 * decisions/0027): the first page comes with the page, each next one from the list's part route
 * (`dataHref`), deduplicated by id. When an action reloads the first page, the items appended below
 * it are reloaded in one request (`cantidad`), so they neither vanish nor go stale; another filter
 * (`resetKey`) starts the list again.
 */
export function useLoadMore<T extends { id: string }>({
  first,
  resetKey,
  dataHref,
}: {
  first: ListPage<T>
  resetKey: string
  dataHref: (next: string, count?: number) => string
}) {
  const more = useFetcher<ListPage<T> | Failure>()
  const reload = useFetcher<ListPage<T> | Failure>()
  const [appended, setAppended] = useState<ListPage<T>>({ items: [], next: first.next })
  const [loadedCount, setLoadedCount] = useState<number | null>(null)
  const shownFor = useRef({ first, resetKey })
  // The last answer from before the list started again: its failure is not this list's.
  const before = useRef<typeof more.data>(undefined)

  useEffect(() => {
    const previous = shownFor.current
    if (previous.first === first) return
    shownFor.current = { first, resetKey }
    if (previous.resetKey !== resetKey || appended.items.length === 0 || !first.next) {
      setAppended({ items: [], next: first.next })
      setLoadedCount(null)
      before.current = more.data
      return
    }
    void reload.load(dataHref(first.next, Math.min(appended.items.length, MAX_RELOAD)))
    // Only a new first page starts this; the rest is read as it is at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first, resetKey])

  useEffect(() => {
    const page = reload.state === 'idle' ? reload.data : undefined
    if (page && 'items' in page) setAppended(page)
  }, [reload.state, reload.data])

  useEffect(() => {
    const page = more.state === 'idle' ? more.data : undefined
    if (!page || !('items' in page)) return
    setAppended((current) => {
      const seen = new Set(current.items.map((item) => item.id))
      return { items: [...current.items, ...page.items.filter((item) => !seen.has(item.id))], next: page.next }
    })
    setLoadedCount(page.items.length)
  }, [more.state, more.data])

  const firstIds = new Set(first.items.map((item) => item.id))
  const next = appended.next
  return {
    items: [...first.items, ...appended.items.filter((item) => !firstIds.has(item.id))],
    next,
    loading: more.state !== 'idle',
    /** Why the last page did not load (the list keeps what it shows; the link tries again). */
    failure: more.state === 'idle' && more.data !== before.current && more.data && !('items' in more.data) ? more.data.message.title : null,
    loadedCount,
    load: () => {
      if (!next || more.state !== 'idle') return
      // Emptied while loading, so the same words ('10 … más cargadas') are announced again.
      setLoadedCount(null)
      void more.load(dataHref(next))
    },
  }
}

/**
 * 'Cargar más' under an appended list: a plain link to the next page without JavaScript; with it,
 * the next page is fetched and appended when the link comes near the screen, or when it is
 * followed (keyboard, screen reader). Focus stays on it and a polite status says how many came.
 */
export function LoadMore({
  list,
  href,
  loaded,
  end,
}: {
  list: ReturnType<typeof useLoadMore>
  /** The next page's own address (the link without JavaScript). */
  href: (next: string) => string
  /** What the status says once `count` items more are shown. */
  loaded: (count: number) => string
  /** Under the last page appended ('No hay más publicaciones'). */
  end: string
}) {
  const link = useRef<HTMLAnchorElement>(null)
  const endRef = useRef<HTMLParagraphElement>(null)
  const hadFocus = useRef(false)
  const { next, loading, failure, load } = list
  const loadRef = useRef(load)
  loadRef.current = load

  // The link goes with the last page: the focus it had goes to the line that takes its place.
  useEffect(() => {
    if (!next && hadFocus.current) endRef.current?.focus()
    hadFocus.current = false
  }, [next])

  // A new observer for each page: it reports at once whether the link is still near the screen.
  // After a failure only the link tries again, so a broken page is not asked for in a loop.
  useEffect(() => {
    const target = link.current
    if (!target || failure || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && loadRef.current(), {
      rootMargin: '0px 0px 600px 0px',
    })
    observer.observe(target)
    return () => observer.disconnect()
  }, [next, failure])

  return (
    <>
      <p role="status" className="sr-only">
        {list.loadedCount === null ? '' : loaded(list.loadedCount)}
      </p>
      {failure ? (
        <p role="alert" className="text-center text-sm text-destructive">
          {failure}
        </p>
      ) : null}
      {next ? (
        <Link
          ref={link}
          to={href(next)}
          onClick={(event) => {
            event.preventDefault()
            hadFocus.current = document.activeElement === event.currentTarget
            load()
          }}
          className={cn(
            'mx-auto inline-flex items-center gap-2 justify-self-center rounded-md border px-4 py-2 text-sm font-medium hover:bg-accent',
            loading && 'opacity-60',
          )}
          aria-busy={loading}
        >
          {loading ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
          {loading ? 'Cargando...' : failure ? 'Reintentar' : 'Cargar más'}
        </Link>
      ) : list.loadedCount !== null ? (
        <p ref={endRef} tabIndex={-1} className="text-center text-sm text-muted-foreground outline-none">
          {end}
        </p>
      ) : null}
    </>
  )
}
