import { type SQL, sql } from 'drizzle-orm'
import { DELETED_MEMBER, displayName } from '~/features/account/display-name'
import { linkOf, postLinkOf } from '~/features/notifications/grouping'
import type { Viewer } from '~/platform/auth/capabilities'
import { getDb } from '~/platform/db/client.server'
import { type SearchTerms, searchableKinds } from '~/platform/parts.server'
import { searchMisses } from './schema'
import { MARK_START, MARK_STOP, SEARCH_CAP, type SearchKind, type SearchOrder, SEARCH_TABS, type SearchTab } from './search'

/*
 * The one module that queries for /buscar (decisions/0031), from the branches each feature declares
 * searchable (its `search` part). Every rule of what a member may see is in the SQL, before ranking
 * and counting, so a count reveals nothing either; a search is two statements (the counts per type,
 * the page of the open tab with its snippets) and a third only when nothing was found (the
 * operator's count of searches with no result). Each kind reads at most SEARCH_CAP of its matches
 * (issue 38), so a search costs the same in a community ten or a hundred times larger.
 */

type Kind = SearchKind
const TAB_KINDS: Record<Exclude<SearchTab, 'todo'>, Kind[]> = {
  posts: ['post'],
  comentarios: ['comment', 'session_comment'],
  sesiones: ['session'],
  eventos: ['event'],
  miembros: ['member'],
}
export const SEARCH_PAGE_SIZE = 10
/** Longer is no search anyone types: cut before it reaches the database. */
export const QUERY_MAX = 100

/** Control characters (NUL is refused by PostgreSQL) become spaces; spaces collapse; the text is cut. */
export function cleanQuery(raw: string) {
  return raw
    .slice(0, QUERY_MAX * 4)
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, QUERY_MAX)
    .trim()
}

/** Spanish 'o' (and 'u') between two words is websearch_to_tsquery's 'or'. */
const either = (query: string) => query.replace(/(?<=\S\s+)[ou](?=\s+\S)/gi, 'or')

/** Words only (no quotes, minus signs or 'or'), for the trigram match on names and companies. */
const wordsOf = (query: string) => query.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()

/** What each kind's select gives, in this order. */
const COLUMNS = 'kind, id, title, body, author_id, speaker, at, rank, exact, parent_id'

/**
 * How many of a table's newest rows a kind past the cap looks through for its newest matches
 * (decisions/0031): a word in one row of sixteen fills the cap there, read in date order through
 * the table's date index, however many rows the table has.
 */
export const SEARCH_WINDOW = 16 * SEARCH_CAP

/** A window's table and the condition its feature declared (`from`): the rows whose newest it reads. */
const rowsOf = (table: string, where?: string) => `${table}${where ? ` where ${where}` : ''}`

/**
 * Each kind the features declare (their `search` part): the rows this viewer may see that match,
 * with the same columns, so the kinds stack in one UNION ALL, in the order of the parts. `exact`
 * puts a title equal to the query first; ts_rank's default weights {D 0.1, C 0.2, B 0.4, A 1.0} put
 * the title over the body, and its sum over a word's positions converges (each later one counts
 * less), so repeating a word gains little. A kind with a title is also built as its title matches
 * and its other matches, the two passes in which relevance reads its candidates (`candidates`).
 */
