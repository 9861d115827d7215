/**
 * Every date the app shows goes through here (docs/decisions/0015): Spanish words and the
 * community's time zone (Europe/Madrid) unless a time zone is given, so the server's HTML and
 * the browser's render agree whatever zone either runs in.
 *
 * Only the numbers come from `Intl` (the calendar fields in a zone); the words are ours, so two
 * ICU versions (Node's and the browser's) cannot word a date differently and break hydration,
 * and the browser downloads no date library.
 */
export const DEFAULT_TIME_ZONE = 'Europe/Madrid'

type DateInput = Date | string | number

const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre']

const fieldFormats = new Map<string, Intl.DateTimeFormat>()

/** The date's calendar fields as seen in `timeZone`. */
function fieldsIn(date: DateInput, timeZone: string) {
  let format = fieldFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    })
    fieldFormats.set(timeZone, format)
  }
  const field = { year: 0, month: 1, day: 0, hour: 0, minute: 0 }
  for (const part of format.formatToParts(new Date(date))) {
    if (part.type in field) field[part.type as keyof typeof field] = Number(part.value)
  }
  return field
}

const pad = (n: number) => String(n).padStart(2, '0')

const SECOND = { seconds: 1, one: 'segundo', many: 'segundos' }
const UNITS = [
  { seconds: 365 * 86_400, one: 'año', many: 'años' },
  { seconds: 30 * 86_400, one: 'mes', many: 'meses' },
  { seconds: 86_400, one: 'día', many: 'días' },
  { seconds: 3_600, one: 'hora', many: 'horas' },
  { seconds: 60, one: 'minuto', many: 'minutos' },
  SECOND,
]

/** 'hace 5 minutos', 'hace 2 días', 'dentro de 3 horas' (spec: relative times in Spanish). */
export function relativeTime(date: DateInput, now: DateInput = Date.now()) {
  const seconds = Math.round((new Date(now).getTime() - new Date(date).getTime()) / 1000)
  const distance = Math.abs(seconds)
  const unit = UNITS.find((u) => distance >= u.seconds) ?? SECOND
  const count = Math.floor(distance / unit.seconds)
  const words = `${count} ${count === 1 ? unit.one : unit.many}`
  return seconds < 0 ? `dentro de ${words}` : `hace ${words}`
}

/** '23 de noviembre de 2026, 19:00' */
export function fullDateTime(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  const { hour, minute } = fieldsIn(date, timeZone)
  return `${longDate(date, timeZone)}, ${pad(hour)}:${pad(minute)}`
}

/** '23 de noviembre de 2026' ('Miembro desde …'). */
export function longDate(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  const { year, month, day } = fieldsIn(date, timeZone)
  return `${day} de ${MONTHS[month - 1] ?? ''} de ${year}`
}

/** 'noviembre de 2026' */
export function formatMonthYear(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  const { year, month } = fieldsIn(date, timeZone)
  return `${MONTHS[month - 1] ?? ''} de ${year}`
}
