import { z } from 'zod'
import { blankToUndefined, isSafeHttpUrl, optionalText, REQUIRED, requiredText } from '~/platform/http/text-fields'
import { fromWallTime } from '~/platform/dates'
import { EVENT_SHORT_MAX, EVENT_TEXT_MAX, EVENT_TIME_ZONES, EVENT_TITLE_MAX } from './limits'

// Spec 001 §5 'Event edit': title, short description, date and time, type required; max
// attendees an optional integer; the external link a URL. Enforced here, on the server.

const eventId = z.uuid('Evento no válido')

const EventFields = z.object({
  title: requiredText(EVENT_TITLE_MAX),
  description: requiredText(EVENT_SHORT_MAX, { multiline: true }),
  content: optionalText(EVENT_TEXT_MAX, { multiline: true }),
  eventDate: z.string({ error: REQUIRED }).min(1, REQUIRED),
  timeZone: z.enum(Object.keys(EVENT_TIME_ZONES) as [keyof typeof EVENT_TIME_ZONES], 'Zona horaria no válida').default('Europe/Madrid'),
  durationMinutes: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'La duración debe ser un número entero de minutos' })
      .int('La duración debe ser un número entero de minutos')
      .min(5, 'La duración debe ser de al menos 5 minutos')
      .max(7 * 24 * 60, 'La duración no es válida')
      .default(90),
  ),
  location: optionalText(EVENT_SHORT_MAX),
  eventType: z.enum(['presencial', 'virtual', 'hibrido'], 'Elige el tipo de evento'),
  maxAttendees: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'El máximo de asistentes debe ser un número entero' })
      .int('El máximo de asistentes debe ser un número entero')
      .min(1, 'El máximo de asistentes debe ser al menos 1')
      .max(100_000, 'El máximo de asistentes no es válido')
      .optional()
      .transform((value) => value ?? null),
  ),
  externalLink: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(2000, 'El enlace es demasiado largo')
      .refine(isSafeHttpUrl, 'El enlace externo debe ser una URL válida (http o https)')
      .optional()
      .transform((value) => value ?? null),
  ),
})

/** The date is read in the event's own zone, which the form sends beside it. */
function checkDate(values: { eventDate: string; timeZone: string }, ctx: z.RefinementCtx) {
  if (!fromWallTime(values.eventDate, values.timeZone)) ctx.addIssue({ code: 'custom', path: ['eventDate'], message: 'Fecha no válida' })
}

/** Every change to events, one object per intent of the calendar's action. */
export const EventIntent = z.discriminatedUnion('intent', [
  EventFields.extend({ intent: z.literal('create-event') }).superRefine(checkDate),
  EventFields.extend({ intent: z.literal('update-event'), eventId }).superRefine(checkDate),
  z.object({ intent: z.literal('delete-event'), eventId }),
  z.object({ intent: z.literal('toggle-registration'), eventId }),
  z.object({ intent: z.literal('renew-calendar-feed') }),
  z.object({
    intent: z.literal('link-recording'),
    eventId,
    sessionId: z.preprocess(blankToUndefined, z.uuid('Sesión no válida').optional()),
  }),
])

export type EventIntent = z.output<typeof EventIntent>