function branches(query: string, viewerId: string, windowRows: number) {
  const tsquery = sql`websearch_to_tsquery('es_unaccent'::regconfig, f_search_text(${either(query)}))`
  const words = wordsOf(query)
  const terms: Omit<SearchTerms, 'byTitle' | 'from'> = {
    tsquery,
    rank: (vector) => sql`ts_rank(${vector}, ${tsquery})`,
    exact: (title) => sql`f_unaccent(${title}) = f_unaccent(${query})`,
    seen: (table) => sql`(${sql.raw(table)}.hidden_at is null or ${sql.raw(table)}.user_id = ${viewerId})`,
    viewerId,
    words,
    folded: sql`f_unaccent(${words})`,
  }
  // The title through its own index (migration 0039); the others by the stored vector's weight A,
  // which is the title, so telling them apart costs no parsing per row. In a window of the newest
  // rows the title is told by weight A too: its index gives no order, and parsing each row's title
  // would cost more than the window saves.
  const inTitle = (title: SQL) => sql`to_tsvector('es_unaccent'::regconfig, f_search_text(${title})) @@ ${tsquery}`
  const titleWeight = (vector: SQL) => sql`ts_filter(${vector}, '{a}') @@ ${tsquery}`
  const notInTitle = (vector: SQL) => sql`not (${titleWeight(vector)})`
  const table = (name: string) => sql.raw(name)
  // The table's newest rows, through its date index: how a kind past the cap finds its newest matches.
  // Counting needs no order among rows of the same time (any of them prove the count), and leaving
  // the id out spares sorting each row after the index (an incremental sort, a third of the time).
  const newestRows =
    (rows: number, byId = true) =>
    (name: string, at: string, where?: string) =>
      sql.raw(`(select * from ${rowsOf(name, where)} order by ${at} desc${byId ? ', id desc' : ''} limit ${rows})`)
  return searchableKinds().flatMap(({ kind, open, branch }) => {
    let titled = false
    let source: { table: string; at: string; where?: string } | null = null
    const select = branch({
      ...terms,
      byTitle: () => ((titled = true), sql`true`),
      from: (name, at, where) => ((source = { table: name, at, where }), table(name)),
    })
    if (!select) return []
    const declared = source as { table: string; at: string; where?: string } | null
    const build = (byTitle: SearchTerms['byTitle'], rows?: number, byId?: boolean) =>
      branch({ ...terms, byTitle, from: rows ? newestRows(rows, byId) : table })!
    const inTitleWeight: SearchTerms['byTitle'] = (_title, vector) => titleWeight(vector)
    return [
      {
        kind: kind as Kind,
        open: open ?? false,
        select,
        byTitle: titled
          ? {
              titles: build(inTitle),
              others: build((_title, vector) => notInTitle(vector)),
            }
          : null,
        // Past the cap (decisions/0031): the same passes over the table's newest `windowRows` rows,
        // and where the boundary of that window is, for the older matches when the window has too few.
        window: declared
          ? {
              boundary: sql.raw(
                `(select ${declared.at}, id::text from ${rowsOf(declared.table, declared.where)} order by ${declared.at} desc, id desc offset ${windowRows - 1} limit 1)`,
              ),
              select: build(() => sql`true`, windowRows),
              titles: titled ? build(inTitleWeight, windowRows) : null,
              others: titled ? build((_title, vector) => notInTitle(vector), windowRows) : null,
              // What the counts read (`counted`): the window, and its newest rows, a sample that says
              // whether the window is worth counting in (`pastCapInWindow`).
              count: build(() => sql`true`, windowRows, false),
              titlesCount: titled ? build(inTitleWeight, windowRows, false) : null,
              probe: build(() => sql`true`, Math.ceil(windowRows / PROBE_SHARE), false),
              titlesProbe: titled ? build(inTitleWeight, Math.ceil(windowRows / PROBE_SHARE), false) : null,
            }
          : null,
      },
    ]
  })
}
type Branch = ReturnType<typeof branches>[number]

export interface SearchInput {
  query: string
  tab: SearchTab
  order: SearchOrder
  page: number
}

export interface SearchHit {
  kind: Kind
  id: string
  /** The post's title for a comment, the session's for its comment; a member's name. */
  title: string
  /** The text around the words found, with its marks (see `snippetParts`). */
  snippet: string
  author: string | null
  avatarUrl: string | null
  at: string
  href: string
}

type Searcher = Pick<Viewer, 'id' | 'hasAccess'>

/**
 * The two statements of a search (its EXPLAIN is checked at scale): the counts per kind, and the
 * open tab's page, which reads the kinds in `pastCap` (more than SEARCH_CAP matches, from the
 * counts) through their newest `windowRows` rows (SEARCH_WINDOW; smaller only in a test, so that
 * a small table has older matches past its window), and their title matches so when `pastCap`
 * names their titles too (`titlesOf(kind)`).
 */
