import { describe, expect, test } from 'vitest'
import { type CalendarEvent, eventIcs, feedIcs, SUPPORTED_TIME_ZONES } from './ics'

const HOST = 'circuloceo.com'
const NOW = new Date('2026-11-24T00:15:00Z')
const HOUR = 3_600_000

function makeEvent(overrides: Partial<CalendarEvent> = {}): CalendarEvent {
  return {
    id: '7d9f3c2a-4b1e-4f6a-9c8d-2e5b7a1f0c34',
    title: 'Cena de networking',
    description: 'Una cena para conocernos.',
    location: 'Calle de Serrano 41, Madrid',
    start: new Date('2026-11-23T18:00:00Z'),
    durationMinutes: 90,
    timeZone: 'Europe/Madrid',
    url: 'https://circuloceo.com/comunidad/eventos/cena-de-networking',
    updatedAt: new Date('2026-11-20T09:30:00Z'),
    ...overrides,
  }
}

// A parser just large enough to read back what ics.ts writes, kept independent of it: if both
// shared a helper, a mistake in that helper would pass unnoticed.

interface Property {
  name: string
  params: Record<string, string>
  value: string
}

interface Component {
  name: string
  properties: Property[]
  components: Component[]
}

const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '')

// Plain throws rather than expect(): these run hundreds of thousands of times below.
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

function parse(text: string): Component {
  const lines = unfold(text).split('\r\n')
  check(lines.pop() === '', 'the last line ends with CRLF')
  const root: Component = { name: '', properties: [], components: [] }
  const stack = [root]
  for (const line of lines) {
    const colon = line.indexOf(':')
    check(colon > 0, `a property: ${line}`)
    const [name = '', ...params] = line.slice(0, colon).split(';')
    const value = line.slice(colon + 1)
    const current = stack.at(-1)!
    if (name === 'BEGIN') {
      const child: Component = { name: value, properties: [], components: [] }
      current.components.push(child)
      stack.push(child)
    } else if (name === 'END') {
      check(current.name === value, `END:${value} closes BEGIN:${current.name}`)
      stack.pop()
    } else {
      current.properties.push({ name, params: Object.fromEntries(params.map((param) => param.split('=') as [string, string])), value })
    }
  }
  check(stack.length === 1, `${stack.at(-1)?.name} is never closed`)
  check(root.components.length === 1 && root.properties.length === 0, 'one VCALENDAR and nothing else')
  return root.components[0]!
}

function property(component: Component, name: string): Property {
  const found = component.properties.filter((p) => p.name === name)
  check(found.length === 1, `${component.name} has ${found.length} ${name}`)
  return found[0]!
}

const value = (component: Component, name: string) => property(component, name).value
const children = (component: Component, name: string) => component.components.filter((c) => c.name === name)
const unescapeText = (text: string) => text.replace(/\\([\\;,nN])/g, (_, char: string) => (char.toLowerCase() === 'n' ? '\n' : char))

/** 20261123T190000 read as if it were UTC, the way wall times are compared below. */
function basicTime(text: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?$/.exec(text)
  check(match, `a date-time: ${text}`)
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[]
  return Date.UTC(year!, month! - 1, day!, hour, minute, second)
}

const minutesOfOffset = (text: string) => (text.startsWith('-') ? -1 : 1) * (Number(text.slice(1, 3)) * 60 + Number(text.slice(3, 5)))

interface Observance {
  /** Local time, read as if it were UTC. */
  start: number
  from: number
  to: number
  rule?: { month: number; nth: number }
}

const observanceCache = new WeakMap<Component, Observance[]>()

function observances(zone: Component): Observance[] {
  let found = observanceCache.get(zone)
  if (!found) {
    found = zone.components.map((observance) => {
      const rule = observance.properties.find((p) => p.name === 'RRULE')?.value
      return {
        start: basicTime(value(observance, 'DTSTART')),
        from: minutesOfOffset(value(observance, 'TZOFFSETFROM')),
        to: minutesOfOffset(value(observance, 'TZOFFSETTO')),
        rule: rule === undefined ? undefined : parseRule(rule),
      }
    })
    observanceCache.set(zone, found)
  }
  return found
}

