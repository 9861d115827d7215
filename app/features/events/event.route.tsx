import { ArrowLeft, CalendarPlus, Copy, ExternalLink, MapPin, Pencil, RefreshCw, Users, Video } from 'lucide-react'
import { useState } from 'react'
import { isRouteErrorResponse, Link, useFetcher, useNavigate, useRouteError } from 'react-router'
import { z } from 'zod'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { can } from '~/platform/auth/capabilities'
import { toWallTime } from '~/platform/dates'
import { guardedAction, refuse } from '~/platform/http/responses.server'
import type { Result } from '~/platform/http/result'
import { signedUploadUrl } from '~/platform/storage/signed-url.server'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { ConfirmButton } from '~/ui/confirm-button'
import { HiddenFields } from '~/ui/hidden-fields'
import { Select } from '~/ui/input'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Section } from '~/ui/section'
import { showToast, useResultToast } from '~/ui/toast'
import { UserAvatar } from '~/ui/user-avatar'
import { listPublishedTitles } from '~/features/ceo-sessions/library.server'
import { calendarFeedPath } from './calendar-feed.server'
import { eventAction } from './calendar.server'
import { EventDialog } from './components/event-dialog'
import { EventTime } from './components/event-time'
import { RegisterButton } from './components/register-button'
import { getEvent } from './events.server'
import { EVENT_MESSAGES, EVENT_TYPES } from './limits'
import { CALENDAR_ACTION } from './paths'
import type { Route } from './+types/event.route'

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const eventId = z.uuid().safeParse(params.eventId)
  if (!eventId.success) refuse(404, EVENT_MESSAGES.notFound)
  if (!user.hasAccess) return { hasAccess: false as const }
  const event = await getEvent(eventId.data, user.id)
  if (!event) refuse(404, EVENT_MESSAGES.notFound)
  const canManage = can(user, 'manage-events')
  const past = event.eventDate.getTime() <= Date.now()
  return {
    hasAccess: true as const,
    canManage,
    // Beyond the spec: once it has happened, an event can name its recording.
    recordingChoices: canManage && past ? await listPublishedTitles() : [],
    now: Date.now(),
    feedPath: await calendarFeedPath(user.id),
    event: {
      id: event.id,
      title: event.title,
      description: event.description,
      content: event.content,
      eventDate: event.eventDate.toISOString(),
      wallTime: toWallTime(event.eventDate, event.timeZone),
      timeZone: event.timeZone,
      durationMinutes: event.durationMinutes,
      location: event.location,
      eventType: event.eventType,
      maxAttendees: event.maxAttendees,
      externalLink: event.externalLink,
      imageUrl: event.imageKey ? signedUploadUrl(event.imageKey, 'evento.webp') : null,
      recordingSessionId: event.recordingSessionId,
      registeredCount: event.registeredCount,
      myStatus: event.myStatus ?? null,
      myWaitlistPosition: event.myWaitlistPosition,
      waitlistCount: event.waitlistCount,
      attendees: event.attendees,
    },
  }
}

