import { z } from 'zod'
import { DEFAULT_TIME_ZONE, fromWallTime, toWallTime } from '~/platform/dates'
import { blankToUndefined, INVALID_CHARS, isCleanText } from '~/platform/http/text-fields'
import { setting, type SettingsCard, type SettingValues } from '~/platform/settings/settings.server'

/** A single line above the tabs. */
const ANNOUNCEMENT_MAX = 280
const DAY = /^\d{4}-\d{2}-\d{2}$/

const MESSAGES = {
  text: `El aviso tiene un máximo de ${ANNOUNCEMENT_MAX} caracteres, en una línea`,
  until: 'Indica hasta qué día se muestra el aviso',
}

type Announcement = { text: string; until: string } | null

/** What the operator says on the community pages, from /admin/ajustes (decisions/0024). */
export const communitySettings = {
  title: 'Aviso en la comunidad',
  description: 'Una línea encima de las pestañas de la comunidad, hasta el día que indiques. Déjalo vacío para no mostrar ninguno.',
  settings: {
    /** A short line on the community pages until the end of `until` (community's zone), or none. */
    announcement: setting<Announcement>({
      default: null,
      schema: z
        .object({
          text: z
            .string()
            .min(1)
            .max(ANNOUNCEMENT_MAX)
            .refine((value) => isCleanText(value)),
          until: z.string().regex(DAY),
        })
        .nullable(),
      // An empty text means no announcement.
      fields: {
        announcementText: {
          control: { kind: 'text', label: 'Texto del aviso', maxLength: ANNOUNCEMENT_MAX },
          rule: z.preprocess(
            blankToUndefined,
            z
              .string()
              .trim()
              .max(ANNOUNCEMENT_MAX, MESSAGES.text)
              .refine((value) => isCleanText(value), INVALID_CHARS)
              .optional(),
          ),
        },
        announcementUntil: {
          control: { kind: 'date', label: 'Mostrar hasta (incluido)' },
          rule: z.preprocess(
            blankToUndefined,
            z
              .string()
              .regex(DAY, { message: MESSAGES.until, abort: true })
              .refine((value) => fromWallTime(`${value}T00:00`) !== null, MESSAGES.until)
              .optional(),
          ),
        },
      },
      fromForm: (form) =>
        form.announcementText ? { text: form.announcementText as string, until: form.announcementUntil as string } : null,
      toForm: (value) => ({ announcementText: value?.text ?? '', announcementUntil: value?.until ?? '' }),
      refine(form, context) {
        if (form.announcementText && !form.announcementUntil) {
          context.addIssue({ code: 'custom', path: ['announcementUntil'], message: MESSAGES.until })
        }
      },
    }),
  },
} satisfies SettingsCard

/** The announcement's text while it runs (until the end of its last day, in the community's zone), else null. */
export function activeAnnouncement(settings: SettingValues<typeof communitySettings>, now = new Date()) {
  const today = toWallTime(now, DEFAULT_TIME_ZONE).slice(0, 10)
  return settings.announcement && settings.announcement.until >= today ? settings.announcement.text : null
}