/** Only the rules a VTIMEZONE needs here: FREQ=YEARLY;BYMONTH=m;BYDAY=nSU. */
function parseRule(rule: string) {
  const parts = Object.fromEntries(rule.split(';').map((part) => part.split('=') as [string, string]))
  const nth = /^(-?[1-5])SU$/.exec(parts.BYDAY ?? '')?.[1]
  check(parts.FREQ === 'YEARLY' && parts.BYMONTH && nth && Object.keys(parts).length === 3, `a yearly rule: ${rule}`)
  return { month: Number(parts.BYMONTH), nth: Number(nth) }
}

const occurrences = new Map<string, number>()

/** The local time the rule fires in a year, found by listing the month's Sundays. */
function occurrence({ month, nth }: { month: number; nth: number }, start: number, year: number): number {
  const key = `${month} ${nth} ${start} ${year}`
  const known = occurrences.get(key)
  if (known !== undefined) return known
  const sundays = []
  for (let day = new Date(Date.UTC(year, month - 1, 1)); day.getUTCMonth() === month - 1; day = new Date(day.getTime() + 86_400_000)) {
    if (day.getUTCDay() === 0) sundays.push(day.getTime())
  }
  const found = sundays.at(nth > 0 ? nth - 1 : nth)! + (start % 86_400_000)
  occurrences.set(key, found)
  return found
}

/** A VTIMEZONE's offset at an instant, read from its observances the way a calendar app does. */
function offsetIn(zone: Component, time: number): number {
  let latest = -Infinity
  let offset = NaN
  const year = new Date(time).getUTCFullYear()
  for (const { start, from, to, rule } of observances(zone)) {
    const locals = rule ? [year - 1, year, year + 1].map((y) => occurrence(rule, start, y)).filter((local) => local >= start) : [start]
    for (const local of locals) {
      const onset = local - from * 60_000
      if (onset <= time && onset > latest) [latest, offset] = [onset, to]
    }
  }
  return offset
}

/** The observance that starts a wall time, by the RFC's rule: an ambiguous time is the first one. */
function resolve(calendar: Component, dateTime: Property): number {
  const time = basicTime(dateTime.value)
  if (dateTime.value.endsWith('Z')) return time
  const zone = children(calendar, 'VTIMEZONE').find((z) => value(z, 'TZID') === dateTime.params.TZID)!
  const offsets = zone.components.map((observance) => minutesOfOffset(value(observance, 'TZOFFSETTO')))
  const candidates = offsets.map((offset) => time - offset * 60_000).filter((instant, i) => offsetIn(zone, instant) === offsets[i])
  return Math.min(...candidates)
}

const intlOffsetFormats = new Map<string, Intl.DateTimeFormat>()

/** The offset from Intl's tz database, asked for directly ('GMT+01:00') rather than via wall times as ics.ts does. */
function intlOffset(time: number, timeZone: string): number {
  let format = intlOffsetFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    intlOffsetFormats.set(timeZone, format)
  }
  const name = format.formatToParts(time).find((part) => part.type === 'timeZoneName')!.value
  return name === 'GMT' ? 0 : minutesOfOffset(name.slice(3).replace(':', ''))
}

const octets = (line: string) => Buffer.byteLength(line, 'utf8')