export function searchStatements(
  viewer: Searcher,
  input: SearchInput & { query: string },
  { pastCap = new Set<string>(), windowRows = SEARCH_WINDOW }: { pastCap?: ReadonlySet<string>; windowRows?: number } = {},
) {
  const { query, tab } = input
  const allowed = branches(query, viewer.id, windowRows).filter((branch) => viewer.hasAccess || branch.open)
  const shown = tab === 'todo' ? allowed : allowed.filter((branch) => TAB_KINDS[tab].includes(branch.kind))
  return {
    counts: sql.join(allowed.map(counted), sql` union all `),
    page: shown.length ? pageOf(shown, query, input, pastCap) : null,
  }
}

const TITLES = ' titles'
/** The name in the counts of a kind's title matches. */
export const titlesOf = (kind: Kind) => `${kind}${TITLES}`

/** A select's rows counted up to `limit`: one past the cap by default, 'más de 100' is all a tab says beyond it. */
const countOf = (select: SQL, limit = SEARCH_CAP + 1) =>
  sql`(select count(*)::int from (select 1 from (${select}) as matched limit ${limit}) as capped)`

/**
 * Matches past the cap within a window, found without the search index (decisions/0031): only when
 * its newest rows (PROBE_SHARE) hold half the matches a word that fills the cap there would hold (a
 * rarer word's window would be read whole for nothing), and then counted in the window up to the cap.
 */
const pastCapInWindow = (probe: SQL, inWindow: SQL) =>
  sql`${countOf(probe, PROBE_MATCHES)} = ${PROBE_MATCHES} and ${countOf(inWindow)} > ${SEARCH_CAP}`
/** The window's newest 1/16th, where a word that fills the cap in the window has 6 or 7 matches: half of them let the window be counted. */
const PROBE_SHARE = 16
const PROBE_MATCHES = Math.ceil((SEARCH_CAP + 1) / PROBE_SHARE / 2)
const name = (kind: string) => sql.raw(`'${kind}'::text`)

/** A kind's matches counted one past the cap: 'más de 100' is all a tab says beyond it. */
const capped = (kind: string, select: SQL) => sql`select ${name(kind)} as kind, ${countOf(select)} as n`

/**
 * A kind's count, one past the cap at most, and for a kind with a title its title matches'.
 * A GIN index has only bitmap scans, which list every match before a limit applies, so a kind with
 * a window reads its search index only when its window (the table's newest rows, through the date
 * index) does not already hold more than the cap, and its titles only as 'past the cap or not', which
 * is all the page asks; each part runs only when the one before it leaves the answer open (CASE
 * evaluates its subqueries when reached). Titles past the cap outside the window are read through
 * the title index anyway. A kind without a window counts through its indexes.
 */
function counted({ kind, select, window }: Branch) {
  if (!window) return capped(kind, select)
  const n = sql`case when ${pastCapInWindow(window.probe, window.count)} then ${SEARCH_CAP + 1} else ${countOf(select)} end`
  if (!window.titlesCount || !window.titlesProbe) return sql`select ${name(kind)} as kind, ${n} as n`
  const titles = sql`case when counted.n > ${SEARCH_CAP} and ${pastCapInWindow(window.titlesProbe, window.titlesCount)} then ${SEARCH_CAP + 1} else 0 end`
  // `offset 0` keeps the count one subquery, evaluated once for both rows.
  return sql`select kinds.kind, kinds.n from (select ${n} as n offset 0) as counted
    cross join lateral (values (${name(kind)}, counted.n), (${name(titlesOf(kind))}, ${titles})) as kinds (kind, n)`
}

