import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { getDb, getDatabase } from '~/platform/db/client.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { isCleanText, isSafeHttpUrl } from '~/platform/http/text-fields'
import { DEFAULT_TIME_ZONE, toWallTime } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { site } from '~/site.config'
import { appSettings } from './schema'

/**
 * What the operator changes in /admin/ajustes without a deploy. Deploy configuration (secrets,
 * providers, the operator's legal details) stays in the environment and app/site.config.ts; the
 * defaults below come from there, so a new install behaves as the spec says until an admin saves.
 */
export const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/
const DAY = /^\d{4}-\d{2}-\d{2}$/

import { ANNOUNCEMENT_MAX, DEFAULT_REJECTION_TEXT, REJECTION_TEXT_MAX } from './limits'

export const SettingsSchema = z.object({
  /** The admission countdown's date, a wall time without zone: browsers read it in the visitor's time (spec). */
  admissionLaunchAt: z
    .string()
    .regex(WALL_TIME)
    .refine((value) => !Number.isNaN(Date.parse(value))),
  /** Where every 'Solicitar admisión' leads: the in-app form (/admision) or the external questionnaire (in a new tab, spec). */
  admissionMode: z.enum(['in_app', 'external']),
  /** The external questionnaire, when admissionMode is 'external'. */
  admissionFormUrl: z.string().max(500).refine(isSafeHttpUrl),
  /** 'Admisión obligatoria': only an approved applicant (or premium granted by an admin) may start a checkout. */
  admissionRequired: z.boolean(),
  /** The rejection e-mail's words. */
  rejectionText: z
    .string()
    .min(1)
    .max(REJECTION_TEXT_MAX)
    .refine((value) => isCleanText(value, { multiline: true })),
  /** A short line on the community pages until the end of `until` (community's zone), or none. */
  announcement: z
    .object({
      text: z
        .string()
        .min(1)
        .max(ANNOUNCEMENT_MAX)
        .refine((value) => isCleanText(value)),
      until: z.string().regex(DAY),
    })
    .nullable(),
})

export type Settings = z.infer<typeof SettingsSchema>
type Key = keyof Settings

export const DEFAULT_SETTINGS: Settings = {
  admissionLaunchAt: site.admission.launchAt,
  admissionMode: 'in_app',
  admissionFormUrl: site.admissionFormUrl,
  admissionRequired: false,
  rejectionText: DEFAULT_REJECTION_TEXT,
  announcement: null,
}

/**
 * Every process keeps the settings once read; a change notifies 'settings_changed' in its own
 * transaction (trigger of migration 0016) and every process reads them again. The time to live
 * bounds a notification missed while a LISTEN connection was re-established. Off until
 * `startSettings()` listens: without the notifications nothing may be kept.
 */
const TIME_TO_LIVE_MS = 60_000
let kept: { value: Settings; until: number } | undefined
let stopListening: (() => Promise<void>) | undefined

export async function startSettings() {
  stopListening = await getDatabase().listen('settings_changed', () => {
    kept = undefined
  })
}

export async function stopSettings() {
  await stopListening?.()
  stopListening = undefined
  kept = undefined
}

export async function getSettings(): Promise<Settings> {
  if (kept && kept.until > Date.now()) return kept.value
  const rows = await getDb().select({ key: appSettings.key, value: appSettings.value }).from(appSettings)
  const value = { ...DEFAULT_SETTINGS }
  for (const { key, value: stored } of rows) {
    if (!Object.hasOwn(SettingsSchema.shape, key)) continue
    const parsed = SettingsSchema.shape[key as Key].safeParse(stored)
    // A value that no longer passes (a rule tightened since it was saved) falls back to its default.
    if (parsed.success) Object.assign(value, { [key]: parsed.data })
    else logger.warn({ key }, 'Stored setting is not valid; its default applies')
  }
  if (stopListening) kept = { value, until: Date.now() + TIME_TO_LIVE_MS }
  return value
}

/** Saves what changed, with one audit line naming each change, in one transaction. Returns the keys changed. */
export async function saveSettings(next: Settings, actorUserId: string) {
  const current = await getSettings()
  const changed = (Object.keys(SettingsSchema.shape) as Key[]).filter((key) => JSON.stringify(current[key]) !== JSON.stringify(next[key]))
  if (changed.length === 0) return changed
  await getDb().transaction(async (tx) => {
    for (const key of changed) {
      // A setting back at its default (no announcement) has no row: the default applies.
      if (JSON.stringify(next[key]) === JSON.stringify(DEFAULT_SETTINGS[key])) {
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
  kept = undefined
  return changed
}

/** Where 'Solicitar admisión' leads and whether it opens a new tab. */
export function admissionLink(settings: Settings) {
  return settings.admissionMode === 'external'
    ? { href: settings.admissionFormUrl, external: true }
    : { href: '/admision', external: false }
}

/** The announcement's text while it runs (until the end of its last day, in the community's zone), else null. */
export function activeAnnouncement(settings: Settings, now = new Date()) {
  const today = toWallTime(now, DEFAULT_TIME_ZONE).slice(0, 10)
  return settings.announcement && settings.announcement.until >= today ? settings.announcement.text : null
}
