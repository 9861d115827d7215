import { requireUser } from '~/features/account/guards.server'
import { partLoader } from '~/platform/http/responses.server'
import { notificationPage } from './notifications.server'
import type { Route } from './+types/bell.route'

/** The bell's list (the first page): a failure is the bell's to show, never the page's. */
export const loader = partLoader('No se pudieron cargar las notificaciones', async ({ request }: Route.LoaderArgs) => {
  const user = await requireUser(request)
  return { ok: true as const, ...(await notificationPage(user, new URLSearchParams())) }
})
