import { z } from 'zod'
import { recordAudit } from '~/platform/audit/audit.server'
import type { CurrentUser } from '~/platform/auth/guards.server'
import { getDb } from '~/platform/db/client.server'
import { fromWallTime } from '~/platform/dates'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { blankToUndefined, INVALID_CHARS, isCleanText, isSafeHttpUrl } from '~/platform/http/text-fields'
import { discardFailedJobs, retryFailedJobs } from '~/platform/jobs/jobs.server'
import { ANNOUNCEMENT_MAX, REJECTION_TEXT_MAX } from '~/platform/settings/limits'
import { saveSettings, type Settings, WALL_TIME } from '~/platform/settings/settings.server'

/** The console's writes (docs/decisions/0012): jobs retried or discarded, settings saved; each audited. */

const JobIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('retry-job'), jobId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal('discard-job'), jobId: z.coerce.number().int().positive() }),
])

export const JOB_MESSAGES = {
  retryFailed: 'No se pudo reintentar el trabajo',
  discardFailed: 'No se pudo descartar el trabajo',
  gone: 'Ese trabajo ya no está entre los fallidos: otra persona lo ha reintentado o descartado.',
} as const

export function jobsAction(request: Request, admin: CurrentUser) {
  return handleIntent(request, JobIntent, {
    'retry-job': {
      invalid: JOB_MESSAGES.retryFailed,
      async run({ jobId }) {
        // Two admins at once: the first puts it back in the queue, the second is told.
        await getDb().transaction(async (tx) => {
          if (!(await retryFailedJobs([jobId], tx))) refuse(409, JOB_MESSAGES.gone, { detail: { jobId } })
          await recordAudit({ action: 'job_retried', actorUserId: admin.id, details: { jobId } }, tx)
        })
        return success({ jobId }, { title: 'Trabajo en la cola de nuevo' })
      },
    },
    'discard-job': {
      invalid: JOB_MESSAGES.discardFailed,
      async run({ jobId }) {
        await getDb().transaction(async (tx) => {
          const [job] = await discardFailedJobs([jobId], tx)
          if (!job) refuse(409, JOB_MESSAGES.gone, { detail: { jobId } })
          await recordAudit({ action: 'job_discarded', actorUserId: admin.id, details: { jobId, name: job.name } }, tx)
        })
        return success({ jobId }, { title: 'Trabajo descartado' })
      },
    },
  })
}

export const SETTINGS_MESSAGES = {
  invalid: 'Revisa los ajustes marcados',
  saved: 'Ajustes guardados',
  unchanged: 'No había nada que cambiar',
  launchAt: 'Indica una fecha y hora válidas',
  formUrl: 'Indica una dirección web completa (https://…)',
  announcementText: `El aviso tiene un máximo de ${ANNOUNCEMENT_MAX} caracteres, en una línea`,
  announcementUntil: 'Indica hasta qué día se muestra el aviso',
  mode: 'Elige adónde lleva «Solicitar admisión»',
  rejectionText: `Escribe el texto del email de rechazo (máximo ${REJECTION_TEXT_MAX} caracteres)`,
} as const

/** The settings form: every field named as the page names it; an empty announcement means none. */
export const SettingsForm = z
  .object({
    intent: z.literal('save-settings'),
    admissionLaunchAt: z
      .string({ error: SETTINGS_MESSAGES.launchAt })
      .regex(WALL_TIME, { message: SETTINGS_MESSAGES.launchAt, abort: true })
      .refine((value) => fromWallTime(value.slice(0, 16)) !== null, SETTINGS_MESSAGES.launchAt),
    admissionMode: z.enum(['in_app', 'external'], SETTINGS_MESSAGES.mode),
    // A checkbox: present when ticked.
    admissionRequired: z.preprocess(blankToUndefined, z.literal('on', 'Valor no válido para «Admisión obligatoria»').optional()),
    rejectionText: z
      .string({ error: SETTINGS_MESSAGES.rejectionText })
      .trim()
      .min(1, SETTINGS_MESSAGES.rejectionText)
      .max(REJECTION_TEXT_MAX, SETTINGS_MESSAGES.rejectionText)
      .refine((value) => isCleanText(value, { multiline: true }), INVALID_CHARS),
    admissionFormUrl: z
      .string({ error: SETTINGS_MESSAGES.formUrl })
      .trim()
      .max(500, SETTINGS_MESSAGES.formUrl)
      .refine((value) => isSafeHttpUrl(value) && value.startsWith('https://'), SETTINGS_MESSAGES.formUrl),
    announcementText: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .max(ANNOUNCEMENT_MAX, SETTINGS_MESSAGES.announcementText)
        .refine((value) => isCleanText(value), INVALID_CHARS)
        .optional(),
    ),
    announcementUntil: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, { message: SETTINGS_MESSAGES.announcementUntil, abort: true })
        .refine((value) => fromWallTime(`${value}T00:00`) !== null, SETTINGS_MESSAGES.announcementUntil)
        .optional(),
    ),
  })
  .superRefine((form, context) => {
    if (form.announcementText && !form.announcementUntil) {
      context.addIssue({ code: 'custom', path: ['announcementUntil'], message: SETTINGS_MESSAGES.announcementUntil })
    }
  })

export function settingsAction(request: Request, admin: CurrentUser) {
  return handleIntent(request, SettingsForm, {
    'save-settings': {
      invalid: SETTINGS_MESSAGES.invalid,
      failed: 'No se pudieron guardar los ajustes',
      async run(form) {
        const next: Settings = {
          admissionLaunchAt: form.admissionLaunchAt,
          admissionMode: form.admissionMode,
          admissionFormUrl: form.admissionFormUrl,
          admissionRequired: form.admissionRequired === 'on',
          rejectionText: form.rejectionText,
          announcement: form.announcementText ? { text: form.announcementText, until: form.announcementUntil! } : null,
        }
        const changed = await saveSettings(next, admin.id)
        return success({ changed }, { title: changed.length ? SETTINGS_MESSAGES.saved : SETTINGS_MESSAGES.unchanged })
      },
    },
  })
}
