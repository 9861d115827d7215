import { CalendarDays, List, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { guardedAction } from '~/platform/http/responses.server'
import { can } from '~/platform/auth/capabilities'
import { DEFAULT_TIME_ZONE, fromWallTime, toWallTime } from '~/platform/dates'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { eventAction } from './calendar.server'
import { EventCard } from './components/event-card'
import { EventDialog } from './components/event-dialog'
import { MonthCalendar, shiftMonth } from './components/month-calendar'
import { listEvents } from './events.server'
import { toEventView } from './views.server'
import type { Route } from './+types/calendar.route'
import { PartErrorBoundary } from '~/ui/error-boundary'

/** Upcoming events per page of the list, and past events shown under 'Pasados'. */
const LIST_PAGE_SIZE = 20
const PAST_SHOWN = 6

/** The community's month boundaries ('2026-11' → the instants its first and next month's first day begin in Madrid). */
function monthRange(month: string) {
  return { from: fromWallTime(`${month}-01T00:00`)!, to: fromWallTime(`${shiftMonth(month, 1)}-01T00:00`)! }
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  // Spec 001 §2: without premium, the tab is the admission prompt.
  if (!user.hasAccess) return { hasAccess: false as const }
  const params = new URL(request.url).searchParams
  const now = new Date()
  const thisMonth = toWallTime(now, DEFAULT_TIME_ZONE).slice(0, 7)
  const view = params.get('vista') === 'calendario' ? ('calendar' as const) : ('list' as const)
  const requestedMonth = params.get('mes')
  const month = requestedMonth && /^\d{4}-(0[1-9]|1[0-2])$/.test(requestedMonth) ? requestedMonth : thisMonth
  // What both views show besides their events (each names its view, which tells the page what else it has).
  const shown = {
    hasAccess: true as const,
    canManage: can(user, 'manage-events'),
    month,
    today: toWallTime(now).slice(0, 10),
    now: now.getTime(),
  }
  if (view === 'calendar') {
    const { from, to } = monthRange(month)
    const events = await listEvents({ viewerId: user.id, from, to })
    return { ...shown, view, events: events.map(toEventView), past: [] }
  }
  const page = Math.min(Math.max(Number.parseInt(params.get('pagina') ?? '1', 10) || 1, 1), 100)
  const [upcoming, past] = await Promise.all([
    // One more than shown tells whether there is a next page.
    listEvents({ viewerId: user.id, from: now, limit: LIST_PAGE_SIZE + 1, offset: (page - 1) * LIST_PAGE_SIZE }),
    page === 1 ? listEvents({ viewerId: user.id, to: now, order: 'desc', limit: PAST_SHOWN }) : [],
  ])
  return {
    ...shown,
    view,
    events: upcoming.slice(0, LIST_PAGE_SIZE).map(toEventView),
    nextPage: upcoming.length > LIST_PAGE_SIZE ? page + 1 : null,
    past: past.map(toEventView),
  }
}

export const action = guardedAction(requireCompleteProfile, eventAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los eventos" />
}

export default function CalendarPage({ loaderData, actionData }: Route.ComponentProps) {
  const [creating, setCreating] = useState(false)
  if (!loaderData.hasAccess) {
    return <PremiumPrompt description="Los eventos de la comunidad, presenciales y virtuales, son parte de la membresía premium." />
  }
  const { view, events, past, now } = loaderData
  const toggle = (target: 'list' | 'calendar', label: string, Icon: typeof List) => (
    <Link
      to={target === 'calendar' ? `?vista=calendario&mes=${loaderData.month}` : '?'}
      aria-current={view === target ? 'page' : undefined}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium',
        view === target ? 'bg-background shadow-sm' : 'text-muted-foreground hover:text-foreground',
      )}
    >
      <Icon className="size-4" aria-hidden /> {label}
    </Link>
  )
  return (
    <>
      <ActionStatus result={actionData} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="mr-auto text-xl font-semibold">Calendario de eventos</h2>
        <nav aria-label="Vista del calendario" className="flex rounded-lg bg-muted p-1">
          {toggle('list', 'Lista', List)}
          {toggle('calendar', 'Calendario', CalendarDays)}
        </nav>
        {loaderData.canManage ? (
          <Button onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden /> Nuevo Evento
          </Button>
        ) : null}
      </div>
      {view === 'calendar' ? (
        <MonthCalendar month={loaderData.month} events={events} today={loaderData.today} />
      ) : (
        <>
          <section aria-labelledby="upcoming-title" className="grid gap-3">
            <h2 id="upcoming-title" className="sr-only">
              Próximos eventos
            </h2>
            {events.length ? (
              <ul className="grid gap-4">
                {events.map((event) => (
                  <li key={event.id}>
                    <EventCard event={event} now={now} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="rounded-xl border border-dashed bg-card p-8 text-center text-muted-foreground">No hay eventos próximos</p>
            )}
            {loaderData.nextPage ? (
              <Link
                to={`?pagina=${loaderData.nextPage}`}
                className="justify-self-center rounded-md border px-4 py-2 text-sm font-medium hover:bg-accent"
              >
                Ver más eventos
              </Link>
            ) : null}
          </section>
          {past.length ? (
            <section aria-labelledby="past-title" className="grid gap-3">
              <h2 id="past-title" className="text-lg font-semibold">
                Pasados
              </h2>
              <ul className="grid gap-4">
                {past.map((event) => (
                  <li key={event.id}>
                    <EventCard event={event} now={now} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
      {loaderData.canManage ? <EventDialog open={creating} onClose={() => setCreating(false)} /> : null}
    </>
  )
}
