import { z } from 'zod'
import { CHANNEL_LABELS, DIGEST_LABELS, TOPICS } from './preferences'

const channel = z.enum(Object.keys(CHANNEL_LABELS) as ['web', 'email', 'push', 'all', 'off'], 'Elige una opción para cada tema')

/** 'HH:MM' of a time field, as minutes after midnight. */
const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Escribe una hora válida')
  .transform((value) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5)))

function isTimeZone(value: string) {
  try {
    new Intl.DateTimeFormat('es', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** The /perfil form 'Notificaciones': one choice per topic, the digest, and the browser's zone. */
export const PreferencesSchema = z.object({
  intent: z.literal('preferences'),
  ...(Object.fromEntries(TOPICS.map((topic) => [topic.key, 'only' in topic ? channel.optional() : channel])) as Record<
    (typeof TOPICS)[number]['key'],
    typeof channel
  >),
  digest: z.enum(Object.keys(DIGEST_LABELS) as ['never', 'daily', 'weekly'], 'Elige la frecuencia del resumen'),
  // Quiet hours (issue 42): a browser without the fields keeps the ones saved.
  quietStart: clockTime.optional(),
  quietEnd: clockTime.optional(),
  // Sent by the page's script; a browser without it keeps the zone already known.
  timeZone: z.string().max(64).refine(isTimeZone, 'Zona horaria no válida').optional(),
})
