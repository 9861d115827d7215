import { requireCompleteProfile } from '~/features/account/guards.server'
import { readQuery } from '~/platform/http/query'
import { partLoader } from '~/platform/http/responses.server'
import { decodeCursor, FEED_PAGE_SIZE, listFeed, toPostView } from './posts.server'
import type { Route } from './+types/page.route'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The feed's next page for 'Cargar más' (ui/load-more.tsx): only the posts, two statements after
 * the viewer's; 'cantidad' reloads in one request the posts the list already appended.
 */
export const loader = partLoader('No se pudieron cargar más publicaciones', async ({ request }: Route.LoaderArgs) => {
  const user = await requireCompleteProfile(request)
  const params = new URL(request.url).searchParams
  const category = params.get('categoria')
  const feed = await listFeed({
    viewerId: user.id,
    categoryId: category && UUID.test(category) ? category : null,
    cursor: decodeCursor(params.get('cursor')),
    limit: readQuery(params).count(FEED_PAGE_SIZE),
  })
  return { items: feed.posts.map((post) => toPostView(post, user)), next: feed.nextCursor }
})
