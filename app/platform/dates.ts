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

/** The date's calendar fields in `timeZone`, as Intl reads them (the slow part: see below). */
function intlFieldsIn(date: Date, timeZone: string) {
  let format = fieldFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
    fieldFormats.set(timeZone, format)
  }
  const field = { year: 0, month: 1, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of format.formatToParts(date)) {
    if (part.type in field) field[part.type as keyof typeof field] = Number(part.value)
  }
  return field
}

// A zone's offset from UTC changes only on a quarter hour: it is asked of Intl once per zone and
// quarter hour, and the fields are then plain arithmetic (a page of 20 posts formats about a
// hundred dates, and formatToParts was a measurable part of rendering it).
const QUARTER_HOUR_MS = 15 * 60_000
const offsets = new Map<string, number>()

function offsetMs(instant: number, timeZone: string) {
  const slot = Math.floor(instant / QUARTER_HOUR_MS) * QUARTER_HOUR_MS
  const key = `${timeZone} ${slot}`
  let offset = offsets.get(key)
  if (offset === undefined) {
    const f = intlFieldsIn(new Date(slot), timeZone)
    offset = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - slot
    if (offsets.size > 100_000) offsets.clear()
    offsets.set(key, offset)
  }
  return offset
}

/** The date's calendar fields as seen in `timeZone`. */
function fieldsIn(date: DateInput, timeZone: string) {
  const instant = new Date(date).getTime()
  const local = new Date(instant + offsetMs(instant, timeZone))
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  }
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

/** '12 de enero': a date within the coming year ('Tu membresía termina el …'). */
export function dayAndMonth(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  const { month, day } = fieldsIn(date, timeZone)
  return `${day} de ${MONTHS[month - 1] ?? ''}`
}

/** 'noviembre de 2026' */
export function formatMonthYear(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  const { year, month } = fieldsIn(date, timeZone)
  return `${MONTHS[month - 1] ?? ''} de ${year}`
}

/**
 * The instant a wall-clock time ('2026-11-23T19:00', as a datetime-local field sends it) names in
 * `timeZone`, or null when it is not a real date. A time skipped by a change to summer time
 * moves forward by the gap, as clocks do.
 */
export function fromWallTime(value: string, timeZone = DEFAULT_TIME_ZONE) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value)
  if (!match) return null
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  const asUtc = Date.UTC(year, month - 1, day, hour, minute)
  const check = new Date(asUtc)
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null
  // The zone's offset at that instant, found twice: the first guess may sit across a change.
  const offsetAt = (instant: number) => wallClockAsUtc(instant, timeZone) - instant
  const first = asUtc - offsetAt(asUtc)
  return new Date(asUtc - offsetAt(first))
}

/** A calendar day ('YYYY-MM-DD') plus `days`. */
export function addDays(day: string, days: number) {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/**
 * A filter's 'Desde' and 'Hasta' days ('' for none) as the instants they bound in the community's
 * zone: from the start of the first day to the start of the day after the last, so 'Hasta'
 * includes its day (a day of 23 or 25 hours too).
 */
export function dayRange(from: string, to: string) {
  return { from: from ? fromWallTime(`${from}T00:00`) : null, to: to ? fromWallTime(`${addDays(to, 1)}T00:00`) : null }
}

/**
 * The date's wall-clock time in `timeZone`, written as if it were a UTC instant (milliseconds):
 * the difference from the instant itself is the zone's offset then.
 */
export function wallClockAsUtc(date: DateInput, timeZone: string) {
  const f = fieldsIn(date, timeZone)
  return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second)
}

/** The value a datetime-local field shows for `date` in `timeZone` ('2026-11-23T19:00'). */
export function toWallTime(date: DateInput, timeZone = DEFAULT_TIME_ZONE) {
  const { year, month, day, hour, minute } = fieldsIn(date, timeZone)
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`
}
