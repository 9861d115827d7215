// Wall-clock times come from Intl's tz database (platform/dates.ts), never the server's zone:
// a server in UTC must still write 19:00 for Madrid.
import { wallClockAsUtc } from '~/platform/dates'

/**
 * iCalendar (RFC 5545) files for the community's events: one event to add to a calendar
 * ("Añadir a mi calendario") and a feed to subscribe to. No library: the format is small, and
 * the parts that calendar apps get wrong (escaping, folding, time zones) are tested here.
 *
 * Times are written as wall-clock times in the event's zone plus a VTIMEZONE describing that
 * zone, so a calendar shows "19:00 Madrid" and follows the zone's changes, rather than a UTC
 * instant that some apps show in the viewer's zone without saying which zone the event is in.
 */

export interface CalendarEvent {
  id: string
  title: string
  description: string
  location: string | null
  start: Date
  durationMinutes: number
  timeZone: string
  url: string
  updatedAt: Date
  cancelled?: boolean
}

interface Onset {
  month: number
  /** 1 to 4: the nth Sunday of the month; -1: the last Sunday. */
  week: number
  /** Minutes after midnight, in the offset in force just before the change (RFC 5545 §3.6.5). */
  localTime: number
}

interface ZoneRules {
  standard: { name: string; offset: number }
  daylight?: { name: string; offset: number; starts: Onset; ends: Onset }
}

/** The EU's summer time, last Sunday of March to last Sunday of October, starting at `localHour`. */
const euSummerTime = (localHour: number) => ({
  starts: { month: 3, week: -1, localTime: localHour * 60 },
  ends: { month: 10, week: -1, localTime: (localHour + 1) * 60 },
})

/**
 * The rules in force now, offsets in minutes east of UTC. Names are the tz database's: where it
 * has no letters for a zone (Bogotá, Lima, Buenos Aires) it writes the offset, and so do we,
 * rather than invent abbreviations an app might show.
 */
const ZONES: Record<string, ZoneRules> = {
  'Europe/Madrid': { standard: { name: 'CET', offset: 60 }, daylight: { name: 'CEST', offset: 120, ...euSummerTime(2) } },
  // The EU changes at 01:00 UTC everywhere: 01:00 local in the WET zones.
  'Atlantic/Canary': { standard: { name: 'WET', offset: 0 }, daylight: { name: 'WEST', offset: 60, ...euSummerTime(1) } },
  'Europe/Lisbon': { standard: { name: 'WET', offset: 0 }, daylight: { name: 'WEST', offset: 60, ...euSummerTime(1) } },
  // Mexico abolished daylight saving time in October 2022.
  'America/Mexico_City': { standard: { name: 'CST', offset: -360 } },
  'America/Bogota': { standard: { name: '-05', offset: -300 } },
  'America/Lima': { standard: { name: '-05', offset: -300 } },
  'America/Argentina/Buenos_Aires': { standard: { name: '-03', offset: -180 } },
  'America/New_York': {
    standard: { name: 'EST', offset: -300 },
    daylight: {
      name: 'EDT',
      offset: -240,
      starts: { month: 3, week: 2, localTime: 120 },
      ends: { month: 11, week: 1, localTime: 120 },
    },
  },
}

export const SUPPORTED_TIME_ZONES: readonly string[] = Object.freeze(Object.keys(ZONES))

const PRODUCT_ID = '-//Círculo CEO//Comunidad//ES'
const MINUTE = 60_000

/** One VEVENT, to download and add to a calendar. */
export function eventIcs(event: CalendarEvent, options: { host: string; now?: Date }): string {
  const now = options.now ?? new Date()
  return calendar([], [event], options.host, now)
}

