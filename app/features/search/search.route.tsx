import { requireCompleteProfile } from '~/features/account/guards.server'
import { withBell } from '~/features/notifications/components/notification-bell'
import { readQuery } from '~/platform/http/query'
import { site } from '~/site.config'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { SearchResults } from './components/search-results'
import { SEARCH_ORDERS, SEARCH_TABS } from './search'
import { search } from './search.server'
import type { Route } from './+types/search.route'

export const meta: Route.MetaFunction = () => [{ title: `Buscar · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export const handle = withBell

// Whoever may read the community may search it (the /comunidad layout's guard); what each finds is the search's rules.
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const params = new URL(request.url).searchParams
  const read = readQuery(params)
  const input = {
    query: params.get('q') ?? '',
    tab: read.choice('tipo', SEARCH_TABS) || 'todo',
    order: read.choice('orden', SEARCH_ORDERS) || 'relevancia',
    page: read.page(),
  }
  const found = await search(user, input)
  return { ...found, tab: input.tab, order: input.order, page: input.page, hasAccess: user.hasAccess }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudo buscar" />
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  return <SearchResults {...loaderData} />
}