describe('wall-clock times in the event zone', () => {
  test('19:00 in Madrid in winter and in summer, and the end after the duration', () => {
    const winter = eventIcs(makeEvent(), { host: HOST, now: NOW })
    expect(winter).toContain('\r\nDTSTART;TZID=Europe/Madrid:20261123T190000\r\n')
    expect(winter).toContain('\r\nDTEND;TZID=Europe/Madrid:20261123T203000\r\n')

    const summer = eventIcs(makeEvent({ start: new Date('2026-07-01T17:00:00Z') }), { host: HOST, now: NOW })
    expect(summer).toContain('\r\nDTSTART;TZID=Europe/Madrid:20260701T190000\r\n')
    expect(summer).toContain('\r\nDTEND;TZID=Europe/Madrid:20260701T203000\r\n')
  })

  test('the same instant in Mexico City is 12:00', () => {
    const text = eventIcs(makeEvent({ timeZone: 'America/Mexico_City' }), { host: HOST, now: NOW })
    expect(text).toContain('\r\nDTSTART;TZID=America/Mexico_City:20261123T120000\r\n')
    expect(text).toContain('\r\nDTEND;TZID=America/Mexico_City:20261123T133000\r\n')
  })

  test("an end past midnight falls on the next day, and the server's own zone changes nothing", () => {
    const event = makeEvent({ start: new Date('2026-12-31T22:30:00Z'), durationMinutes: 120 })
    const here = eventIcs(event, { host: HOST, now: NOW })
    expect(here).toContain('\r\nDTSTART;TZID=Europe/Madrid:20261231T233000\r\n')
    expect(here).toContain('\r\nDTEND;TZID=Europe/Madrid:20270101T013000\r\n')
    const machineZone = process.env.TZ
    try {
      process.env.TZ = 'Pacific/Kiritimati'
      expect(eventIcs(event, { host: HOST, now: NOW })).toBe(here)
    } finally {
      if (machineZone === undefined) delete process.env.TZ
      else process.env.TZ = machineZone
    }
  })

  test('the second 02:30 of the night the clocks go back is written in UTC, the first in Madrid time', () => {
    // RFC 5545 reads an ambiguous wall time as its first occurrence (00:30Z here).
    const first = eventIcs(makeEvent({ start: new Date('2026-10-25T00:30:00Z') }), { host: HOST, now: NOW })
    expect(first).toContain('\r\nDTSTART;TZID=Europe/Madrid:20261025T023000\r\n')
    const second = eventIcs(makeEvent({ start: new Date('2026-10-25T01:30:00Z') }), { host: HOST, now: NOW })
    expect(second).toContain('\r\nDTSTART:20261025T013000Z\r\n')
  })

  test('a date before the current rules of its zone is written in UTC', () => {
    // Mexico City still had summer time (-0500) in 2021; the VTIMEZONE only knows -0600.
    const text = eventIcs(makeEvent({ timeZone: 'America/Mexico_City', start: new Date('2021-07-01T17:00:00Z') }), { host: HOST, now: NOW })
    expect(text).toContain('\r\nDTSTART:20210701T170000Z\r\n')
  })

  test('every start, read back through the VTIMEZONE, is the event instant; UTC only for ambiguous times', () => {
    for (const timeZone of SUPPORTED_TIME_ZONES) {
      const starts: number[] = []
      // Every 15 minutes around each 2026 change in Europe and in New York, and once a day all year.
      for (const day of ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01']) {
        for (let time = Date.parse(`${day}T00:00:00Z`) - 12 * HOUR; time < Date.parse(`${day}T12:00:00Z`); time += HOUR / 4)
          starts.push(time)
      }
      for (let time = Date.parse('2026-01-01T17:30:00Z'); time < Date.parse('2027-01-01T00:00:00Z'); time += 24 * HOUR) starts.push(time)

      const wrong: string[] = []
      for (const start of starts) {
        const calendar = parse(eventIcs(makeEvent({ timeZone, start: new Date(start) }), { host: HOST, now: NOW }))
        const dtstart = property(children(calendar, 'VEVENT')[0]!, 'DTSTART')
        const ambiguous = intlOffset(start - HOUR, timeZone) === intlOffset(start, timeZone) + 60
        if (resolve(calendar, dtstart) !== start || dtstart.value.endsWith('Z') !== ambiguous) {
          wrong.push(`${new Date(start).toISOString()} → ${dtstart.value}`)
        }
      }
      expect(wrong, timeZone).toEqual([])
    }
  })
})

