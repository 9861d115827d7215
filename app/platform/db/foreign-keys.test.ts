import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'

/**
 * Issue 38: deleting a row must not read every row that could reference it. PostgreSQL looks up a
 * foreign key's referencing rows (ON DELETE CASCADE or SET NULL, or the check that none is left)
 * with `where <columns> = $1`, which reads the whole referencing table unless an index starts with
 * those columns: at the bench's ×10, deleting 300 comments took 56 s (each one read the million
 * notifications and the 300,000 comments for its replies), and an account's deletion read every
 * notification it acted in. A reference kept by a trigger instead of a key counts the same.
 */
useTestDatabase()

/** References without a foreign key (a post's or a session's comment), removed by triggers (migration 0013). */
const KEPT_BY_TRIGGER = [{ table: 'notifications', columns: ['related_comment_id'] }]

interface Reference {
  table: string
  name: string
  columns: string[]
}

async function unindexed(references: Reference[]) {
  const result = await getDb().execute(sql`
    select t.relname as "table", array(select a.attname from unnest(i.indkey::int2[]) with ordinality as k (n, position)
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.position)::text[] as columns
    from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace s on s.oid = t.relnamespace
    where s.nspname = 'public' and i.indisvalid`)
  const indexes = result.rows as Array<{ table: string; columns: string[] }>
  return references.filter(
    (reference) =>
      !indexes.some(
        (index) => index.table === reference.table && reference.columns.every((column, position) => index.columns[position] === column),
      ),
  )
}

describe('every reference is found by an index', () => {
  test('each foreign key has an index that starts with its columns', async () => {
    const result = await getDb().execute(sql`
      select t.relname as "table", c.conname as name,
        array(select a.attname from unnest(c.conkey) with ordinality as k (n, position)
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.position)::text[] as columns
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace s on s.oid = t.relnamespace
      where c.contype = 'f' and s.nspname = 'public'
      order by 1, 2`)
    const keys = result.rows as unknown as Reference[]
    // The schema has dozens; a query that found none would pass for the wrong reason.
    expect(keys.length).toBeGreaterThan(40)
    expect(await unindexed(keys)).toEqual([])
  })

  test('a reference kept by a trigger has its index too', async () => {
    expect(await unindexed(KEPT_BY_TRIGGER.map((reference) => ({ ...reference, name: reference.columns.join(',') })))).toEqual([])
  })

  test('the check finds a key whose index is dropped', async () => {
    await getDb().execute(sql`drop index notifications_actor_idx`)
    const keys = [{ table: 'notifications', name: 'notifications_actor_user_id_user_id_fk', columns: ['actor_user_id'] }]
    expect(await unindexed(keys)).toEqual(keys)
  })
})
