import { formatDistanceToNowStrict } from 'date-fns'
import { es } from 'date-fns/locale/es'

/** Spec: relative times in Spanish, 'hace X'. */
export function relativeTime(date: Date | string) {
  return formatDistanceToNowStrict(new Date(date), { locale: es, addSuffix: true })
}

const fullDate = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Madrid' })

export function fullDateTime(date: Date | string) {
  return fullDate.format(new Date(date))
}
