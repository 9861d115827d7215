import { z } from 'zod'
import { fromWallTime } from '~/platform/dates'
import { blankToUndefined, INVALID_CHARS, isCleanText, isSafeHttpUrl } from '~/platform/http/text-fields'
import { setting, type SettingsCard, type SettingValues } from '~/platform/settings/settings.server'
import { site } from '~/site.config'

/** A wall time without zone, as a datetime-local field sends it (with or without seconds). */
const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/

/** The courteous words of a rejection e-mail (its greeting and signature are the e-mail's). */
const REJECTION_TEXT_MAX = 2000

const MESSAGES = {
  launchAt: 'Indica una fecha y hora válidas',
  mode: 'Elige adónde lleva «Solicitar admisión»',
  formUrl: 'Indica una dirección web completa (https://…)',
  required: 'Valor no válido para «Admisión obligatoria»',
  rejectionText: `Escribe el texto del email de rechazo (máximo ${REJECTION_TEXT_MAX} caracteres)`,
}

/** What the operator decides of admission in /admin/ajustes (decisions/0024, 0025). */
export const admissionSettings = {
  title: 'Admisión',
  description: 'La cuenta atrás de la barra de admisión, adónde lleva ‘Solicitar admisión’ y quién puede suscribirse.',
  settings: {
    /** The countdown's date, a wall time without zone: browsers read it in the visitor's time (spec). */
    admissionLaunchAt: setting<string>({
      default: site.admission.launchAt,
      schema: z
        .string()
        .regex(WALL_TIME)
        .refine((value) => !Number.isNaN(Date.parse(value))),
      fields: {
        admissionLaunchAt: {
          // With its seconds (the field steps by one second): saving other settings never moves it.
          control: {
            kind: 'datetime-local',
            label: 'Fecha y hora de la cuenta atrás',
            step: 1,
            hint: 'Cada visitante la ve en su hora local. Cuando pasa, la barra dice ‘Admisión abierta’.',
          },
          rule: z
            .string({ error: MESSAGES.launchAt })
            .regex(WALL_TIME, { message: MESSAGES.launchAt, abort: true })
            .refine((value) => fromWallTime(value.slice(0, 16)) !== null, MESSAGES.launchAt),
        },
      },
    }),
    /** Where every 'Solicitar admisión' leads: the in-app form (/admision) or the external questionnaire (in a new tab, spec). */
    admissionMode: setting<'in_app' | 'external'>({
      default: 'in_app',
      schema: z.enum(['in_app', 'external']),
      fields: {
        admissionMode: {
          control: {
            kind: 'choice',
            label: '‘Solicitar admisión’ lleva a',
            options: {
              in_app: 'El formulario de la comunidad (/admision), con la cola de solicitudes en la consola',
              external: 'Un formulario externo, en una pestaña nueva',
            },
          },
          rule: z.enum(['in_app', 'external'], MESSAGES.mode),
        },
      },
    }),
    /** The external questionnaire, when admissionMode is 'external'. */
    admissionFormUrl: setting<string>({
      default: site.admissionFormUrl,
      schema: z.string().max(500).refine(isSafeHttpUrl),
      fields: {
        admissionFormUrl: {
          control: { kind: 'url', label: 'Formulario externo de admisión', maxLength: 500 },
          rule: z
            .string({ error: MESSAGES.formUrl })
            .trim()
            .max(500, MESSAGES.formUrl)
            .refine((value) => isSafeHttpUrl(value) && value.startsWith('https://'), MESSAGES.formUrl),
        },
      },
    }),
    /** 'Admisión obligatoria': only an approved applicant (or premium granted by an admin) may start a checkout. */
    admissionRequired: setting({
      default: false,
      schema: z.boolean(),
      fields: {
        admissionRequired: {
          control: {
            kind: 'checkbox',
            label: 'Admisión obligatoria',
            description: 'solo quien tenga su solicitud aprobada (o el premium concedido por un admin) puede suscribirse.',
          },
          // A checkbox: present when ticked.
          rule: z.preprocess(blankToUndefined, z.literal('on', MESSAGES.required).optional()).transform((value) => value === 'on'),
        },
      },
    }),
    /** The rejection e-mail's words. */
    rejectionText: setting({
      default:
        'Gracias por tu interés y por el tiempo que dedicaste a tu solicitud. Hemos revisado tu perfil con atención y, por ahora, no podemos ofrecerte una plaza en la comunidad. Esta decisión no es un juicio sobre tu trayectoria: cada convocatoria buscamos un equilibrio de perfiles y experiencia. Podrás volver a solicitarlo más adelante.',
      schema: z
        .string()
        .min(1)
        .max(REJECTION_TEXT_MAX)
        .refine((value) => isCleanText(value, { multiline: true })),
      fields: {
        rejectionText: {
          control: { kind: 'textarea', label: 'Texto del email de rechazo', rows: 5, maxLength: REJECTION_TEXT_MAX },
          rule: z
            .string({ error: MESSAGES.rejectionText })
            .trim()
            .min(1, MESSAGES.rejectionText)
            .max(REJECTION_TEXT_MAX, MESSAGES.rejectionText)
            .refine((value) => isCleanText(value, { multiline: true }), INVALID_CHARS),
        },
      },
    }),
  },
} satisfies SettingsCard

/** Where 'Solicitar admisión' leads and whether it opens a new tab. */
export function admissionLink(settings: SettingValues<typeof admissionSettings>) {
  return settings.admissionMode === 'external'
    ? { href: settings.admissionFormUrl, external: true }
    : { href: '/admision', external: false }
}
