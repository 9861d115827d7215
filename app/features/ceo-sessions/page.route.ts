import { requireCompleteProfile } from '~/features/account/guards.server'
import { requireAccess } from '~/platform/auth/guards.server'
import { readQuery } from '~/platform/http/query'
import { partLoader } from '~/platform/http/responses.server'
import { LIBRARY_PAGE_SIZE, listLibrary, toCardView } from './library.server'
import type { Route } from './+types/page.route'

/** The library's next cards for 'Cargar más' (ui/load-more.tsx), the search kept. */
export const loader = partLoader('No se pudieron cargar más sesiones', async ({ request }: Route.LoaderArgs) => {
  const user = await requireCompleteProfile(request)
  requireAccess(user)
  const query = readQuery(new URL(request.url).searchParams)
  const library = await listLibrary({ search: query.text('buscar'), cursor: query.text('cursor'), limit: query.count(LIBRARY_PAGE_SIZE) })
  return { items: library.sessions.map((row) => toCardView(row, user)), next: library.nextCursor }
})