/** The counts per tab and one page of the open tab's rows, or nothing for an empty query. */
export async function search(viewer: Searcher, input: SearchInput, sizes: { windowRows?: number } = {}) {
  const counts = Object.fromEntries(Object.keys(SEARCH_TABS).map((tab) => [tab, 0])) as Record<SearchTab, number>
  const query = cleanQuery(input.query)
  if (!query) return { query, counts, hits: [] as SearchHit[], pageCount: 1 }
  const db = getDb()
  // The counts first: they tell which kinds are past the cap, whose page reads their newest rows
  // instead of sorting every match (the planner cannot tell; decisions/0031). Still two statements.
  const countRows = await db.execute(searchStatements(viewer, { ...input, query }, sizes).counts)
  const kindCounts = countRows.rows as Array<{ kind: string; n: number }>
  const pastCap = new Set(kindCounts.filter((row) => row.n > SEARCH_CAP).map((row) => row.kind))
  const { page } = searchStatements(viewer, { ...input, query }, { ...sizes, pastCap })
  const hitRows = page ? await db.execute(page) : null
  for (const row of kindCounts) {
    if (row.kind.endsWith(TITLES)) continue
    const tab = (Object.keys(TAB_KINDS) as Array<keyof typeof TAB_KINDS>).find((name) => TAB_KINDS[name].includes(row.kind as Kind))!
    counts[tab] += row.n
    counts.todo += row.n
  }
  // What members look for and do not find, for the operator: the words, never who searched.
  if (counts.todo === 0) {
    await db
      .insert(searchMisses)
      .values({ day: sql`(now() at time zone 'Europe/Madrid')::date`, query: foldForCount(query) })
      .onConflictDoUpdate({ target: [searchMisses.day, searchMisses.query], set: { count: sql`${searchMisses.count} + 1` } })
  }
  const shownCount = input.tab === 'todo' ? counts.todo : counts[input.tab]
  return {
    query,
    // Past the cap a count is only 'more than' (a kind stops counting at SEARCH_CAP + 1).
    counts,
    hits: ((hitRows?.rows ?? []) as unknown as HitRow[]).map(toHit),
    // The pages go as far as the cap: the first hundred results of the open tab.
    pageCount: Math.max(1, Math.ceil(Math.min(shownCount, SEARCH_CAP) / SEARCH_PAGE_SIZE)),
  }
}

interface HitRow {
  kind: Kind
  id: string
  title: string | null
  snippet: string
  author_id: string | null
  speaker: string | null
  at: Date | string
  parent_id: string | null
  display_name: string | null
  first_name: string | null
  last_name: string | null
  avatar_url: string | null
}

/** A branch's rows with the search's column names, newest first, at most `limit` of them. */
const newest = (select: SQL, limit: number) =>
  sql`(select * from (${select}) as matched (${sql.raw(COLUMNS)}) order by at desc, id desc limit ${limit})`

/**
 * Every match of a kind the counts found within the cap, read
 * as a whole before its newest are taken: `offset 0` keeps the outer limit from reaching the plan,
 * which would otherwise read the date index backwards when it overestimates the matches (a word in
 * no comment at ×100, estimated in 15,000: the 3,000,000 comments read, 2.3 s).
 */
const everyMatch = (select: SQL) => sql`${select} offset 0`

/** A branch's matches older than its window, newest first: what a kind past the cap reads after its window. */
const olderThan = (select: SQL, boundary: SQL, limit: number) =>
  sql`(select * from (${select}) as matched (${sql.raw(COLUMNS)}) where (at, id) < ${boundary} order by at desc, id desc limit ${limit})`

/** The newest `limit` matches of a kind past the cap: those in its window, then (only if too few) the older ones. */
const windowed = (inWindow: SQL, older: SQL, boundary: SQL, limit: number) =>
  sql`(select * from (${newest(inWindow, limit)} union all ${olderThan(older, boundary, limit)}) as newest_first limit ${limit})`

/**
 * The rows of a kind that the page orders, never more than SEARCH_CAP however many match
 * (decisions/0031). Newest first: the next `needed` for 'Más recientes' (exact, the page is the
 * newest of them all). For relevance, a kind with a title gives its title matches first (ts_rank
 * puts a word in the title over any number of it in a body) and then its newest other matches; a
 * kind without one, its newest matches. The outer limit runs the second pass only when the titles
 * leave room. A kind past the cap takes each pass's newest matches from the table's newest rows
 * (its window, read through the date index), and reads older matches only when the window has too
 * few: sorting every match by date reads as many rows as match, which grows with the community.
 */
function candidates(branch: Branch, input: SearchInput, needed: number, pastCap: ReadonlySet<string>) {
  const window = pastCap.has(branch.kind) ? branch.window : null
  // Within the cap, every match is read and sorted (at most SEARCH_CAP); past it without a window, the planner chooses.
  const all = (select: SQL) => (pastCap.has(branch.kind) ? select : everyMatch(select))
  const limit = input.order === 'recientes' ? Math.min(needed, SEARCH_CAP) : SEARCH_CAP
  if (input.order === 'recientes' || !branch.byTitle) {
    return window ? windowed(window.select, branch.select, window.boundary, limit) : newest(all(branch.select), limit)
  }
  const { titles, others } = branch.byTitle
  const pass = (every: SQL, inWindow: SQL | null | undefined) =>
    window && inWindow ? windowed(inWindow, every, window.boundary, SEARCH_CAP) : newest(all(every), SEARCH_CAP)
  const titlesInWindow = pastCap.has(titlesOf(branch.kind)) ? window?.titles : null
  return sql`(select * from (${pass(titles, titlesInWindow)} union all ${pass(others, window?.others)}) as titles_first limit ${SEARCH_CAP})`
}

