import { fullDateTime } from '~/platform/dates'
import { EVENT_TIME_ZONES } from './limits'

/** '16 de marzo de 2027, 18:00 (hora de Madrid)': an event's time in its own zone (e-mail, the bell). */
export function eventTimeInZone(date: Date, timeZone: string) {
  return `${fullDateTime(date, timeZone)} (hora de ${EVENT_TIME_ZONES[timeZone as keyof typeof EVENT_TIME_ZONES] ?? timeZone})`
}
