import { sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'

/** For load balancers: answers 200 only when the database answers. */
export async function loader() {
  try {
    await getDb().execute(sql`select 1`)
    return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
  } catch {
    return Response.json({ status: 'database unavailable' }, { status: 503 })
  }
}