/**
 * One page of the rows, best or newest first; the snippets (ts_headline, the costly part) and the
 * authors only for those rows. Stored HTML is cut to its text before the snippet is taken. The
 * snippet reads the stored text as written, so it marks the query's words as stemmed from the
 * query's own text too ('licitacion' marks 'licitación', see f_search_text in migration 0032).
 */
function pageOf(shown: Branch[], query: string, input: SearchInput, pastCap: ReadonlySet<string>) {
  const order = input.order === 'recientes' ? sql`at desc, id desc` : sql`exact desc, rank desc, at desc, id desc`
  const offset = (input.page - 1) * SEARCH_PAGE_SIZE
  const options = `StartSel=${MARK_START}, StopSel=${MARK_STOP}, MaxWords=28, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`
  return sql`select hits.kind, hits.id, coalesce(hits.title, (select p.title from community_posts p where p.id = hits.parent_id::uuid)) as title, hits.author_id, hits.speaker, hits.at, hits.parent_id,
      case when hits.kind = 'member' then hits.body
        else ts_headline('es_unaccent'::regconfig, regexp_replace(hits.body, '<[^>]*>', ' ', 'g'),
          (websearch_to_tsquery('es_unaccent'::regconfig, f_search_text(${either(query)})) || websearch_to_tsquery('es_unaccent'::regconfig, ${either(query)})), ${options}) end as snippet,
      a.display_name, a.first_name, a.last_name, a.avatar_url
    from (select * from (${sql.join(
      shown.map((branch) => candidates(branch, input, offset + SEARCH_PAGE_SIZE, pastCap)),
      sql` union all `,
    )}) as matched
      order by ${order} limit ${SEARCH_PAGE_SIZE} offset ${offset}) as hits
    left join profiles a on a.user_id = hits.author_id
    order by ${order}`
}

function toHit(row: HitRow): SearchHit {
  const name = row.author_id
    ? displayName({ displayName: row.display_name, firstName: row.first_name, lastName: row.last_name })
    : DELETED_MEMBER
  const base = { kind: row.kind, id: row.id, snippet: row.snippet, avatarUrl: null, at: new Date(row.at).toISOString() }
  switch (row.kind) {
    case 'post':
      return { ...base, title: row.title!, author: name, href: postLinkOf(row.id) }
    case 'comment':
    case 'session_comment': {
      const post = row.kind === 'comment' ? row.parent_id : null
      const session = row.kind === 'session_comment' ? row.parent_id : null
      const href = linkOf(
        { type: row.kind, relatedPostId: post, relatedSessionId: session, relatedEventId: null, relatedCommentId: row.id },
        { exactComment: true },
      )
      return { ...base, title: row.title!, author: name, href: href! }
    }
    case 'session':
      return { ...base, title: row.title!, author: row.speaker, href: `/video/${row.id}` }
    case 'event':
      return { ...base, title: row.title!, author: row.speaker, href: `/comunidad/calendario/${row.id}` }
    case 'member':
      return { ...base, title: name, author: null, avatarUrl: row.avatar_url, href: `/usuario/${row.id}` }
  }
}

/** The text counted for the operator: lower-cased, without accents, one space between words. */
export function foldForCount(query: string) {
  return query.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim()
}

/** The console's list: the searches with no result most often made since `since` (a day). */
export async function frequentMisses(since: string, limit = 50) {
  return getDb()
    .select({ query: searchMisses.query, count: sql<number>`sum(${searchMisses.count})::int` })
    .from(searchMisses)
    .where(sql`${searchMisses.day} >= ${since}`)
    .groupBy(searchMisses.query)
    .orderBy(sql`2 desc`, searchMisses.query)
    .limit(limit)
}
