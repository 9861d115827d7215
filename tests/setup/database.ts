import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import pg from 'pg'
import { afterAll, beforeAll, test } from 'vitest'
import { type SQL, sql } from 'drizzle-orm'
import { closeDatabase, getDatabase, getDb, openDatabase } from '~/platform/db/client.server'

/**
 * Opens a fresh, migrated database for the calling test file: an in-memory PGlite by
 * default, or, when DATABASE_URL is set, a new database on that PostgreSQL server
 * (dropped afterwards), so the suite runs against both engines.
 */
export function useTestDatabase() {
  let dropDatabase: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const serverUrl = process.env.DATABASE_URL
    if (!serverUrl) {
      const templateFile = process.env.TEST_DATABASE_TEMPLATE
      const template = templateFile ? new Blob([await readFile(templateFile)]) : undefined
      await openDatabase({ kind: 'pglite', dataDir: undefined, template })
      return
    }
    const name = `test_${randomUUID().replaceAll('-', '')}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    const template = process.env.TEST_DATABASE_TEMPLATE
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`)
    await admin.end()
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    await openDatabase({ kind: 'postgres', url: url.toString(), maxConnections: 5 })
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      // Without FORCE: our pool has closed; forcing would kill connections still saying goodbye.
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`drop database if exists ${name}`)
          break
        } catch (error) {
          if (attempt >= 20) throw error
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      await client.end()
    }
  })
  afterAll(async () => {
    await closeDatabase()
    await dropDatabase?.()
  })
  return {
    get database() {
      return getDatabase()
    },
  }
}

/**
 * A test of requests sent at once. On PostgreSQL they race for real (several connections,
 * row locks, SKIP LOCKED). PGlite has one connection and runs transactions one after another,
 * so there the same test shows only that the calls, taken in turn, give the right result; its
 * name says which of the two it showed. `.ci/run` runs the suite on PostgreSQL every time.
 */
export function concurrencyTest(name: string, run: () => Promise<unknown>, timeout?: number) {
  const shows = process.env.DATABASE_URL ? 'PostgreSQL: a real race' : 'PGlite: taken one after another'
  test(
    `${name} (${shows})`,
    async () => {
      await run()
    },
    timeout,
  )
}

/** A node of `explain (format json)`: the scan's table and index, and the nodes under it. */
export type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] }

/**
 * The plans of some queries, with sequential scans priced out: the planner then shows the best
 * index it has for each read (a test that no read goes through a whole table). With `sorts: false`
 * sorting is priced out too: a Sort left in the plan means no index gives that order.
 */
export function plansOf(queries: SQL[], { sorts = true } = {}) {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`)
    if (!sorts) await tx.execute(sql`set local enable_sort = off`)
    const plans: PlanNode[] = []
    for (const query of queries) {
      const result = (await tx.execute(sql`explain (format json) ${query}`)) as unknown as { rows: Array<Record<string, unknown>> }
      const json = Object.values(result.rows[0]!)[0]
      plans.push((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan as PlanNode)
    }
    return plans
  })
}
