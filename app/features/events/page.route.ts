import { requireCompleteProfile } from '~/features/account/guards.server'
import { requireAccess } from '~/platform/auth/guards.server'
import { readQuery } from '~/platform/http/query'
import { partLoader } from '~/platform/http/responses.server'
import { listUpcoming, UPCOMING_PAGE_SIZE } from './events.server'
import { toEventView } from './views.server'
import type { Route } from './+types/page.route'

/** The list's next upcoming events for 'Cargar más' (ui/load-more.tsx). */
export const loader = partLoader('No se pudieron cargar más eventos', async ({ request }: Route.LoaderArgs) => {
  const user = await requireCompleteProfile(request)
  requireAccess(user)
  const query = readQuery(new URL(request.url).searchParams)
  const upcoming = await listUpcoming({ viewerId: user.id, cursor: query.text('cursor'), limit: query.count(UPCOMING_PAGE_SIZE) })
  return { items: upcoming.events.map(toEventView), next: upcoming.next }
})
