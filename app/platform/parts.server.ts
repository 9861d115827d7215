import type { SQL } from 'drizzle-orm'
import { type JobDefinition, registerJobs } from './jobs/jobs.server'
import { type BusinessGauge, registerGauges } from './metrics/metrics.server'
import { type MemberDataPart, registerMemberData } from './privacy/member-data'
import { registerSettings, type SettingsCard } from './settings/settings.server'

/**
 * What a feature (or a module of the platform) adds to what many share, declared in its own
 * folder (`parts.server.ts`) and collected once by `app/parts.server.ts`, the one module that names
 * them all (decisions/0011). The export, the deletion, the job worker, the settings and the console
 * read what was collected, so a feature added later brings its parts and none is forgotten.
 */
export interface Parts {
  /** What it holds of a member, for the data export and the account deletion (decisions/0028). */
  memberData?: MemberDataPart
  /** Every job it defines: listed here, its module is loaded wherever a worker runs (decisions/0014). */
  jobs?: JobDefinition<never>[]
  /** What start-up runs once the worker runs: each queues the next run of a regular job. */
  schedules?: Array<() => Promise<unknown>>
  /** What the operator changes in /admin/ajustes: one card of the form (decisions/0024). */
  settings?: SettingsCard
  /** Its pages in the console's section nav, between the console's own. */
  console?: ConsoleEntry[]
  /** What of it /buscar finds, in the order the kinds stack (decisions/0031). */
  search?: Searchable[]
  /** Numbers of it an operator watches, read from the database when metrics are scraped (decisions/0036). */
  gauges?: BusinessGauge[]
}

export interface ConsoleEntry {
  path: string
  label: string
  /** Moderators see it too; the rest of the console is for admins. */
  moderators?: boolean
}

/** One kind of result /buscar finds: `kind` is one of the search page's (`features/search/search.ts`). */
export interface Searchable {
  kind: string
  /** A member without premium may find it: what they read in the community today. */
  open?: boolean
  /**
   * The rows this viewer may see that match, with the search's columns in its order (kind, id,
   * title, body, author_id, speaker, at, rank, exact, parent_id) so the kinds stack in one UNION ALL;
   * null when the query gives it nothing to match.
   */
  branch: (terms: SearchTerms) => SQL | null
}

/** What every branch is built from, built once per search by the search module. */
export interface SearchTerms {
  /** The query as `websearch_to_tsquery` reads it. */
  tsquery: SQL
  /** A row's rank against the tsquery, from its weighted vector. */
  rank: (vector: SQL) => SQL
  /** A title equal to the query, accents and case aside: such a row goes first. */
  exact: (title: SQL) => SQL
  /** Not hidden by moderation, or the viewer's own (issue 28): `table` is the row's alias. */
  seen: (table: string) => SQL
  viewerId: string
  /** The query's words only (no quotes, minus signs or 'or'), for trigram matches; '' when none. */
  words: string
  /** Those words without accents, as the trigram columns are folded. */
  folded: SQL
  /**
   * For a kind with a title: `title` its column, searched through its own index on
   * `to_tsvector('es_unaccent', f_search_text(title))`, and `vector` its search vector, holding the
   * title at weight A and nothing else at A. Relevance reads such a kind's title matches first, then
   * its other matches, each pass capped (decisions/0031); when every match is wanted it is `true`.
   * A kind whose branch does not use it is read in one pass, newest first.
   */
  byTitle: (title: SQL, vector: SQL) => SQL
  /**
   * The kind's table in its FROM (`table` its name, `at` the date column the branch gives as `at`,
   * `where` a condition on the table's own columns that every row the branch gives meets, with a
   * btree index on (`where`'s column, `at`, id) or (`at`, id)). A kind of more than SEARCH_CAP
   * matches reads its newest candidates from the table's newest rows through that index, then its
   * older matches (decisions/0031); a kind whose branch does not use it is always read through its
   * search index.
   */
  from: (table: string, at: string, where?: string) => SQL
}

let entries: readonly ConsoleEntry[] = []
let searchables: readonly Searchable[] = []

export function consoleEntries() {
  return entries
}

export function searchableKinds() {
  if (searchables.length === 0) throw new Error('Nothing searchable declared: app/parts.server.ts was not imported')
  return searchables
}

/** Called once, by `app/parts.server.ts`: each kind of part to where it is read, in the order given. */
export function registerParts(parts: readonly Parts[]) {
  registerMemberData(parts.flatMap((part) => (part.memberData ? [part.memberData] : [])))
  registerJobs(
    parts.flatMap((part) => part.jobs ?? []),
    parts.flatMap((part) => part.schedules ?? []),
  )
  registerSettings(parts.flatMap((part) => (part.settings ? [part.settings] : [])))
  entries = parts.flatMap((part) => part.console ?? [])
  searchables = parts.flatMap((part) => part.search ?? [])
  registerGauges(parts.flatMap((part) => part.gauges ?? []))
}