describe('time zones', () => {
  test("each VTIMEZONE gives Intl's offset at every hour from 2026 to 2028, starting in 1970", () => {
    for (const timeZone of SUPPORTED_TIME_ZONES) {
      const zone = children(parse(eventIcs(makeEvent({ timeZone }), { host: HOST, now: NOW })), 'VTIMEZONE')[0]!
      expect(value(zone, 'TZID')).toBe(timeZone)
      for (const observance of zone.components) {
        const start = basicTime(value(observance, 'DTSTART'))
        expect(new Date(start).getUTCFullYear()).toBe(1970)
        // A rule's DTSTART must be one of its own occurrences.
        const rule = observance.properties.find((p) => p.name === 'RRULE')?.value
        if (rule) expect(occurrence(parseRule(rule), start, 1970)).toBe(start)
      }
      const wrong: string[] = []
      for (let time = Date.parse('2026-01-01T00:00:00Z'); time < Date.parse('2029-01-01T00:00:00Z'); time += HOUR) {
        if (offsetIn(zone, time) !== intlOffset(time, timeZone)) wrong.push(new Date(time).toISOString())
      }
      expect(wrong, timeZone).toEqual([])
    }
  })

  test('Madrid, the Canaries and New York change on the days the law says, with their names', () => {
    const zoneLines = (timeZone: string) => {
      const text = unfold(eventIcs(makeEvent({ timeZone }), { host: HOST, now: NOW }))
      return text.slice(text.indexOf('BEGIN:VTIMEZONE'), text.indexOf('END:VTIMEZONE')).split('\r\n')
    }
    expect(zoneLines('Europe/Madrid')).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Madrid',
      'BEGIN:DAYLIGHT',
      'DTSTART:19700329T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'TZNAME:CEST',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:19701025T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'TZNAME:CET',
      'END:STANDARD',
      '',
    ])
    expect(zoneLines('Atlantic/Canary')).toEqual(
      expect.arrayContaining(['DTSTART:19700329T010000', 'TZNAME:WEST', 'TZNAME:WET', 'TZOFFSETTO:+0000']),
    )
    expect(zoneLines('America/New_York')).toEqual(
      expect.arrayContaining([
        'DTSTART:19700308T020000',
        'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
        'TZNAME:EDT',
        'DTSTART:19701101T020000',
        'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
        'TZNAME:EST',
      ]),
    )
    expect(zoneLines('America/Mexico_City')).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:America/Mexico_City',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:-0600',
      'TZOFFSETTO:-0600',
      'TZNAME:CST',
      'END:STANDARD',
      '',
    ])
  })

  test('an unsupported zone throws, for one event and for a feed', () => {
    expect(() => eventIcs(makeEvent({ timeZone: 'Europe/Paris' }), { host: HOST })).toThrow(Error)
    expect(() => eventIcs(makeEvent({ timeZone: 'toString' }), { host: HOST })).toThrow(/Unsupported time zone/)
    expect(() => feedIcs([makeEvent(), makeEvent({ timeZone: 'UTC' })], { host: HOST, name: 'Eventos' })).toThrow(/UTC/)
  })
})

describe('text, escaping and folding', () => {
  test('commas, semicolons, backslashes and line breaks are escaped; other control characters dropped', () => {
    // A lone CR is not a line break in plain text from a form; dropping it keeps it from becoming one.
    const description = 'a,b;c\\d\r\nsegunda línea\nterce\u0000ra\u0007\ttab\rfin'
    const text = unfold(eventIcs(makeEvent({ description }), { host: HOST, now: NOW }))
    expect(text).toContain('\r\nDESCRIPTION:a\\,b\\;c\\\\d\\nsegunda línea\\ntercera\ttabfin\r\n')
    expect(text).toContain('\r\nLOCATION:Calle de Serrano 41\\, Madrid\r\n')
  })

  test('a long title with accents and emoji is folded at 75 octets and unfolds to the escaped value', () => {
    const title = 'Cena de Navidad 🎄🥂 en Málaga: año nuevo, ideas; networking y café — ¡os esperamos! 👩🏽‍💼👨‍👩‍👧 ñandú'
    const text = eventIcs(makeEvent({ title }), { host: HOST, now: NOW })
    const lines = text.split('\r\n')
    expect(lines.pop()).toBe('')
    for (const line of lines) {
      expect(octets(line), line).toBeLessThanOrEqual(75)
      expect(line).not.toMatch(/[\r\n]/)
      // A cut inside a character would not survive a round trip through UTF-8.
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line)
    }
    const start = lines.findIndex((line) => line.startsWith('SUMMARY:'))
    let end = start + 1
    while (lines[end]?.startsWith(' ')) end++
    expect(end - start).toBeGreaterThanOrEqual(2)
    // Folded only when needed: every physical line but the last is full to within one character.
    for (const line of lines.slice(start, end - 1)) expect(octets(line)).toBeGreaterThan(71)
    const escaped = 'Cena de Navidad 🎄🥂 en Málaga: año nuevo\\, ideas\\; networking y café — ¡os esperamos! 👩🏽‍💼👨‍👩‍👧 ñandú'
    expect(lines.slice(start, end).join('\r\n').replace(/\r\n /g, '')).toBe(`SUMMARY:${escaped}`)
  })

  test('a character that would cross octet 75 moves whole to the next line', () => {
    const emoji = eventIcs(makeEvent({ title: `${'a'.repeat(66)}🎉b` }), { host: HOST, now: NOW }).split('\r\n')
    const at = emoji.findIndex((line) => line.startsWith('SUMMARY:'))
    expect(emoji[at]).toBe(`SUMMARY:${'a'.repeat(66)}`)
    expect(emoji[at + 1]).toBe(' 🎉b')

    const accent = eventIcs(makeEvent({ title: `${'a'.repeat(67)}éb` }), { host: HOST, now: NOW }).split('\r\n')
    const line = accent.findIndex((l) => l.startsWith('SUMMARY:'))
    expect(octets(accent[line]!)).toBe(75)
    expect(accent[line + 1]).toBe(' éb')
  })

  test('every line ends with CRLF and none is longer than 75 octets, in a feed too', () => {
    const long = 'Texto largo, con; signos\\ y saltos\n'.repeat(20)
    const text = feedIcs(
      [makeEvent({ description: long }), makeEvent({ id: 'b', title: '✨'.repeat(60), timeZone: 'America/Argentina/Buenos_Aires' })],
      { host: HOST, name: 'Eventos del Círculo CEO', now: NOW },
    )
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75)
  })
})

