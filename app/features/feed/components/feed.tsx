import { Loader2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { cn } from '~/ui/cn'
import type { CommentView } from '~/features/community/comments/types'
import { FEED_ACTION, type FeedPostView } from '../types'
import { PostCard } from './post-card'

export interface FeedPage {
  posts: FeedPostView[]
  nextCursor: string | null
}

/** What the feed's loader answers, as far as the list needs it. */
type FeedData = { feed: FeedPage }

/** More than the first page may be asked for at once only to reload what is already shown. */
export const MAX_FEED_RELOAD = 100

/**
 * The post list: the first page comes with the page; 'Cargar más' appends the next ones.
 * When an action reloads the first page (a comment, an edit, a deletion), the posts loaded
 * below it are reloaded in one request too, so they neither vanish nor go stale.
 */
export function Feed({
  page,
  categoryId,
  openComments,
  editing,
}: {
  page: FeedPage
  categoryId: string | null
  openComments: { postId: string; comments: CommentView[] } | null
  /** The post whose form the page opens (the no-JS 'Editar'). */
  editing: string | null
}) {
  const more = useFetcher<FeedData>()
  const reload = useFetcher<FeedData>()
  const [extra, setExtra] = useState<FeedPostView[]>([])
  const [cursor, setCursor] = useState(page.nextCursor)
  const shownFor = useRef({ page, categoryId })

  // The page's own URL for the link; the index route's data (`?index`) for the fetchers.
  const hrefFor = (next: string, { count, data = false }: { count?: number; data?: boolean } = {}) => {
    const params = new URLSearchParams({ cursor: next })
    if (categoryId) params.set('categoria', categoryId)
    if (count) params.set('cantidad', String(Math.min(count, MAX_FEED_RELOAD)))
    return data ? `${FEED_ACTION}&${params}` : `/comunidad?${params}`
  }

  useEffect(() => {
    const previous = shownFor.current
    if (previous.page === page) return
    shownFor.current = { page, categoryId }
    // Another category starts the list again; so does a first page that is all there is.
    if (previous.categoryId !== categoryId || extra.length === 0 || !page.nextCursor) {
      setExtra([])
      setCursor(page.nextCursor)
      return
    }
    void reload.load(hrefFor(page.nextCursor, { count: extra.length, data: true }))
    // Only a new first page starts this; the rest is read as it is at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, categoryId])

  useEffect(() => {
    const loaded = reload.state === 'idle' ? reload.data?.feed : undefined
    if (!loaded) return
    setExtra(loaded.posts)
    setCursor(loaded.nextCursor)
  }, [reload.state, reload.data])

  useEffect(() => {
    const loaded = more.state === 'idle' ? more.data?.feed : undefined
    if (!loaded) return
    setExtra((current) => {
      const seen = new Set(current.map((post) => post.id))
      return [...current, ...loaded.posts.filter((post) => !seen.has(post.id))]
    })
    setCursor(loaded.nextCursor)
  }, [more.state, more.data])

  const firstIds = new Set(page.posts.map((post) => post.id))
  const posts = [...page.posts, ...extra.filter((post) => !firstIds.has(post.id))]

  if (posts.length === 0) {
    return (
      <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">
        No hay posts aún. ¡Sé el primero en crear uno!
      </p>
    )
  }
  return (
    // The posts' titles are h3: this heading keeps the outline in order (h1 Comunidad, h2, h3).
    <section className="grid gap-4" aria-labelledby="feed-title">
      <h2 id="feed-title" className="sr-only">
        Publicaciones
      </h2>
      {posts.map((post) => (
        <PostCard
          key={post.id}
          post={post}
          initialComments={openComments?.postId === post.id ? openComments.comments : undefined}
          editOnLoad={editing === post.id}
        />
      ))}
      {cursor ? (
        <Link
          to={hrefFor(cursor)}
          onClick={(event) => {
            event.preventDefault()
            void more.load(hrefFor(cursor, { data: true }))
          }}
          className={cn(
            'mx-auto inline-flex items-center gap-2 rounded-md border px-4 py-2 text-sm font-medium hover:bg-accent',
            more.state !== 'idle' && 'pointer-events-none opacity-60',
          )}
          aria-busy={more.state !== 'idle'}
        >
          {more.state !== 'idle' ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
          {more.state !== 'idle' ? 'Cargando...' : 'Cargar más'}
        </Link>
      ) : null}
    </section>
  )
}

export function CategoryFilter({ categories, active }: { categories: Array<{ id: string; name: string }>; active: string | null }) {
  const chip = 'shrink-0 snap-start rounded-full border px-3 py-1.5 text-sm font-medium hover:bg-accent'
  return (
    // The row scrolls sideways when the chips do not fit; its right edge fades (over its own padding
    // when everything fits), so a cut-off chip shows there is more.
    <nav
      aria-label="Filtrar por categoría"
      className="flex snap-x gap-2 overflow-x-auto pb-1 pr-6 [mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)]"
    >
      <Link
        to="/comunidad"
        aria-current={active ? undefined : 'page'}
        className={cn(chip, !active && 'border-primary bg-primary text-primary-foreground hover:bg-primary/90')}
      >
        Todos
      </Link>
      {categories.map((category) => (
        <Link
          key={category.id}
          to={`/comunidad?categoria=${category.id}`}
          aria-current={active === category.id ? 'page' : undefined}
          className={cn(chip, active === category.id && 'border-primary bg-primary text-primary-foreground hover:bg-primary/90')}
        >
          {category.name}
        </Link>
      ))}
    </nav>
  )
}
