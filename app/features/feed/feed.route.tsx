import type { ShouldRevalidateFunctionArgs } from 'react-router'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { displayName } from '~/features/account/display-name'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { handleIntent } from '~/platform/http/responses.server'
import { ActionStatus } from '~/ui/action-status'
import { commentHandlers, listComments } from '~/features/community/comments/comments.server'
import { postComments } from './comments.server'
import { Composer, CreatePostForm } from './components/create-post'
import { CategoryFilter, Feed, MAX_FEED_RELOAD } from './components/feed'
import { createPostIntent, deletePostIntent, likeCommentIntent, likePostIntent, pinPostIntent, updatePostIntent } from './feed.server'
import { decodeCursor, FEED_PAGE_SIZE, listCategories, listFeed, toPostView } from './posts.server'
import { ATTACHMENT_ERRORS, ATTACHMENT_LIMITS } from './limits'
import { FeedIntent } from './schemas'
import type { Route } from './+types/feed.route'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** 'cantidad' lets the list reload the posts it already shows in one request (see Feed). */
function feedPageSize(requested: string | null) {
  const size = Number.parseInt(requested ?? '', 10)
  return Number.isInteger(size) && size > 0 ? Math.min(size, MAX_FEED_RELOAD) : FEED_PAGE_SIZE
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const params = new URL(request.url).searchParams
  const categoryParam = params.get('categoria')
  const categoryId = categoryParam && UUID.test(categoryParam) ? categoryParam : null
  const commentsFor = params.get('comentarios')
  const openFor = commentsFor && UUID.test(commentsFor) ? commentsFor : null
  const [categories, feed, openComments] = await Promise.all([
    listCategories(),
    listFeed({ viewerId: user.id, categoryId, cursor: decodeCursor(params.get('cursor')), limit: feedPageSize(params.get('cantidad')) }),
    openFor ? listComments(postComments, openFor, user) : null,
  ])
  // A notification links to its post with the comments open; if the post is not on this page,
  // it is shown first.
  if (openFor && !feed.posts.some((post) => post.id === openFor)) {
    feed.posts.unshift(...(await listFeed({ viewerId: user.id, postId: openFor, limit: 1 })).posts)
  }
  return {
    name: displayName(user.profile),
    hasAccess: user.hasAccess,
    categories,
    categoryId,
    composing: params.get('nuevo') === '1',
    feed: { posts: feed.posts.map((post) => toPostView(post, user)), nextCursor: feed.nextCursor },
    openComments: openComments && openFor ? { postId: openFor, comments: openComments } : null,
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  return handleIntent(
    request,
    FeedIntent,
    {
      'create-post': { invalid: 'No se pudo crear el post', run: (input, files) => createPostIntent(request, user, input, files) },
      'update-post': { invalid: 'No se pudieron guardar los cambios', run: (input) => updatePostIntent(user, input) },
      'delete-post': { invalid: 'No se pudo eliminar el post', run: (input) => deletePostIntent(user, input) },
      'pin-post': { invalid: 'No se pudo modificar el post', run: (input) => pinPostIntent(user, input) },
      'like-post': { invalid: 'No se pudo procesar tu reacción', run: (input) => likePostIntent(user, input) },
      ...commentHandlers(postComments, user),
      'like-comment': { invalid: 'No se pudo procesar tu reacción', run: (input) => likeCommentIntent(user, input) },
    },
    {
      files: ATTACHMENT_LIMITS,
      messages: { 'too-large': ATTACHMENT_ERRORS.total, 'file-too-large': ATTACHMENT_ERRORS.fileSize, 'too-many': ATTACHMENT_ERRORS.count },
    },
  )
}

/** A like changes one counter the fetcher already shows: no need to reload the whole feed. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const intent = formData?.get('intent')
  if (intent === 'like-post' || intent === 'like-comment') return false
  return defaultShouldRevalidate
}

export default function FeedPage({ loaderData, actionData }: Route.ComponentProps) {
  const { hasAccess, categories } = loaderData
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
      <CategoryFilter categories={categories} active={loaderData.categoryId} />
      <Feed page={loaderData.feed} categoryId={loaderData.categoryId} openComments={loaderData.openComments} />
    </>
  )
}
