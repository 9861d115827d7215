import { recordAudit } from '~/platform/audit/audit.server'
import { requireAdminConsole } from '~/features/account/guards.server'
import { DEFAULT_TIME_ZONE, toWallTime } from '~/platform/dates'
import { getEnv } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { memberFilterQuery, readMemberFilter } from './filters'
import { membersCsv } from './members.server'

/** Where the members table's 'Exportar CSV' downloads from. */
export const EXPORT_PATH = '/admin/miembros/exportar'

/**
 * `GET /admin/miembros/exportar?<the table's filter>`: the members as a CSV file, streamed.
 * Served by Express before React Router (server/app.ts), like the other long bodies: React
 * Router's Node adapter (7.x) keeps every chunk of a response until it ends
 * (remix-run/react-router#15247), which would hold the whole file; `fetchRoute` answers its
 * guard's refusals and its failures. The export is audited with its filter before the first byte
 * goes out.
 */
export async function exportMembers(request: Request): Promise<Response> {
  const admin = await requireAdminConsole(request)
  const filter = readMemberFilter(new URL(request.url).searchParams)
  const query = memberFilterQuery(filter)
  await recordAudit({ action: 'members_exported', actorUserId: admin.id, details: { filter: query || 'todos' } })
  const body = membersCsv(filter, getEnv().APP_URL, (rows) => logger.info({ rows, filter: query }, 'Members exported'))
  const day = toWallTime(new Date(), DEFAULT_TIME_ZONE).slice(0, 10)
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="miembros-${day}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
