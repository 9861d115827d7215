import { requireUser } from '~/features/account/guards.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { EXPORT_MESSAGES, openDataExport } from './data-export.server'
import type { Route } from './+types/data-export.route'

/** The e-mailed link to the member's data: the ZIP, or back to the profile saying why not (decisions/0012). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return (
    (await openDataExport(user.id, params.token)) ?? redirectWithToast('/perfil#tus-datos', { type: 'error', title: EXPORT_MESSAGES.gone })
  )
}
