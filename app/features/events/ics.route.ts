import { z } from 'zod'
import { requireAccess } from '~/platform/auth/guards.server'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { getEnv } from '~/platform/env.server'
import { refuse } from '~/platform/http/responses.server'
import { feedEvents } from './calendar-feed.server'
import { getEvent } from './events.server'
import { type CalendarEvent, eventIcs, feedIcs } from './ics'
import { EVENT_MESSAGES } from './limits'
import { eventPath } from './paths'
import type { Route } from './+types/ics.route'

function toCalendarEvent(event: {
  id: string
  title: string
  description: string
  location: string | null
  eventDate: Date
  durationMinutes: number
  timeZone: string
  externalLink: string | null
  updatedAt?: Date
}): CalendarEvent {
  return {
    id: event.id,
    title: event.title,
    description: event.externalLink ? `${event.description}\n\n${event.externalLink}` : event.description,
    location: event.location,
    start: event.eventDate,
    durationMinutes: event.durationMinutes,
    timeZone: event.timeZone,
    url: `${getEnv().APP_URL}${eventPath(event.id)}`,
    updatedAt: event.updatedAt ?? new Date(),
  }
}

const calendarHeaders = (fileName: string, disposition: 'attachment' | 'inline') => ({
  'Content-Type': 'text/calendar; charset=utf-8',
  'Content-Disposition': `${disposition}; filename="${fileName}"`,
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
})

/**
 * 'Añadir al calendario' (`/comunidad/calendario/:eventId/ics`, for members with access) and a
 * member's private feed (`/calendario/privado/<token>.ics`, read by calendar apps without a
 * session: the token is the key, and it shows only that member's registered events).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const host = new URL(getEnv().APP_URL).host
  if (params.file) {
    const token = params.file.replace(/\.ics$/, '')
    const events = await feedEvents(token)
    if (!events) return new Response('Calendario no encontrado', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    const body = feedIcs(events.map(toCalendarEvent), { host, name: 'Círculo CEO · Mis eventos' })
    return new Response(body, { headers: calendarHeaders('circulo-ceo.ics', 'inline') })
  }
  const user = await requireCompleteProfile(request)
  requireAccess(user)
  const eventId = z.uuid().safeParse(params.eventId)
  if (!eventId.success) refuse(404, EVENT_MESSAGES.notFound)
  const event = await getEvent(eventId.data, user.id)
  if (!event) refuse(404, EVENT_MESSAGES.notFound)
  return new Response(eventIcs(toCalendarEvent(event), { host }), { headers: calendarHeaders('evento.ics', 'attachment') })
}
