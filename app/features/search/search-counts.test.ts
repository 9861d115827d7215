import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { SEARCH_CAP, SEARCH_TABS, type SearchTab } from './search'
import { SEARCH_WINDOW, search, searchStatements, titlesOf } from './search.server'

// Issue 38: a kind's count comes from its newest rows when they hold more than the cap, from its
// search index otherwise, and says the same as counting every match (decisions/0031). Each windowed
// table has 2,700 rows: its window of 1,600 and 1,100 older ones.
useTestDatabase()

const WINDOW = SEARCH_WINDOW
const SIZES = { windowRows: WINDOW }
const OLD = 1_100
let viewer: { id: string; hasAccess: boolean }

// Per table, 1,100 old rows then 1,600 new ones (the window), each word where its case needs it:
// 'alfa' in every new row (past the cap in the window), 'beta' in 5 new and every old row (past it
// only through the index), 'delta' in the newest 60 and 30 old (enough new ones to count the
// window, too few in it), 'gamma' in 3 new and 2 old (counted exactly), 'epsilon' in none.
const words = (n: string, old: boolean) =>
  old
    ? sql.raw(`'beta' || case when ${n} <= 30 then ' delta' else '' end || case when ${n} <= 2 then ' gamma' else '' end`)
    : sql.raw(
        `'alfa' || case when ${n} > ${WINDOW - 5} then ' beta' else '' end || case when ${n} > ${WINDOW - 60} then ' delta' else '' end || case when ${n} > ${WINDOW - 3} then ' gamma' else '' end`,
      )
const at = (n: string, old: boolean) => sql.raw(`timestamptz '${old ? '2024' : '2025'}-01-01' + ${n} * interval '1 minute'`)

beforeAll(async () => {
  const persona = await createPersona('premium', { firstName: 'Cuenta', lastName: 'Prueba' })
  viewer = { id: persona.userId!, hasAccess: true }
  await createPersona('member', { firstName: 'Gamma', lastName: 'Prueba' })
  const db = getDb()
  const [session] = (
    await db.execute(sql`insert into ceo_sessions (title, summary, description, ceo_name, ceo_position, ceo_company, session_date, video_provider, publication_status)
      select 'Sesión ' || n || case when n <= 2 then ' gamma' else '' end, 'Resumen', 'Descripción', 'CEO', 'CEO', 'Empresa', now(), 'local', 'published'
      from generate_series(1, 3) n returning id`)
  ).rows as Array<{ id: string }>
  await db.execute(
    sql`insert into events (title, description, event_date, event_type) values ('Evento gamma', 'Descripción', now(), 'virtual')`,
  )
  for (const old of [true, false]) {
    const rows = old ? OLD : WINDOW
    await db.execute(sql`insert into community_posts (user_id, title, content, created_at)
      select ${viewer.id}, ${old ? sql`'Nota ' || n` : sql`'Alfa ' || n`}, ${words('n', old)}, ${at('n', old)} from generate_series(1, ${rows}) n`)
    await db.execute(sql`insert into community_comments (post_id, user_id, content, created_at)
      select (select id from community_posts order by created_at limit 1), ${viewer.id}, ${words('n', old)}, ${at('n', old)} from generate_series(1, ${rows}) n`)
    await db.execute(sql`insert into ceo_session_comments (session_id, user_id, content, created_at)
      select ${session!.id}, ${viewer.id}, ${words('n', old)}, ${at('n', old)} from generate_series(1, ${rows}) n`)
  }
  // Hidden by moderation and not the viewer's, the newest of all: never counted.
  const other = await createPersona('member')
  await db.execute(sql`insert into community_posts (user_id, title, content, created_at, hidden_at, hidden_reason)
    select ${other.userId!}, 'Oculta', 'alfa beta delta gamma', now(), now(), 'spam' from generate_series(1, 3) n`)
}, 120_000)

/** Every visible match of a word per kind, counted without limit or window. */
async function directCounts(word: string) {
  const tsquery = sql`websearch_to_tsquery('es_unaccent'::regconfig, f_search_text(${word}))`
  const seen = (table: string) => sql.raw(`(${table}.hidden_at is null or ${table}.user_id = '${viewer.id}')`)
  const { rows } = (await getDb().execute(sql`select
      (select count(*)::int from community_posts p where p.search_vector @@ ${tsquery} and ${seen('p')}) as post,
      (select count(*)::int from community_comments c where c.search_vector @@ ${tsquery} and ${seen('c')}) as comment,
      (select count(*)::int from ceo_session_comments c where c.search_vector @@ ${tsquery} and ${seen('c')}) as session_comment,
      (select count(*)::int from ceo_sessions s where s.search_vector @@ ${tsquery}) as session,
      (select count(*)::int from events e where e.search_vector @@ ${tsquery}) as event,
      (select count(*)::int from profiles m where m.first_name = initcap(${word})) as member`)) as unknown as {
    rows: Array<Record<string, number>>
  }
  return rows[0]!
}

