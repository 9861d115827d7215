import { Link } from 'react-router'
import { cn } from '~/ui/cn'
import { LoadMore, type ListPage, useLoadMore } from '~/ui/load-more'
import type { CommentView } from '~/features/community/comments/types'
import type { FeedPostView } from '../types'
import { PostCard } from './post-card'

/**
 * The post list: the first page comes with the page; the next ones are appended as the member
 * reaches the end, or follows 'Cargar más' (ui/load-more.tsx). Likes, comments and edits work on
 * appended posts as on the first ones: each card is keyed by its post.
 */
export function Feed({
  page,
  categoryId,
  openComments,
  editing,
}: {
  page: ListPage<FeedPostView>
  categoryId: string | null
  openComments: { postId: string; comments: CommentView[] } | null
  /** The post whose form the page opens (the no-JS 'Editar'). */
  editing: string | null
}) {
  const query = (cursor: string, count?: number) => {
    const params = new URLSearchParams({ cursor })
    if (categoryId) params.set('categoria', categoryId)
    if (count) params.set('cantidad', String(count))
    return params
  }
  const list = useLoadMore({
    first: page,
    resetKey: categoryId ?? '',
    dataHref: (cursor, count) => `/comunidad/publicaciones?${query(cursor, count)}`,
  })

  if (list.items.length === 0) {
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
      {list.items.map((post) => (
        <PostCard
          key={post.id}
          post={post}
          initialComments={openComments?.postId === post.id ? openComments.comments : undefined}
          editOnLoad={editing === post.id}
        />
      ))}
      <LoadMore
        list={list}
        href={(cursor) => `/comunidad?${query(cursor)}`}
        loaded={(count) => `${count} publicaciones más cargadas`}
        end="No hay más publicaciones"
      />
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
