import { addDays, DEFAULT_TIME_ZONE, fromWallTime, toWallTime } from '~/platform/dates'

export interface QuietHours {
  /** Minutes after midnight, in `timeZone`; start = end: none. */
  start: number
  end: number
  timeZone: string | null
}

const pad = (value: number) => String(value).padStart(2, '0')

/** 'HH:MM' of minutes after midnight, as a time field shows them. */
export const clockOf = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`

/**
 * When a push may go: `now` outside the member's quiet hours, else the instant the window ends
 * in their zone (the next day's end when the window crosses midnight and `now` is before it).
 * Wall-clock arithmetic in the zone (platform/dates): an end at 08:00 is 08:00 on the day a
 * clock change makes 23 or 25 hours long; an end inside a spring-forward gap moves forward by it.
 */
export function pushTime(now: Date, { start, end, timeZone }: QuietHours): Date {
  if (start === end) return now
  const zone = timeZone ?? DEFAULT_TIME_ZONE
  const wall = toWallTime(now, zone)
  const minute = Number(wall.slice(11, 13)) * 60 + Number(wall.slice(14, 16))
  const quiet = start < end ? minute >= start && minute < end : minute >= start || minute < end
  if (!quiet) return now
  const day = minute < end ? wall.slice(0, 10) : addDays(wall.slice(0, 10), 1)
  return fromWallTime(`${day}T${clockOf(end)}`, zone) ?? now
}