const TAB_KINDS: Record<Exclude<SearchTab, 'todo'>, string[]> = {
  posts: ['post'],
  comentarios: ['comment', 'session_comment'],
  sesiones: ['session'],
  eventos: ['event'],
  miembros: ['member'],
}

describe('counts through the window of the newest rows', () => {
  test.each([
    ['alfa', 'past the cap in the window'],
    ['beta', 'few in the window, past the cap through the index'],
    ['delta', 'enough in the newest rows to count the window, fewer than the cap in all'],
    ['gamma', 'few overall'],
    ['epsilon', 'none'],
  ])("'%s' (%s): every tab's count is the direct count, capped", async (word) => {
    const direct = await directCounts(word)
    const capped = (kinds: string[]) => kinds.reduce((sum, kind) => sum + Math.min(direct[kind]!, SEARCH_CAP + 1), 0)
    const expected = Object.fromEntries(Object.entries(TAB_KINDS).map(([tab, kinds]) => [tab, capped(kinds)]))
    expected.todo = capped(Object.values(TAB_KINDS).flat())
    for (const tab of Object.keys(SEARCH_TABS) as SearchTab[]) {
      const found = await search(viewer, { query: word, tab, order: 'relevancia', page: 1 }, SIZES)
      expect(found.counts, `${word} ${tab}`).toEqual(expected)
      expect(found.hits.length, `${word} ${tab}`).toBe(Math.min(expected[tab]!, 10))
    }
  })

  test('the seed puts each word where its case needs it', async () => {
    expect(await directCounts('alfa')).toMatchObject({ post: WINDOW, comment: WINDOW, session_comment: WINDOW })
    expect(await directCounts('beta')).toMatchObject({ post: OLD + 5, comment: OLD + 5, session_comment: OLD + 5 })
    expect(await directCounts('delta')).toMatchObject({ post: 90, comment: 90, session_comment: 90 })
    expect(await directCounts('gamma')).toEqual({ post: 5, comment: 5, session_comment: 5, session: 2, event: 1, member: 1 })
  })

  /** The counts' plan nodes that ran and read one of the windowed tables as `how` says. */
  const reads = async (query: string, sizes: { windowRows: number }, how: string) => {
    const statement = searchStatements(viewer, { query, tab: 'todo', order: 'relevancia', page: 1 }, sizes).counts
    const { rows } = (await getDb().execute(sql`explain (analyze, costs off) ${statement}`)) as unknown as {
      rows: Array<Record<string, string>>
    }
    const pattern = new RegExp(`${how}.* (community_posts|community_comments|ceo_session_comments)`)
    return rows.map((row) => Object.values(row)[0]!).filter((line) => pattern.test(line) && !line.includes('never executed'))
  }
  const indexReads = (query: string, sizes: { windowRows: number }) => reads(query, sizes, 'Bitmap Index Scan on')

  test('a word past the cap in the window never reads the search indexes of the windowed kinds', async () => {
    expect(await indexReads('alfa', SIZES)).toEqual([])
    // Counted through the index (or read whole, at this size, where the planner finds it cheaper).
    expect((await indexReads('beta', SIZES)).length).toBeGreaterThan(0)
  })

  test('a rare word reads only the newest sixteenth of each window before the search index', async () => {
    // The rows each limit that ran gave: a window is read under its limit (of WINDOW rows).
    const limited = async (query: string) => {
      const statement = searchStatements(viewer, { query, tab: 'todo', order: 'relevancia', page: 1 }, SIZES).counts
      const { rows } = (await getDb().execute(sql`explain (analyze, costs off) ${statement}`)) as unknown as {
        rows: Array<Record<string, string>>
      }
      return rows
        .map((row) => Object.values(row)[0]!)
        .filter((line) => line.includes('Limit (actual') && !line.includes('never executed'))
        .map((line) => Number(/ rows=(\d+)/.exec(line)![1]))
    }
    for (const word of ['gamma', 'epsilon']) {
      const read = await limited(word)
      expect(read.length, word).toBeGreaterThan(0)
      for (const rows of read) expect(rows, word).toBeLessThanOrEqual(WINDOW / 16)
    }
    // A common word reads its window: the sample is the first step, not the only one.
    expect(Math.max(...(await limited('alfa')))).toBeGreaterThan(WINDOW / 16)
  })

  test('titles are past the cap when the window holds more than the cap of them, and only for a kind past the cap', async () => {
    const titles = async (query: string) => {
      const { rows } = (await getDb().execute(
        searchStatements(viewer, { query, tab: 'todo', order: 'relevancia', page: 1 }, SIZES).counts,
      )) as unknown as { rows: Array<{ kind: string; n: number }> }
      return rows.find((row) => row.kind === titlesOf('post'))!.n > SEARCH_CAP
    }
    expect(await titles('alfa')).toBe(true)
    expect(await titles('beta')).toBe(false)
    expect(await titles('gamma')).toBe(false)
  })
})
