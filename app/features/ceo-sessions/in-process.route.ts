import { requireCapability } from '~/platform/auth/guards.server'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { partLoader } from '~/platform/http/responses.server'
import { listMyInProcess } from './library.server'
import type { Route } from './+types/in-process.route'

/**
 * 'Mis sesiones en proceso', polled every 10 s while a video is processing: a part of the
 * Sesiones tab, so a failed poll leaves the tab as it was.
 */
export const loader = partLoader('No se pudo actualizar el estado de tus sesiones', async ({ request }: Route.LoaderArgs) => {
  const user = await requireCompleteProfile(request)
  requireCapability(user, 'manage-sessions', 'No se pudo actualizar el estado de tus sesiones')
  const rows = await listMyInProcess(user.id)
  return { ok: true as const, sessions: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) }
})
