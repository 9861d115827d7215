import { pingDatabase } from '~/platform/db/client.server'

/** For load balancers: answers 200 only when the database answers. */
export async function loader() {
  const up = await pingDatabase()
  return up
    ? Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
    : Response.json({ status: 'database unavailable' }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
}
