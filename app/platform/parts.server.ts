import { type JobDefinition, registerJobs } from './jobs/jobs.server'
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
}

export interface ConsoleEntry {
  path: string
  label: string
  /** Moderators see it too; the rest of the console is for admins. */
  moderators?: boolean
}

let entries: readonly ConsoleEntry[] = []

export function consoleEntries() {
  return entries
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
}
