import { inArray } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { communityCounters, type CounterName } from './schema'

/**
 * Counters kept by the database (migrations 0008 and 0037): one indexed read instead of a count of
 * every row. A counter missing (a database before its migration) reads 0.
 */
export async function readCounters<N extends CounterName>(names: readonly N[]): Promise<Record<N, number>> {
  const rows = await getDb()
    .select({ name: communityCounters.name, value: communityCounters.value })
    .from(communityCounters)
    .where(inArray(communityCounters.name, [...names]))
  const values = Object.fromEntries(names.map((name) => [name, 0])) as Record<N, number>
  for (const row of rows) values[row.name as N] = Number(row.value)
  return values
}
