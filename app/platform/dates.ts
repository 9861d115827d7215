import { tz } from '@date-fns/tz'
import { format, formatDistanceToNowStrict } from 'date-fns'
import { es } from 'date-fns/locale/es'

/**
 * Every date the app shows goes through here (docs/decisions/0015): Spanish words, weeks from
 * Monday, and the community's time zone (Europe/Madrid) unless a time zone is given, so the
 * server's HTML and the browser's render agree whatever zone either runs in.
 */
export const DEFAULT_TIME_ZONE = 'Europe/Madrid'

type DateInput = Date | string | number

const options = (timeZone: string) => ({ locale: es, weekStartsOn: 1 as const, in: tz(timeZone) })

/** 'hace 5 minutos', 'hace 2 días' (spec: relative times in Spanish). */
export function relativeTime(date: DateInput) {
  return formatDistanceToNowStrict(new Date(date), { locale: es, addSuffix: true })
}

/** '23 de noviembre de 2026, 19:00' */
export function fullDateTime(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  return format(new Date(date), "d 'de' MMMM 'de' yyyy, HH:mm", options(timeZone))
}

/** '23 de noviembre de 2026' ('Miembro desde …'). */
export function longDate(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  return format(new Date(date), "d 'de' MMMM 'de' yyyy", options(timeZone))
}

/** 'noviembre de 2026' */
export function formatMonthYear(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  return format(new Date(date), "MMMM 'de' yyyy", options(timeZone))
}
