import { eq, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { moderationReports } from './schema'

/** Reports waiting for a decision: few, read through the partial index of open reports (moderation_reports_open_idx). */
export async function countOpenReports() {
  const [row] = await getDb()
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(moderationReports)
    .where(eq(moderationReports.status, 'open'))
  return row?.count ?? 0
}
