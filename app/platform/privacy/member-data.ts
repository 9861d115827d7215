import type { SQL } from 'drizzle-orm'
import type { DbExecutor } from '~/platform/db/client.server'

/**
 * What the app holds of a member, declared by each feature in its own folder
 * (`features/<feature>/member-data.server.ts`, referred to by its `parts.server.ts`) and collected once in `app/parts.server.ts`:
 * the data export (GDPR articles 15 and 20) and the account deletion (article 17) read these
 * declarations instead of reaching into every feature's tables by name, so a feature added later
 * brings its own (decisions/0028).
 */

/** What happens to their posts and comments: kept under 'Miembro eliminado' (the default) or deleted. */
export type Writing = 'keep' | 'delete'

export interface ErasedMember {
  id: string
  /** Lower-cased. */
  email: string
  writing: Writing
}

/** Stored files to change once the deletion has committed (a job, retried). */
export interface FileChanges {
  remove?: string[]
  /** Files that stay, moved to a key that does not carry the member's id. */
  move?: Array<{ from: string; to: string }>
}

export interface MemberDataPart {
  /**
   * Every table of the feature with a column naming a member: the section of mis-datos.json it goes
   * to, or why it does not (data-export.test.ts checks the database's own list against these).
   */
  tables: Record<string, { section: string } | { not: string }>
  /**
   * Sections of mis-datos.json: the member's rows with explicit columns. What they wrote, what was
   * decided about them and why, what they did; never another person's id, name or e-mail.
   */
  sections?: Record<string, (userId: string) => SQL>
  /** Their stored files for the ZIP: rows of `key` and `name` (the name it gets in archivos/). */
  files?: (userId: string) => SQL
  /**
   * Inside the deletion's transaction, before the account row goes (every column naming them by
   * foreign key then cascades or lets go): what names them otherwise (texts, payloads, counters they
   * moved). Work outside the database is queued here with `enqueue(job, payload, { executor: tx })`,
   * so it exists only if the deletion commits; stored files are returned.
   */
  erase?: (tx: DbExecutor, member: ErasedMember) => Promise<FileChanges | void>
}

let registered: readonly MemberDataPart[] = []

/** Called once, by `registerParts` (platform/parts.server.ts). */
export function registerMemberData(parts: readonly MemberDataPart[]) {
  registered = parts
}

export function memberDataParts() {
  if (registered.length === 0) throw new Error('No member data declared: app/parts.server.ts was not imported')
  return registered
}

/** Every table naming a member, from every part. */
export function memberTables() {
  return Object.assign({}, ...memberDataParts().map((part) => part.tables)) as MemberDataPart['tables']
}
