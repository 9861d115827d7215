import { Link, type ShouldRevalidateFunctionArgs } from 'react-router'
import { CreatePostForm, Composer } from '~/components/feed/create-post'
import { CategoryFilter, Feed, MAX_FEED_RELOAD } from '~/components/feed/feed'
import { PremiumGateProvider } from '~/components/feed/premium-required-dialog'
import { StatsPanel } from '~/components/feed/stats-panel'
import type { FeedPostView } from '~/components/feed/types'
import { MemberDirectory, type DirectoryView } from '~/components/community/member-directory'
import { PremiumPrompt } from '~/components/community/premium-prompt'
import { listComments, toCommentView } from '~/models/comment.server'
import { countCompleteMembers, listDirectory } from '~/models/member.server'
import { countPosts, decodeCursor, FEED_PAGE_SIZE, type FeedPost, listCategories, listFeed } from '~/models/post.server'
import { site } from '~/site.config'
import { can } from '~/utils/capabilities'
import { cn } from '~/utils/cn'
import { displayName } from '~/utils/display-name'
import { type CurrentUser, requireCompleteProfile } from '~/utils/permissions.server'
import { signedUploadUrl } from '~/utils/signed-url.server'
import { handleFeedAction } from './comunidad.actions.server'
import type { Route } from './+types/comunidad'

export const meta: Route.MetaFunction = () => [{ title: `Comunidad · ${site.name}` }, { name: 'robots', content: 'noindex' }]

// Tabs land with their features; each is a URL (?tab=…) so it works without JavaScript.
const TABS = [
  { id: 'comunidad', label: 'Comunidad' },
  { id: 'miembros', label: 'Miembros' },
] as const
type TabId = (typeof TABS)[number]['id']

const memberSince = new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'Europe/Madrid' })
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function toPostView(post: FeedPost, viewer: CurrentUser): FeedPostView {
  return {
    id: post.id,
    title: post.title,
    content: post.content,
    postType: post.postType,
    linkUrl: post.linkUrl,
    isPinned: post.isPinned,
    likeCount: post.likeCount,
    commentCount: post.commentCount,
    likedByMe: post.likedByMe,
    createdAt: post.createdAt.toISOString(),
    edited: post.updatedAt.getTime() - post.createdAt.getTime() > 1000,
    author: { userId: post.userId, name: post.authorName, avatarUrl: post.authorAvatarUrl, isPremium: Boolean(post.authorIsPremium) },
    category: post.categoryId ? { id: post.categoryId, name: post.categoryName!, color: post.categoryColor! } : null,
    attachments: post.attachments.map((attachment) => ({
      id: attachment.id,
      fileName: attachment.fileName,
      fileType: attachment.fileType,
      fileSize: attachment.fileSize,
      url: signedUploadUrl(attachment.filePath),
      isImage: attachment.fileType.startsWith('image/'),
    })),
    canEdit: post.userId === viewer.id,
    canDelete: post.userId === viewer.id || can(viewer, 'moderate-content'),
    canPin: can(viewer, 'pin-posts'),
  }
}

async function loadDirectory(params: URLSearchParams): Promise<DirectoryView> {
  const search = (params.get('q') ?? '').slice(0, 100)
  const company = (params.get('empresa') ?? '').slice(0, 100)
  const position = (params.get('cargo') ?? '').slice(0, 100)
  const requestedPage = Number.parseInt(params.get('pagina') ?? '1', 10)
  const page = Number.isFinite(requestedPage) && requestedPage > 0 ? Math.min(requestedPage, 10_000) : 1
  const result = await listDirectory({ search, company, position, page })
  return {
    members: result.members.map((member) => ({
      userId: member.userId,
      name: displayName(member),
      avatarUrl: member.avatarUrl,
      company: member.company,
      position: member.position,
      isPremium: member.isPremium,
      memberSince: memberSince.format(member.createdAt),
      postCount: member.postCount,
    })),
    total: result.total,
    page,
    pageCount: result.pageCount,
    search,
    company,
    position,
  }
}

