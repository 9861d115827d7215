import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { getDb, getDatabase } from '~/platform/db/client.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { logger } from '~/platform/logger.server'
import { appSettings } from './schema'

/**
 * What the operator changes in /admin/ajustes without a deploy. Each feature declares its own
 * settings in its parts (a card of the console's form, decisions/0024); this module keeps them in
 * app_settings, audits every change and lets every process keep them until one changes, without
 * knowing what any of them is. Deploy configuration (secrets, providers, the operator's legal
 * details) stays in the environment and app/site.config.ts, where defaults may come from, so a
 * new install behaves as the spec says until an admin saves.
 */

/** How the console's form shows a field (the server checks it with the field's rule). */
export type SettingControl =
  | { kind: 'text' | 'url' | 'date' | 'datetime-local'; label: string; maxLength?: number; step?: number; hint?: string }
  | { kind: 'textarea'; label: string; rows: number; maxLength: number }
  | { kind: 'choice'; label: string; options: Record<string, string> }
  | { kind: 'checkbox'; label: string; description: string }

type FormValues = Record<string, unknown>

export interface Setting<T> {
  default: T
  /** What a stored value must pass: one that no longer does (a rule tightened since it was saved) falls back to the default. */
  schema: z.ZodType<T>
  /**
   * Its fields in the console's form, by name, each with its rule (the Spanish message of a bad
   * value). Usually one, named as the setting, whose rule gives the value (a ticked checkbox: true).
   */
  fields: Record<string, { control: SettingControl; rule: z.ZodType }>
  /** The value from its fields once they passed, for a setting edited by several. */
  fromForm?: (form: FormValues) => T
  /** Its fields as the form shows them, for a setting edited by several. */
  toForm?: (value: T) => Record<string, string>
  /** A rule across its fields. */
  refine?: (form: FormValues, context: z.RefinementCtx) => void
}

/** Types one setting's declaration: its default, rule and form fields agree on its value. */
export const setting = <T>(definition: Setting<T>) => definition

// Each setting has its own value type.
type AnySetting = Setting<any>

/** A feature's settings: one card of the console's form, in the order the parts are collected. */
export interface SettingsCard<S extends Record<string, AnySetting> = Record<string, AnySetting>> {
  title: string
  description: string
  settings: S
}

type ValuesOf<S> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never }
export type SettingValues<C extends SettingsCard> = ValuesOf<C['settings']>

let cards: readonly SettingsCard[] = []
let declared = new Map<string, Setting<unknown>>()

/** Called once, by the collected parts (app/parts.server.ts). */
export function registerSettings(list: readonly SettingsCard[]) {
  const entries = list.flatMap((card) => Object.entries(card.settings) as Array<[string, Setting<unknown>]>)
  declared = new Map(entries)
  if (declared.size !== entries.length) throw new Error('A setting is declared twice')
  cards = list
}

/** The console's form: every feature's card. */
export function settingsCards() {
  return cards
}

/**
 * Every process keeps the settings once read; a change notifies 'settings_changed' in its own
 * transaction (trigger of migration 0016) and every process reads them again. The time to live
 * bounds a notification missed while a LISTEN connection was re-established. Off until
 * `startSettings()` listens: without the notifications nothing may be kept.
 */
const TIME_TO_LIVE_MS = 60_000
let kept: { value: Record<string, unknown>; until: number } | undefined
let stopListening: (() => Promise<void>) | undefined

export async function startSettings() {
  stopListening = await getDatabase().listen('settings_changed', forget)
}

export async function stopSettings() {
  await stopListening?.()
  stopListening = undefined
  forget()
}

/** After a change: the next caller reads again, and a read begun before it keeps nothing. */
function forget() {
  kept = undefined
  reading = undefined
  generation++
}

/** Every declared setting's value, by key. */
export async function getSettings(): Promise<Record<string, unknown>> {
  if (kept && kept.until > Date.now()) return kept.value
  // A page's loaders ask at once: one read serves them all.
  const read = (reading ??= readStored().finally(() => {
    if (reading === read) reading = undefined
  }))
  return read
}
let reading: Promise<Record<string, unknown>> | undefined
let generation = 0

