import { Loader2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { cn } from '~/utils/cn'
import { PostCard } from './post-card'
import type { CommentView, FeedPostView } from './types'

export interface FeedPage {
  posts: FeedPostView[]
  nextCursor: string | null
}

/** The post list: the first page comes with the page; 'Cargar más' appends the next ones. */
export function Feed({
  page,
  categoryId,
  openComments,
}: {
  page: FeedPage
  categoryId: string | null
  openComments: { postId: string; comments: CommentView[] } | null
}) {
  const more = useFetcher<{ feed: FeedPage }>()
  const [extra, setExtra] = useState<FeedPostView[]>([])
  const [cursor, setCursor] = useState(page.nextCursor)

  // A new first page (filter change, a new post) starts the list again.
  useEffect(() => {
    setExtra([])
    setCursor(page.nextCursor)
  }, [page])
  useEffect(() => {
    if (more.state !== 'idle' || !more.data) return
    const loaded = more.data.feed
    setExtra((current) => {
      const seen = new Set([...page.posts, ...current].map((post) => post.id))
      return [...current, ...loaded.posts.filter((post) => !seen.has(post.id))]
    })
    setCursor(loaded.nextCursor)
  }, [more.state, more.data, page.posts])

  const posts = [...page.posts, ...extra]
  const nextHref = (next: string) => {
    const params = new URLSearchParams({ cursor: next })
    if (categoryId) params.set('categoria', categoryId)
    return `/comunidad?${params}`
  }

  if (posts.length === 0) {
    return <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">No hay posts aún. ¡Sé el primero en crear uno!</p>
  }
  return (
    <div className="grid gap-4">
      {posts.map((post) => (
        <PostCard key={post.id} post={post} initialComments={openComments?.postId === post.id ? openComments.comments : undefined} />
      ))}
      {cursor ? (
        <Link
          to={nextHref(cursor)}
          onClick={(event) => {
            event.preventDefault()
            void more.load(nextHref(cursor))
          }}
          className={cn('mx-auto inline-flex items-center gap-2 rounded-md border px-4 py-2 text-sm font-medium hover:bg-accent', more.state !== 'idle' && 'pointer-events-none opacity-60')}
          aria-busy={more.state !== 'idle'}
        >
          {more.state !== 'idle' ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
          {more.state !== 'idle' ? 'Cargando...' : 'Cargar más'}
        </Link>
      ) : null}
    </div>
  )
}

export function CategoryFilter({ categories, active }: { categories: Array<{ id: string; name: string }>; active: string | null }) {
  const chip = 'shrink-0 rounded-full border px-3 py-1.5 text-sm font-medium hover:bg-accent'
  return (
    <nav aria-label="Filtrar por categoría" className="flex gap-2 overflow-x-auto pb-1">
      <Link to="/comunidad" aria-current={active ? undefined : 'page'} className={cn(chip, !active && 'border-primary bg-primary text-primary-foreground hover:bg-primary/90')}>
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