describe('the calendar', () => {
  test('one event reads back with every property it was given', () => {
    const event = makeEvent({
      title: 'Desayuno; charla, y "preguntas"',
      description: 'Primera línea\nSegunda, con \\barra\\',
      url: 'https://circuloceo.com/comunidad/eventos/desayuno?ref=ics,feed;v=1',
    })
    const calendar = parse(eventIcs(event, { host: HOST, now: NOW }))
    expect(calendar.name).toBe('VCALENDAR')
    expect(value(calendar, 'VERSION')).toBe('2.0')
    expect(value(calendar, 'PRODID')).toBe('-//Círculo CEO//Comunidad//ES')
    expect(value(calendar, 'CALSCALE')).toBe('GREGORIAN')
    expect(value(calendar, 'METHOD')).toBe('PUBLISH')
    expect(children(calendar, 'VTIMEZONE')).toHaveLength(1)

    const events = children(calendar, 'VEVENT')
    expect(events).toHaveLength(1)
    const vevent = events[0]!
    expect(value(vevent, 'UID')).toBe(`${event.id}@${HOST}`)
    expect(value(vevent, 'DTSTAMP')).toMatch(/^\d{8}T\d{6}Z$/)
    expect(value(vevent, 'DTSTAMP')).toBe('20261124T001500Z')
    expect(property(vevent, 'DTSTART')).toEqual({ name: 'DTSTART', params: { TZID: 'Europe/Madrid' }, value: '20261123T190000' })
    expect(resolve(calendar, property(vevent, 'DTSTART'))).toBe(event.start.getTime())
    expect(resolve(calendar, property(vevent, 'DTEND'))).toBe(event.start.getTime() + 90 * 60_000)
    expect(unescapeText(value(vevent, 'SUMMARY'))).toBe(event.title)
    expect(unescapeText(value(vevent, 'DESCRIPTION'))).toBe(event.description)
    expect(unescapeText(value(vevent, 'LOCATION'))).toBe(event.location)
    // A URI is not TEXT: its commas and semicolons stay as they are.
    expect(value(vevent, 'URL')).toBe(event.url)
    expect(value(vevent, 'LAST-MODIFIED')).toBe('20261120T093000Z')
    expect(value(vevent, 'SEQUENCE')).toBe('0')
    expect(value(vevent, 'STATUS')).toBe('CONFIRMED')
  })

  test('DTSTAMP is the time of writing when no time is given', () => {
    const before = Math.floor(Date.now() / 1000) * 1000
    const vevent = children(parse(eventIcs(makeEvent(), { host: HOST })), 'VEVENT')[0]!
    const stamp = value(vevent, 'DTSTAMP')
    expect(stamp).toMatch(/^\d{8}T\d{6}Z$/)
    expect(basicTime(stamp)).toBeGreaterThanOrEqual(before)
    expect(basicTime(stamp)).toBeLessThanOrEqual(Date.now())
  })

  test('no LOCATION without a place, and a cancelled event says so', () => {
    const vevent = children(parse(eventIcs(makeEvent({ location: null, cancelled: true }), { host: HOST, now: NOW })), 'VEVENT')[0]!
    expect(vevent.properties.map((p) => p.name)).not.toContain('LOCATION')
    expect(value(vevent, 'STATUS')).toBe('CANCELLED')
  })

  test('a URL that is not absolute, or a date that is not one, throws instead of writing a broken file', () => {
    expect(() => eventIcs(makeEvent({ url: '/comunidad/eventos/x' }), { host: HOST })).toThrow()
    expect(() => eventIcs(makeEvent({ start: new Date('no') }), { host: HOST })).toThrow(/start/)
    expect(() => eventIcs(makeEvent({ durationMinutes: -5 }), { host: HOST })).toThrow(/duration/)
  })

  test('a feed has its name, an hourly refresh, every event and one VTIMEZONE per zone', () => {
    const events = [
      makeEvent({ id: 'a1', title: 'Cena de networking' }),
      makeEvent({ id: 'b2', title: 'Desayuno', timeZone: 'America/Mexico_City', start: new Date('2026-12-02T15:00:00Z') }),
      makeEvent({ id: 'c3', title: 'Mesa redonda', start: new Date('2026-07-01T17:00:00Z'), cancelled: true }),
    ]
    const text = feedIcs(events, { host: HOST, name: 'Eventos, Círculo CEO', now: NOW })
    const calendar = parse(text)
    expect(unescapeText(value(calendar, 'X-WR-CALNAME'))).toBe('Eventos, Círculo CEO')
    expect(property(calendar, 'REFRESH-INTERVAL')).toEqual({ name: 'REFRESH-INTERVAL', params: { VALUE: 'DURATION' }, value: 'PT1H' })
    expect(value(calendar, 'X-PUBLISHED-TTL')).toBe('PT1H')

    const zones = children(calendar, 'VTIMEZONE').map((zone) => value(zone, 'TZID'))
    expect(zones.sort()).toEqual(['America/Mexico_City', 'Europe/Madrid'])

    const vevents = children(calendar, 'VEVENT')
    expect(vevents.map((e) => value(e, 'UID'))).toEqual([`a1@${HOST}`, `b2@${HOST}`, `c3@${HOST}`])
    expect(vevents.map((e) => value(e, 'STATUS'))).toEqual(['CONFIRMED', 'CONFIRMED', 'CANCELLED'])
    expect(vevents.map((e) => value(e, 'DTSTART'))).toEqual(['20261123T190000', '20261202T090000', '20260701T190000'])
    for (const [i, vevent] of vevents.entries()) {
      expect(value(vevent, 'DTSTAMP')).toMatch(/^\d{8}T\d{6}Z$/)
      expect(resolve(calendar, property(vevent, 'DTSTART'))).toBe(events[i]!.start.getTime())
    }

    // Balanced by the parser above; counted here as well, straight from the text.
    const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0
    for (const name of ['VCALENDAR', 'VTIMEZONE', 'VEVENT', 'STANDARD', 'DAYLIGHT']) {
      expect(count(new RegExp(`^BEGIN:${name}\r$`, 'gm')), name).toBe(count(new RegExp(`^END:${name}\r$`, 'gm')))
    }
    expect(count(/^BEGIN:VTIMEZONE\r$/gm)).toBe(2)
    expect(count(/^BEGIN:VEVENT\r$/gm)).toBe(3)
  })

  test('an empty feed is still a calendar with its name', () => {
    const calendar = parse(feedIcs([], { host: HOST, name: 'Eventos', now: NOW }))
    expect(value(calendar, 'X-WR-CALNAME')).toBe('Eventos')
    expect(calendar.components).toEqual([])
  })
})