async function readStored() {
  const readFor = generation
  if (declared.size === 0) throw new Error('No settings declared: app/parts.server.ts was not imported')
  const rows = await getDb().select({ key: appSettings.key, value: appSettings.value }).from(appSettings)
  const value = Object.fromEntries([...declared].map(([key, definition]) => [key, definition.default]))
  for (const { key, value: stored } of rows) {
    const parsed = declared.get(key)?.schema.safeParse(stored)
    // A value that no longer passes (a rule tightened since it was saved) falls back to its default.
    if (parsed?.success) value[key] = parsed.data
    else if (parsed) logger.warn({ key }, 'Stored setting is not valid; its default applies')
  }
  if (stopListening && readFor === generation) kept = { value, until: Date.now() + TIME_TO_LIVE_MS }
  return value
}

/** A feature's settings, typed as it declared them. */
export async function readSettings<S extends Record<string, AnySetting>>(card: SettingsCard<S>) {
  const all = await getSettings()
  return Object.fromEntries(Object.keys(card.settings).map((key) => [key, all[key]])) as ValuesOf<S>
}

/** A feature's settings as a new install has them (what a page shows when they cannot be read). */
export function settingDefaults<S extends Record<string, AnySetting>>(card: SettingsCard<S>) {
  return Object.fromEntries(Object.entries(card.settings).map(([key, definition]) => [key, definition.default])) as ValuesOf<S>
}

/** Saves what changed, with one audit line naming each change, in one transaction. Returns the keys changed. */
export async function saveSettings(next: Record<string, unknown>, actorUserId: string) {
  const current = await getSettings()
  const changed = [...declared.keys()].filter((key) => JSON.stringify(current[key]) !== JSON.stringify(next[key]))
  if (changed.length === 0) return changed
  await getDb().transaction(async (tx) => {
    for (const key of changed) {
      // A setting back at its default (no announcement) has no row: the default applies.
      if (JSON.stringify(next[key]) === JSON.stringify(declared.get(key)!.default)) {
        await tx.delete(appSettings).where(eq(appSettings.key, key))
        continue
      }
      await tx
        .insert(appSettings)
        .values({ key, value: next[key], updatedBy: actorUserId })
        .onConflictDoUpdate({ target: appSettings.key, set: { value: next[key], updatedBy: actorUserId, updatedAt: new Date() } })
    }
    await recordAudit(
      {
        action: 'settings_changed',
        actorUserId,
        details: Object.fromEntries(changed.map((key) => [key, { before: current[key], after: next[key] }])),
      },
      tx,
    )
  })
  forget()
  return changed
}

/**
 * The console's form of every declared setting: its fields' rules and the rules across them, with
 * `extra` (the intent) beside them; what passes becomes the settings with `settingsFromForm`.
 */
export function settingsForm<E extends z.ZodRawShape>(extra: E) {
  const settings = [...declared.values()]
  const fields = Object.fromEntries(
    settings.flatMap((definition) => Object.entries(definition.fields).map(([name, field]) => [name, field.rule])),
  )
  const form = z.object({ ...extra, ...fields }).superRefine((values, context) => {
    for (const definition of settings) definition.refine?.(values, context)
  })
  // The fields are known only once the parts are collected: typed as what `extra` gives and the rest.
  return form as unknown as z.ZodType<z.output<z.ZodObject<E>> & FormValues>
}

export function settingsFromForm(form: FormValues) {
  return Object.fromEntries([...declared].map(([key, definition]) => [key, definition.fromForm ? definition.fromForm(form) : form[key]]))
}

/** What each field of the form shows for the settings' values (a ticked checkbox sends 'on'). */
export function settingsToForm(values: Record<string, unknown>) {
  return Object.fromEntries(
    [...declared].flatMap(([key, definition]) => {
      if (definition.toForm) return Object.entries(definition.toForm(values[key]))
      const checkbox = definition.fields[key]?.control.kind === 'checkbox'
      return [[key, checkbox ? (values[key] ? 'on' : '') : String(values[key])]]
    }),
  ) as Record<string, string>
}
