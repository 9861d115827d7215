import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest'
import { sql } from 'drizzle-orm'
import { failStatements, getDb, recordStatements } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { markDraining, markServing, readinessResponse, resetReadiness } from './readiness.server'

useTestDatabase()
let disarm: (() => void) | undefined
beforeEach(() => resetReadiness())
afterEach(() => disarm?.())
// The test files of a worker share this module: the next one finds a process that serves.
afterAll(() => {
  resetReadiness()
  markServing()
})

async function answer() {
  const response = await readinessResponse()
  return { status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() }
}

describe('/readyz', () => {
  test('while starting: 503 "starting" with Retry-After; once serving: 200 "ready", never cached', async () => {
    expect(await answer()).toEqual({ status: 503, retryAfter: '5', body: { status: 'starting' } })
    markServing()
    const ready = await readinessResponse()
    expect(ready.status).toBe(200)
    expect(ready.headers.get('Retry-After')).toBeNull()
    expect(ready.headers.get('Cache-Control')).toBe('no-store')
    expect(await ready.json()).toEqual({ status: 'ready' })
  })

  test('through a database outage: 503 "database" while it does not answer, 200 again once it does', async () => {
    markServing()
    expect((await answer()).status).toBe(200)
    disarm = failStatements(/select 1/, { times: 3 })
    for (let i = 0; i < 3; i++) expect(await answer()).toEqual({ status: 503, retryAfter: '5', body: { status: 'database' } })
    expect(await answer()).toEqual({ status: 200, retryAfter: null, body: { status: 'ready' } })
  })

  test('a database away at the first check (the migrations cannot be read): 503 "database", then ready once it is back', async () => {
    markServing()
    disarm = failStatements(/__drizzle_migrations/)
    expect((await answer()).body).toEqual({ status: 'database' })
    expect((await answer()).body).toEqual({ status: 'ready' })
  })

  test('a database without a migration this version ships is not ready; the check is made once, after it succeeds', async () => {
    markServing()
    const [last] = (
      await getDb().execute<{ id: number; created_at: string }>(
        sql`select id, created_at from drizzle.__drizzle_migrations order by id desc limit 1`,
      )
    ).rows
    await getDb().execute(sql`update drizzle.__drizzle_migrations set created_at = 1 where id = ${last!.id}`)
    try {
      expect(await answer()).toEqual({ status: 503, retryAfter: '5', body: { status: 'database' } })
    } finally {
      await getDb().execute(sql`update drizzle.__drizzle_migrations set created_at = ${last!.created_at} where id = ${last!.id}`)
    }
    expect((await answer()).status).toBe(200)
    const recorded = recordStatements()
    await answer()
    await answer()
    recorded.stop()
    // Cached after success: each answer is one `select 1`, no session, no rate-limit row, no migrations read.
    expect(recorded.statements.map((statement) => statement.text)).toEqual(['select 1', 'select 1'])
  })

  test('draining after a stop signal: 503 "draining" even while the database answers', async () => {
    markServing()
    expect((await answer()).status).toBe(200)
    markDraining()
    expect(await answer()).toEqual({ status: 503, retryAfter: '5', body: { status: 'draining' } })
    // A drain does not end by itself: start-up finishing late does not make it ready again.
    markServing()
    expect((await answer()).body).toEqual({ status: 'draining' })
  })
})
