import { CalendarDays, List, Plus } from 'lucide-react'
import { useMemo, useState } from 'react'
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
import { listEvents, listUpcoming } from './events.server'
import { type EventView, toEventView } from './views.server'
import type { Route } from './+types/calendar.route'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { LoadMore, useLoadMore } from '~/ui/load-more'

/** Past events shown under 'Pasados'. */
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
    return { ...shown, view, events: events.map(toEventView), next: null, past: [] }
  }
  const cursor = params.get('cursor')
  const [upcoming, past] = await Promise.all([
    listUpcoming({ viewerId: user.id, cursor }),
    cursor ? [] : listEvents({ viewerId: user.id, to: now, order: 'desc', limit: PAST_SHOWN }),
  ])
  return {
    ...shown,
    view,
    events: upcoming.events.map(toEventView),
    next: upcoming.next,
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
          <UpcomingList first={events} next={loaderData.next} now={now} />
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

/** The upcoming events, 12 at a time (ui/load-more.tsx). */
function UpcomingList({ first, next, now }: { first: EventView[]; next: string | null; now: number }) {
  const page = useMemo(() => ({ items: first, next }), [first, next])
  const list = useLoadMore({
    first: page,
    resetKey: '',
    dataHref: (cursor, count) =>
      `/comunidad/calendario/pagina?${new URLSearchParams({ cursor, ...(count ? { cantidad: String(count) } : {}) })}`,
  })
  return (
    <section aria-labelledby="upcoming-title" className="grid gap-3">
      <h2 id="upcoming-title" className="sr-only">
        Próximos eventos
      </h2>
      {list.items.length ? (
        <ul className="grid gap-4">
          {list.items.map((event) => (
            <li key={event.id}>
              <EventCard event={event} now={now} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-xl border border-dashed bg-card p-8 text-center text-muted-foreground">No hay eventos próximos</p>
      )}
      <LoadMore
        list={list}
        href={(cursor) => `?${new URLSearchParams({ cursor })}`}
        loaded={(count) => `${count} eventos más cargados`}
        end="No hay más eventos"
      />
    </section>
  )
}