/** 'cantidad' lets the list reload the posts it already shows in one request (see Feed). */
function feedPageSize(requested: string | null) {
  const size = Number.parseInt(requested ?? '', 10)
  return Number.isInteger(size) && size > 0 ? Math.min(size, MAX_FEED_RELOAD) : FEED_PAGE_SIZE
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const params = new URL(request.url).searchParams
  const requestedTab = params.get('tab')
  const tab: TabId = TABS.some((candidate) => candidate.id === requestedTab) ? (requestedTab as TabId) : 'comunidad'
  const base = { name: displayName(user.profile), hasAccess: user.hasAccess, tab }

  if (tab === 'miembros') {
    // Premium content is never sent to members without access, not merely hidden.
    return { ...base, directory: user.hasAccess ? await loadDirectory(params) : null, community: null }
  }

  const categoryParam = params.get('categoria')
  const categoryId = categoryParam && UUID.test(categoryParam) ? categoryParam : null
  const commentsFor = params.get('comentarios')
  const [categories, feed, members, discussions, openComments] = await Promise.all([
    listCategories(),
    listFeed({ viewerId: user.id, categoryId, cursor: decodeCursor(params.get('cursor')), limit: feedPageSize(params.get('cantidad')) }),
    countCompleteMembers(),
    countPosts(),
    commentsFor && UUID.test(commentsFor) ? listComments(commentsFor, user.id) : Promise.resolve(null),
  ])
  return {
    ...base,
    directory: null,
    community: {
      categories,
      categoryId,
      composing: params.get('nuevo') === '1',
      feed: { posts: feed.posts.map((post) => toPostView(post, user)), nextCursor: feed.nextCursor },
      // Events and CEO sessions count once those features exist.
      stats: { members, discussions, eventsThisMonth: 0, ceoSessions: 0 },
      openComments:
        openComments && commentsFor
          ? {
              postId: commentsFor,
              comments: openComments.map((comment) => toCommentView(comment, user)),
            }
          : null,
    },
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  return handleFeedAction(request, user)
}

/** A like changes one counter the fetcher already shows: no need to reload the whole feed. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const intent = formData?.get('intent')
  if (intent === 'like-post' || intent === 'like-comment') return false
  return defaultShouldRevalidate
}

export default function CommunityPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, hasAccess, directory, community } = loaderData
  return (
    <PremiumGateProvider hasAccess={hasAccess}>
      <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8">
        <header>
          <h1 className="text-3xl font-bold tracking-tight">Comunidad</h1>
          <p className="mt-1 text-muted-foreground">Hola, {loaderData.name}.</p>
        </header>
        <nav aria-label="Secciones de la comunidad" className="flex gap-1 overflow-x-auto border-b">
          {TABS.map((item) => (
            <Link
              key={item.id}
              to={item.id === 'comunidad' ? '/comunidad' : `/comunidad?tab=${item.id}`}
              aria-current={tab === item.id ? 'page' : undefined}
              className={cn(
                '-mb-px border-b-2 border-transparent px-4 py-2 text-sm font-medium text-muted-foreground hover:text-foreground',
                tab === item.id && 'border-primary text-foreground',
              )}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        {/* Without JavaScript, forms post here and the answer is shown in the page. */}
        {actionData ? (
          <p role="status" className={cn('rounded-md border px-3 py-2 text-sm', actionData.ok ? 'border-emerald-300 bg-emerald-50' : 'border-destructive/40 bg-destructive/10 text-destructive')}>
            {actionData.title}
            {actionData.description ? ` — ${actionData.description}` : ''}
          </p>
        ) : null}
        {tab === 'miembros' ? (
          directory ? (
            <MemberDirectory directory={directory} />
          ) : (
            <PremiumPrompt description="El directorio de miembros es parte de la membresía premium: encuentra a directivos de pharma, biotech y medtech por nombre, empresa o cargo." />
          )
        ) : community ? (
          <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
            <div className="grid min-w-0 content-start gap-4">
              {community.composing && hasAccess ? (
                <section className="rounded-xl border bg-card p-5" aria-labelledby="new-post-title">
                  <h2 id="new-post-title" className="mb-4 text-lg font-semibold">
                    Crear post
                  </h2>
                  <CreatePostForm categories={community.categories} />
                </section>
              ) : (
                <Composer categories={community.categories} userName={loaderData.name} />
              )}
              {hasAccess ? null : (
                <PremiumPrompt description="Puedes leer la comunidad. Para publicar, comentar y dar like necesitas la membresía premium." />
              )}
              <CategoryFilter categories={community.categories} active={community.categoryId} />
              <Feed page={community.feed} categoryId={community.categoryId} openComments={community.openComments} />
            </div>
            <aside className="order-first lg:order-none">
              <StatsPanel stats={community.stats} />
            </aside>
          </div>
        ) : null}
      </div>
    </PremiumGateProvider>
  )
}