/** A calendar to subscribe to: apps fetch it again every hour to see new, changed and cancelled events. */
export function feedIcs(events: CalendarEvent[], options: { host: string; name: string; now?: Date }): string {
  const now = options.now ?? new Date()
  const properties = [
    `NAME:${escapeText(options.name)}`,
    // Google Calendar and Apple Calendar read the older X- names; RFC 7986 apps the others.
    `X-WR-CALNAME:${escapeText(options.name)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ]
  return calendar(properties, events, options.host, now)
}

function calendar(properties: string[], events: CalendarEvent[], host: string, now: Date): string {
  // Checked before writing anything, so a bad event fails the whole file instead of leaving it half written.
  for (const event of events) rulesFor(event.timeZone)
  const zones = [...new Set(events.map((event) => event.timeZone))]
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(PRODUCT_ID)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...properties,
    ...zones.flatMap(timeZoneComponent),
    ...events.flatMap((event) => eventComponent(event, host, now)),
    'END:VCALENDAR',
  ]
  return lines.map((line) => `${fold(line)}\r\n`).join('')
}

function eventComponent(event: CalendarEvent, host: string, now: Date): string[] {
  const start = instant(event.start, 'start')
  if (!Number.isFinite(event.durationMinutes) || event.durationMinutes < 0) {
    throw new Error(`Invalid event duration: ${event.durationMinutes}`)
  }
  const end = wholeSeconds(start + event.durationMinutes * MINUTE)
  const location = event.location?.trim()
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(`${event.id}@${host}`)}`,
    `DTSTAMP:${utcDateTime(instant(now, 'now'))}`,
    dateTimeProperty('DTSTART', start, event.timeZone),
    // RFC 5545 wants DTEND later than DTSTART; without one an event lasts no time at all.
    ...(end > start ? [dateTimeProperty('DTEND', end, event.timeZone)] : []),
    `SUMMARY:${escapeText(event.title)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(location ? [`LOCATION:${escapeText(location)}`] : []),
    `URL:${uri(event.url)}`,
    `LAST-MODIFIED:${utcDateTime(instant(event.updatedAt, 'updatedAt'))}`,
    // SEQUENCE orders the revisions of an iTIP invitation; a published calendar is not one: apps
    // replace an event by UID with the copy they fetched last.
    'SEQUENCE:0',
    `STATUS:${event.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
  ]
}

function timeZoneComponent(timeZone: string): string[] {
  const { standard, daylight } = rulesFor(timeZone)
  if (!daylight) {
    return [
      'BEGIN:VTIMEZONE',
      `TZID:${timeZone}`,
      ...observance('STANDARD', '19700101T000000', standard.offset, standard.offset, standard.name),
      'END:VTIMEZONE',
    ]
  }
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${timeZone}`,
    ...observance('DAYLIGHT', onsetIn1970(daylight.starts), standard.offset, daylight.offset, daylight.name, daylight.starts),
    ...observance('STANDARD', onsetIn1970(daylight.ends), daylight.offset, standard.offset, standard.name, daylight.ends),
    'END:VTIMEZONE',
  ]
}

function observance(kind: string, start: string, from: number, to: number, name: string, onset?: Onset): string[] {
  return [
    `BEGIN:${kind}`,
    `DTSTART:${start}`,
    `TZOFFSETFROM:${utcOffset(from)}`,
    `TZOFFSETTO:${utcOffset(to)}`,
    ...(onset ? [`RRULE:FREQ=YEARLY;BYMONTH=${onset.month};BYDAY=${onset.week}SU`] : []),
    `TZNAME:${escapeText(name)}`,
    `END:${kind}`,
  ]
}

/** The rule's DTSTART must itself be one of its occurrences (RFC 5545 §3.8.5.3), hence computed, not typed. */
function onsetIn1970(onset: Onset): string {
  return basicDateTime(Date.UTC(1970, onset.month - 1, sundayOf(1970, onset)) + onset.localTime * MINUTE)
}

function rulesFor(timeZone: string): ZoneRules {
  const rules = Object.hasOwn(ZONES, timeZone) ? ZONES[timeZone] : undefined
  if (!rules) throw new Error(`Unsupported time zone for iCalendar: ${timeZone}`)
  return rules
}

/**
 * A wall-clock time in the event's zone when an app reading our VTIMEZONE will turn it back
 * into the same instant; otherwise the instant in UTC. The two differ for the second 02:30 of
 * the night the clocks go back (RFC 5545 reads an ambiguous time as the first one) and for
 * dates the current rules do not cover (Mexico City before October 2022).
 */
function dateTimeProperty(name: string, time: number, timeZone: string): string {
  const wallTime = wallClockAsUtc(time, timeZone)
  if (instantOfWallTime(rulesFor(timeZone), wallTime) === time) return `${name};TZID=${timeZone}:${basicDateTime(wallTime)}`
  return `${name}:${utcDateTime(time)}`
}

/** The first instant whose time in the zone, by our rules, reads `wallTime` (as if it were UTC). */
function instantOfWallTime(rules: ZoneRules, wallTime: number): number | undefined {
  const offsets = rules.daylight ? [rules.standard.offset, rules.daylight.offset] : [rules.standard.offset]
  const candidates = offsets.map((offset) => wallTime - offset * MINUTE).filter((time, i) => offsetByRules(rules, time) === offsets[i])
  return candidates.length ? Math.min(...candidates) : undefined
}

function offsetByRules({ standard, daylight }: ZoneRules, time: number): number {
  if (!daylight) return standard.offset
  const year = new Date(time).getUTCFullYear()
  const starts = onsetInstant(year, daylight.starts, standard.offset)
  const ends = onsetInstant(year, daylight.ends, daylight.offset)
  // Southern-hemisphere rules start summer late in the year and end it early in the next.
  const summer = starts < ends ? time >= starts && time < ends : time >= starts || time < ends
  return summer ? daylight.offset : standard.offset
}

function onsetInstant(year: number, onset: Onset, offsetBefore: number): number {
  return Date.UTC(year, onset.month - 1, sundayOf(year, onset)) + (onset.localTime - offsetBefore) * MINUTE
}

function sundayOf(year: number, { month, week }: Onset): number {
  if (week < 0) {
    const last = new Date(Date.UTC(year, month, 0))
    return last.getUTCDate() - last.getUTCDay()
  }
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay()
  return 1 + ((7 - firstWeekday) % 7) + (week - 1) * 7
}

/** Milliseconds since the epoch, whole seconds: iCalendar times have no fractions, and the wall-time round trip compares exactly. */
function instant(date: Date, what: string): number {
  const time = date.getTime()
  if (!Number.isFinite(time)) throw new Error(`Invalid date for iCalendar: ${what}`)
  return wholeSeconds(time)
}

function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000
}

/** 20261123T190000 */
function basicDateTime(time: number): string {
  return new Date(time).toISOString().slice(0, 19).replace(/[-:]/g, '')
}

function utcDateTime(time: number): string {
  return `${basicDateTime(time)}Z`
}

/** +0100, -0600 */
function utcOffset(minutes: number): string {
  const size = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(size / 60)).padStart(2, '0')}${String(size % 60).padStart(2, '0')}`
}

const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', ';': '\\;', ',': '\\,', '\n': '\\n', '\r\n': '\\n' }

/**
 * RFC 5545 §3.3.11 TEXT. Control characters other than line breaks and tabs are dropped: the
 * format forbids them, and a bare CR would let a value start a property of its own.
 */
function escapeText(value: string): string {
  return value.replace(/\r\n|[\\;,\n]|[\x00-\x08\x0b-\x1f\x7f]/g, (match) => TEXT_ESCAPES[match] ?? '')
}

/**
 * A URI value is written as is (commas and semicolons belong to it), so it goes through the
 * URL parser instead: that rejects a relative link and percent-encodes anything, such as a
 * line break, that could end the property early.
 */
function uri(value: string): string {
  return new URL(value).href
}

/**
 * Lines longer than 75 octets continue on the next line after CRLF and a space (RFC 5545 §3.1).
 * Octets of UTF-8, and only between characters: an accent or an emoji cut in two would reach
 * the app as garbage even after unfolding, since some apps decode each physical line.
 */
function fold(line: string): string {
  let folded = ''
  let size = 0
  for (const char of line) {
    const octets = utf8Length(char.codePointAt(0) ?? 0)
    if (size + octets > 75) {
      folded += '\r\n '
      size = 1
    }
    folded += char
    size += octets
  }
  return folded
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1
  if (codePoint < 0x800) return 2
  if (codePoint < 0x10000) return 3
  return 4
}
