import { z } from 'zod'
import { recordAudit } from '~/platform/audit/audit.server'
import type { CurrentUser } from '~/features/account/guards.server'
import { getDb } from '~/platform/db/client.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { discardFailedJobs, retryFailedJobs } from '~/platform/jobs/jobs.server'
import {
  getSettings,
  saveSettings,
  settingsCards,
  settingsForm,
  settingsFromForm,
  settingsToForm,
} from '~/platform/settings/settings.server'

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
} as const

/** The settings form: every setting the features declare, with their fields' own messages. */
export function settingsAction(request: Request, admin: CurrentUser) {
  return handleIntent(request, settingsForm({ intent: z.literal('save-settings') }), {
    'save-settings': {
      invalid: SETTINGS_MESSAGES.invalid,
      failed: 'No se pudieron guardar los ajustes',
      async run(form) {
        const changed = await saveSettings(settingsFromForm(form), admin.id)
        return success({ changed }, { title: changed.length ? SETTINGS_MESSAGES.saved : SETTINGS_MESSAGES.unchanged })
      },
    },
  })
}

/** The settings page: each feature's card with its fields, and what they hold now. */
export async function settingsPage() {
  const cards = settingsCards().map(({ title, description, settings }) => ({
    title,
    description,
    fields: Object.values(settings).flatMap((definition) =>
      Object.entries(definition.fields).map(([name, { control }]) => ({ name, control })),
    ),
  }))
  return { cards, values: settingsToForm(await getSettings()) }
}