export const action = guardedAction(requireCompleteProfile, eventAction)

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const [editing, setEditing] = useState(false)
  const remove = useFetcher<Result>()
  const navigate = useNavigate()
  useResultToast(remove.state, remove.data, { onSuccess: () => void navigate('/comunidad/calendario') })
  if (!loaderData.hasAccess) {
    return <PremiumPrompt description="Los eventos de la comunidad son parte de la membresía premium." />
  }
  const { event, now } = loaderData
  const past = new Date(event.eventDate).getTime() <= now
  const full = event.maxAttendees !== null && event.registeredCount >= event.maxAttendees
  return (
    <article className="grid gap-4">
      <ActionStatus result={actionData} />
      <Link
        to="/comunidad/calendario"
        className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> Volver al calendario
      </Link>
      {event.imageUrl ? <img src={event.imageUrl} alt="" className="aspect-video w-full rounded-xl object-cover" /> : null}
      <header className="grid gap-2">
        <div className="flex flex-wrap gap-2">
          <Badge variant="secondary">{EVENT_TYPES[event.eventType]}</Badge>
          {past ? <Badge variant="outline">Pasado</Badge> : full ? <Badge variant="warning">Completo</Badge> : null}
        </div>
        <h2 className="break-words text-2xl font-bold tracking-tight">{event.title}</h2>
        <p className="text-muted-foreground">{event.description}</p>
      </header>
      <ul className="grid gap-2 text-sm">
        <li>
          <EventTime date={event.eventDate} timeZone={event.timeZone} />
        </li>
        {event.location ? (
          <li className="flex items-center gap-2">
            <MapPin className="size-4 shrink-0" aria-hidden /> {event.location}
          </li>
        ) : null}
        {event.externalLink ? (
          <li className="flex items-center gap-2">
            <ExternalLink className="size-4 shrink-0" aria-hidden />
            <a href={event.externalLink} target="_blank" rel="noreferrer noopener" className="break-all text-primary hover:underline">
              {event.externalLink}
            </a>
          </li>
        ) : null}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <RegisterButton eventId={event.id} status={event.myStatus} full={full} past={past} />
        <a
          href={`/comunidad/calendario/${event.id}/ics`}
          download
          className="inline-flex h-9 items-center gap-1.5 rounded-md border px-3 text-sm font-medium hover:bg-accent"
        >
          <CalendarPlus className="size-4" aria-hidden /> Añadir al calendario
        </a>
        {event.recordingSessionId ? (
          <Link
            to={`/video/${event.recordingSessionId}`}
            className="inline-flex h-9 items-center gap-1.5 rounded-md border px-3 text-sm font-medium hover:bg-accent"
          >
            <Video className="size-4" aria-hidden /> Ver la grabación
          </Link>
        ) : null}
        {loaderData.canManage ? (
          <>
            <Button variant="ghost" onClick={() => setEditing(true)}>
              <Pencil className="size-4" aria-hidden /> Editar
            </Button>
            <ConfirmButton
              fetcher={remove}
              fields={{ intent: 'delete-event', eventId: event.id }}
              action={CALENDAR_ACTION}
              question="¿Estás seguro de que quieres eliminar este evento?"
            />
          </>
        ) : null}
      </div>
      {event.myStatus === 'waitlisted' && event.myWaitlistPosition ? (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Estás en la lista de espera (número {event.myWaitlistPosition}). Te avisaremos si se libera una plaza.
        </p>
      ) : null}
      {event.content ? <p className="whitespace-pre-line break-words">{event.content}</p> : null}
      <section aria-labelledby="attendees-title" className="grid gap-2 rounded-xl border bg-card p-4">
        <h3 id="attendees-title" className="flex items-center gap-2 font-semibold">
          <Users className="size-4" aria-hidden /> Asistentes confirmados ({event.registeredCount}
          {event.maxAttendees !== null ? ` de ${event.maxAttendees}` : ''})
        </h3>
        {event.attendees.length ? (
          <ul className="flex flex-wrap gap-2">
            {event.attendees.map((attendee) => (
              <li key={attendee.userId}>
                <Link
                  to={`/usuario/${attendee.userId}`}
                  className="inline-flex items-center gap-2 rounded-full border py-1 pl-1 pr-3 text-sm hover:bg-accent"
                >
                  <UserAvatar avatarUrl={attendee.avatarUrl} name={attendee.name} className="size-6 text-[10px]" />
                  {attendee.name}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">Todavía no hay asistentes confirmados.</p>
        )}
        {event.waitlistCount ? <p className="text-sm text-muted-foreground">{event.waitlistCount} en lista de espera.</p> : null}
      </section>
      {loaderData.recordingChoices.length ? (
        <RecordingForm eventId={event.id} current={event.recordingSessionId} choices={loaderData.recordingChoices} />
      ) : null}
      <CalendarFeed path={loaderData.feedPath} />
      {loaderData.canManage ? (
        <EventDialog
          key={event.wallTime + event.title}
          open={editing}
          onClose={() => setEditing(false)}
          event={{ ...event, eventDate: event.wallTime }}
        />
      ) : null}
    </article>
  )
}

/** A past event's recording: one of the published sessions, or none. */
function RecordingForm({
  eventId,
  current,
  choices,
}: {
  eventId: string
  current: string | null
  choices: Array<{ id: string; title: string }>
}) {
  const fetcher = useFetcher<Result>()
  useResultToast(fetcher.state, fetcher.data)
  return (
    <fetcher.Form method="post" action={CALENDAR_ACTION} className="grid gap-2 rounded-xl border bg-card p-4 text-sm">
      <HiddenFields values={{ intent: 'link-recording', eventId }} />
      <label htmlFor="recording" className="font-semibold">
        Grabación del evento
      </label>
      <div className="flex flex-wrap gap-2">
        <Select
          id="recording"
          name="sessionId"
          defaultValue={current ?? ''}
          className="h-9 min-w-0 flex-1 px-2"
          none="Sin grabación"
          options={choices.map((choice) => [choice.id, choice.title])}
        />
        <Button type="submit" size="sm" variant="secondary" disabled={fetcher.state !== 'idle'}>
          Guardar grabación
        </Button>
      </div>
    </fetcher.Form>
  )
}

/** The member's private feed of the events they registered for: copy it, or make a new one. */
function CalendarFeed({ path }: { path: string }) {
  const renew = useFetcher<Result<{ feedPath?: string }>>()
  useResultToast(renew.state, renew.data)
  const current = (renew.data?.ok ? renew.data.feedPath : undefined) ?? path
  const copy = async () => {
    const url = new URL(current, window.location.origin).toString()
    try {
      await navigator.clipboard.writeText(url)
      showToast({ title: 'Enlace copiado', description: 'Pégalo en tu aplicación de calendario como suscripción.' })
    } catch {
      showToast({ title: 'No se pudo copiar el enlace', description: url }, 'error')
    }
  }
  return (
    <Section
      id="feed"
      title="Tu calendario de eventos"
      heading="h3"
      titleClassName="font-semibold"
      className="grid gap-2 rounded-xl border bg-card p-4 text-sm"
    >
      <p className="text-muted-foreground">
        Suscríbete desde Google Calendar, Outlook o Apple Calendar con este enlace privado: muestra los eventos en los que te registres. No
        lo compartas.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden /> Copiar enlace
        </Button>
        <renew.Form method="post" action={CALENDAR_ACTION}>
          <input type="hidden" name="intent" value="renew-calendar-feed" />
          <Button type="submit" variant="ghost" size="sm">
            <RefreshCw className="size-4" aria-hidden /> Crear un enlace nuevo
          </Button>
        </renew.Form>
      </div>
    </Section>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (!isRouteErrorResponse(error) || error.status !== 404) return <PartErrorBoundary failed="No se pudo cargar el evento" />
  return (
    <div className="grid gap-4 rounded-xl border bg-card p-8 text-center">
      <h2 className="text-2xl font-bold">Evento no encontrado</h2>
      <p className="text-muted-foreground">Es posible que el evento se haya eliminado o que el enlace sea incorrecto.</p>
      <Link to="/comunidad/calendario" className="font-medium text-primary hover:underline">
        Volver al calendario
      </Link>
    </div>
  )
}
