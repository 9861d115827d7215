import { describe, expect, it, test } from 'vitest'
import { addDays, dayRange, formatMonthYear, fromWallTime, fullDateTime, longDate, relativeTime, toWallTime } from './dates'

describe('dates', () => {
  const winter = '2026-11-23T18:00:00Z' // 19:00 in Madrid (CET)
  const summer = '2026-07-01T17:30:00Z' // 19:30 in Madrid (CEST)

  it('shows the community zone by default and another zone when asked', () => {
    expect(fullDateTime(winter)).toBe('23 de noviembre de 2026, 19:00')
    expect(fullDateTime(summer)).toBe('1 de julio de 2026, 19:30')
    expect(fullDateTime(winter, 'America/Mexico_City')).toBe('23 de noviembre de 2026, 12:00')
    expect(fullDateTime('2026-12-31T23:30:00Z')).toBe('1 de enero de 2027, 00:30')
  })

  it('writes long dates and months in Spanish', () => {
    expect(longDate(winter)).toBe('23 de noviembre de 2026')
    expect(formatMonthYear('2026-02-10T12:00:00Z')).toBe('febrero de 2026')
    expect(formatMonthYear('2026-09-30T23:00:00Z')).toBe('octubre de 2026')
  })

  it('says how long ago, with the right singular and plural', () => {
    const now = Date.parse(winter)
    const ago = (seconds: number) => relativeTime(now - seconds * 1000, now)
    expect(ago(0)).toBe('hace 0 segundos')
    expect(ago(1)).toBe('hace 1 segundo')
    expect(ago(5 * 60)).toBe('hace 5 minutos')
    expect(ago(60 * 60)).toBe('hace 1 hora')
    expect(ago(26 * 3600)).toBe('hace 1 día')
    expect(ago(40 * 86_400)).toBe('hace 1 mes')
    expect(ago(90 * 86_400)).toBe('hace 3 meses')
    expect(ago(800 * 86_400)).toBe('hace 2 años')
    expect(relativeTime(now + 3 * 3600 * 1000, now)).toBe('dentro de 3 horas')
  })

  it('reads a wall-clock time in a zone, in winter, in summer and across the change', () => {
    expect(fromWallTime('2026-11-23T19:00')?.toISOString()).toBe('2026-11-23T18:00:00.000Z')
    expect(fromWallTime('2026-07-01T19:00')?.toISOString()).toBe('2026-07-01T17:00:00.000Z')
    expect(fromWallTime('2026-11-23T19:00', 'America/Mexico_City')?.toISOString()).toBe('2026-11-24T01:00:00.000Z')
    // 02:30 does not exist in Madrid on 29 March 2026: the clock jumps from 02:00 to 03:00.
    expect(toWallTime(fromWallTime('2026-03-29T02:30')!)).toBe('2026-03-29T03:30')
    expect(toWallTime('2026-11-23T18:00:00.000Z')).toBe('2026-11-23T19:00')
    expect(fromWallTime('2026-02-30T10:00')).toBeNull()
    expect(fromWallTime('2026-11-23 19:00')).toBeNull()
    expect(fromWallTime('2026-11-23T24:00')).toBeNull()
  })
})

describe('calendar fields in a zone', () => {
  test('agree with Intl at every 7½ minutes of a year, across every transition, in zones with odd offsets', () => {
    const intl = (timeZone: string) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
    const zones = ['Europe/Madrid', 'America/Mexico_City', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham']
    for (const timeZone of zones) {
      const format = intl(timeZone)
      for (let instant = Date.UTC(2026, 0, 1); instant < Date.UTC(2027, 0, 1); instant += 7.5 * 60_000) {
        const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]))
        const expected = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
        const actual = toWallTime(instant, timeZone)
        if (actual !== expected) expect(`${timeZone} ${new Date(instant).toISOString()}: ${actual}`).toBe(`${timeZone}: ${expected}`)
      }
    }
  }, 120_000) // 420,000 dates in six zones: seconds alone, more while the suite's other files share the cores
})

describe("a filter's days ('Desde', 'Hasta')", () => {
  test("bound the community's days: 'Hasta' includes its day, across a change of the clocks", () => {
    // 29 March 2026: Madrid's clocks go forward, a day of 23 hours.
    expect(dayRange('2026-03-29', '2026-03-29')).toEqual({
      from: new Date('2026-03-28T23:00:00Z'),
      to: new Date('2026-03-29T22:00:00Z'),
    })
    expect(dayRange('2026-12-31', '')).toEqual({ from: new Date('2026-12-30T23:00:00Z'), to: null })
    expect(dayRange('', '2026-12-31')).toEqual({ from: null, to: new Date('2026-12-31T23:00:00Z') })
    expect(dayRange('', '')).toEqual({ from: null, to: null })
  })

  test('a day plus or minus days crosses months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
  })
})
