import { CalendarDays, MapPin, Users } from 'lucide-react'
import { Link } from 'react-router'
import { Badge } from '~/ui/badge'
import type { EventView } from '../views.server'
import { EVENT_TYPES } from '../limits'
import { eventPath } from '../paths'
import { EventTime } from './event-time'
import { RegisterButton } from './register-button'

/** Spec 001 §2: image, type badge, description, date and time, location, attendees, 'Ver detalles', registration. */
export function EventCard({ event, now }: { event: EventView; now: number }) {
  const past = new Date(event.eventDate).getTime() <= now
  const full = event.maxAttendees !== null && event.registeredCount >= event.maxAttendees
  return (
    <article className="flex min-w-0 flex-col overflow-hidden rounded-xl border bg-card shadow-sm sm:flex-row">
      <div className="aspect-video bg-muted sm:aspect-auto sm:w-56 sm:shrink-0">
        {event.imageUrl ? (
          <img src={event.imageUrl} alt="" loading="lazy" className="size-full object-cover" />
        ) : (
          <div className="flex size-full items-center justify-center text-muted-foreground">
            <CalendarDays className="size-10" aria-hidden />
          </div>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{EVENT_TYPES[event.eventType]}</Badge>
          {full && !past ? <Badge variant="warning">Completo</Badge> : null}
        </div>
        <h3 className="text-lg font-semibold leading-snug">{event.title}</h3>
        <p className="line-clamp-3 text-sm text-muted-foreground">{event.description}</p>
        <ul className="grid gap-1 text-sm">
          <li className="flex gap-2">
            <CalendarDays className="mt-0.5 size-4 shrink-0" aria-hidden />
            <EventTime date={event.eventDate} timeZone={event.timeZone} />
          </li>
          {event.location ? (
            <li className="flex gap-2">
              <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden /> {event.location}
            </li>
          ) : null}
          <li className="flex gap-2">
            <Users className="mt-0.5 size-4 shrink-0" aria-hidden />
            {event.registeredCount} {event.registeredCount === 1 ? 'asistente confirmado' : 'asistentes confirmados'}
            {event.maxAttendees !== null ? ` de ${event.maxAttendees}` : ''}
          </li>
        </ul>
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          <Link
            to={eventPath(event.id)}
            className="inline-flex h-9 items-center rounded-md border px-3 text-sm font-medium hover:bg-accent"
          >
            Ver detalles<span className="sr-only"> de «{event.title}»</span>
          </Link>
          <RegisterButton eventId={event.id} status={event.myStatus} full={full} past={past} />
        </div>
      </div>
    </article>
  )
}
