import type { ShouldRevalidateFunctionArgs } from 'react-router'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { displayName } from '~/features/account/display-name'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { guardedAction, orWhenFailed } from '~/platform/http/responses.server'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { ActionStatus } from '~/ui/action-status'
import { listComments } from '~/features/community/comments/comments.server'
import { postComments } from './comments.server'
import { Composer, CreatePostForm } from './components/create-post'
import { CategoryFilter, Feed } from './components/feed'
import { feedAction } from './feed.server'
import { decodeCursor, listCategories, listFeed, toPostView } from './posts.server'
import type { Route } from './+types/feed.route'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const params = new URL(request.url).searchParams
  const categoryParam = params.get('categoria')
  const categoryId = categoryParam && UUID.test(categoryParam) ? categoryParam : null
  const commentsFor = params.get('comentarios')
  const openFor = commentsFor && UUID.test(commentsFor) ? commentsFor : null
  const editParam = params.get('editar')
  const editing = editParam && UUID.test(editParam) ? editParam : null
  const [categories, feed, openComments] = await Promise.all([
    // Spec 001 §8: the posts still show when the categories cannot be loaded.
    orWhenFailed(listCategories(), null, 'categories'),
    listFeed({ viewerId: user.id, categoryId, cursor: decodeCursor(params.get('cursor')) }),
    openFor ? listComments(postComments, openFor, user) : null,
  ])
  // A notification links to its post with the comments open, and the no-JS 'Editar' to its post
  // with the form open; if the post is not on this page, it is shown first.
  const shown = openFor ?? editing
  if (shown && !feed.posts.some((post) => post.id === shown)) {
    feed.posts.unshift(...(await listFeed({ viewerId: user.id, postId: shown, limit: 1 })).posts)
  }
  return {
    name: displayName(user.profile),
    hasAccess: user.hasAccess,
    categories,
    categoryId,
    composing: params.get('nuevo') === '1',
    editing,
    feed: { items: feed.posts.map((post) => toPostView(post, user)), next: feed.nextCursor },
    openComments: openComments && openFor ? { postId: openFor, comments: openComments } : null,
  }
}

export const action = guardedAction(requireCompleteProfile, feedAction)

/** A like changes one counter the fetcher already shows: no need to reload the whole feed. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const intent = formData?.get('intent')
  if (intent === 'like-post' || intent === 'like-comment') return false
  return defaultShouldRevalidate
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los posts" />
}

export default function FeedPage({ loaderData, actionData }: Route.ComponentProps) {
  const { hasAccess } = loaderData
  const categories = loaderData.categories ?? []
  return (
    <>
      {/* Without JavaScript, forms post here and the answer is shown in the page. */}
      <ActionStatus result={actionData} />
      {loaderData.composing && hasAccess ? (
        <section className="rounded-xl border bg-card p-5" aria-labelledby="new-post-title">
          <h2 id="new-post-title" className="mb-4 text-lg font-semibold">
            Crear post
          </h2>
          <CreatePostForm categories={categories} />
        </section>
      ) : (
        <Composer categories={categories} userName={loaderData.name} />
      )}
      {hasAccess ? null : (
        <PremiumPrompt description="Puedes leer la comunidad. Para publicar, comentar y dar like necesitas la membresía premium." />
      )}
      {loaderData.categories ? (
        <CategoryFilter categories={loaderData.categories} active={loaderData.categoryId} />
      ) : (
        <p role="status" className="text-sm text-muted-foreground">
          No se pudieron cargar las categorías
        </p>
      )}
      <Feed
        page={loaderData.feed}
        categoryId={loaderData.categoryId}
        openComments={loaderData.openComments}
        // A saved edit closes its form; a failed one (its address names the post) stays open.
        editing={actionData?.ok ? null : loaderData.editing}
      />
    </>
  )
}
