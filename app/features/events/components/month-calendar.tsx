import { ChevronLeft, ChevronRight, MapPin, Users } from 'lucide-react'
import { type KeyboardEvent, useRef, useState } from 'react'
import { Link } from 'react-router'
import { DEFAULT_TIME_ZONE, formatMonthYear, fullDateTime, toWallTime } from '~/platform/dates'
import { Badge } from '~/ui/badge'
import { cn } from '~/ui/cn'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/ui/dialog'
import type { EventView } from '../views.server'
import { EVENT_TYPES } from '../limits'
import { eventPath } from '../paths'

const WEEKDAYS = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom']
/** Spec 001 §2 'Calendar view': titles per day on a wide screen, dots on a phone. */
const TITLES_PER_DAY = 3
const DOTS_PER_DAY = 4

/** 'YYYY-MM' of the month `offset` months from `month`. */
export function shiftMonth(month: string, offset: number) {
  const [year, index] = month.split('-').map(Number) as [number, number]
  const date = new Date(Date.UTC(year, index - 1 + offset, 1))
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`
}

/** The month's days as weeks, Monday first, with the days of the months around it as null. */
export function monthGrid(month: string) {
  const [year, index] = month.split('-').map(Number) as [number, number]
  const first = new Date(Date.UTC(year, index - 1, 1))
  const days = new Date(Date.UTC(year, index, 0)).getUTCDate()
  const lead = (first.getUTCDay() + 6) % 7
  const cells: Array<string | null> = Array.from({ length: lead }, () => null)
  for (let day = 1; day <= days; day++) cells.push(`${month}-${String(day).padStart(2, '0')}`)
  while (cells.length % 7) cells.push(null)
  return cells
}

/**
 * The month grid (spec 001 §2): every event of the month on its day in the community's zone
 * (the spec passed only the first 6: ADR 0020). A day with events opens a dialog listing them.
 */
export function MonthCalendar({ month, events, today }: { month: string; events: EventView[]; today: string }) {
  const [openDay, setOpenDay] = useState<string | null>(null)
  const byDay = new Map<string, EventView[]>()
  for (const event of events) {
    const day = toWallTime(event.eventDate, DEFAULT_TIME_ZONE).slice(0, 10)
    byDay.set(day, [...(byDay.get(day) ?? []), event])
  }
  const monthLabel = formatMonthYear(`${month}-15T12:00:00Z`)
  const dayEvents = openDay ? (byDay.get(openDay) ?? []) : []
  const days = monthGrid(month).filter((day): day is string => day !== null)
  // One stop for Tab in the grid, then the arrows move between days (the ARIA grid pattern):
  // today in this month, else its first day with events, else its first day.
  const [focusedDay, setFocusedDay] = useState(() => (days.includes(today) ? today : (days.find((day) => byDay.has(day)) ?? days[0]!)))
  const current = days.includes(focusedDay) ? focusedDay : days[0]!
  const gridRef = useRef<HTMLDivElement>(null)
  function onGridKeyDown(event: KeyboardEvent) {
    const at = days.indexOf(current)
    const weekday = at - ((new Date(`${current}T12:00:00Z`).getUTCDay() + 6) % 7)
    const target = {
      ArrowLeft: at - 1,
      ArrowRight: at + 1,
      ArrowUp: at - 7,
      ArrowDown: at + 7,
      Home: Math.max(0, weekday),
      End: Math.min(days.length - 1, weekday + 6),
    }[event.key]
    if (target === undefined) return
    event.preventDefault()
    const day = days[Math.min(days.length - 1, Math.max(0, target))]!
    setFocusedDay(day)
    gridRef.current?.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus()
  }
  return (
    <section aria-labelledby="month-title" className="rounded-xl border bg-card p-3 sm:p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <Link
          to={`?vista=calendario&mes=${shiftMonth(month, -1)}`}
          preventScrollReset
          className="rounded-md p-2 hover:bg-accent"
          aria-label="Mes anterior"
        >
          <ChevronLeft className="size-5" aria-hidden />
        </Link>
        <h2 id="month-title" className="text-lg font-semibold first-letter:uppercase">
          {monthLabel}
        </h2>
        <Link
          to={`?vista=calendario&mes=${shiftMonth(month, 1)}`}
          preventScrollReset
          className="rounded-md p-2 hover:bg-accent"
          aria-label="Mes siguiente"
        >
          <ChevronRight className="size-5" aria-hidden />
        </Link>
      </div>
      <div
        ref={gridRef}
        role="grid"
        aria-labelledby="month-title"
        // Focus lives on its days; the grid itself is reached only by script.
        tabIndex={-1}
        onKeyDown={onGridKeyDown}
        className="grid grid-cols-7 gap-px overflow-hidden rounded-lg border bg-border"
      >
        <div role="row" className="contents">
          {WEEKDAYS.map((weekday) => (
            <div role="columnheader" key={weekday} className="bg-muted py-1 text-center text-xs font-medium text-muted-foreground">
              {weekday}
            </div>
          ))}
        </div>
        {chunk(monthGrid(month), 7).map((week, w) => (
          <div role="row" key={w} className="contents">
            {week.map((day, d) => {
              if (!day) return <div role="gridcell" key={`${w}-${d}`} className="min-h-14 bg-background/60 sm:min-h-24" />
              const list = byDay.get(day) ?? []
              const label = `${Number(day.slice(8))} de ${monthLabel}, ${list.length ? `${list.length} ${list.length === 1 ? 'evento' : 'eventos'}` : 'sin eventos'}`
              const stop = { 'data-day': day, tabIndex: day === current ? 0 : -1, onFocus: () => setFocusedDay(day) }
              return (
                <div
                  role="gridcell"
                  key={day}
                  // A day without events is a stop of its own, so the arrows cross it.
                  {...(list.length ? {} : { ...stop, 'aria-label': label })}
                  className={cn(
                    'min-h-14 bg-background p-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring sm:min-h-24',
                    day === today && 'bg-secondary/60',
                  )}
                >
                  {list.length ? (
                    <button
                      type="button"
                      {...stop}
                      onClick={() => setOpenDay(day)}
                      aria-label={label}
                      className="flex size-full flex-col items-stretch gap-0.5 rounded text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <DayNumber day={day} today={today} />
                      <span className="hidden flex-col gap-0.5 sm:flex">
                        {list.slice(0, TITLES_PER_DAY).map((event) => (
                          <span key={event.id} className="truncate rounded bg-primary/10 px-1 text-xs text-primary">
                            {event.title}
                          </span>
                        ))}
                        {list.length > TITLES_PER_DAY ? (
                          <span className="px-1 text-xs text-muted-foreground">+{list.length - TITLES_PER_DAY} más</span>
                        ) : null}
                      </span>
                      <span className="flex flex-wrap gap-0.5 px-1 sm:hidden" aria-hidden>
                        {list.slice(0, DOTS_PER_DAY).map((event) => (
                          <span key={event.id} className="size-1.5 rounded-full bg-primary" />
                        ))}
                      </span>
                    </button>
                  ) : (
                    <DayNumber day={day} today={today} />
                  )}
                </div>
              )
            })}
          </div>
        ))}
      </div>
      <Dialog open={openDay !== null} onOpenChange={(open) => (open ? undefined : setOpenDay(null))}>
        <DialogContent>
          <DialogTitle>Eventos del {openDay ? `${Number(openDay.slice(8))} de ${monthLabel}` : ''}</DialogTitle>
          <DialogDescription className="sr-only">Los eventos de este día</DialogDescription>
          <ul className="grid gap-3">
            {dayEvents.map((event) => (
              <li key={event.id} className="grid gap-1 rounded-lg border p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="secondary">{EVENT_TYPES[event.eventType]}</Badge>
                  <span className="font-medium tabular-nums">{fullDateTime(event.eventDate, event.timeZone).split(', ').pop()}</span>
                </div>
                <Link to={eventPath(event.id)} className="font-semibold hover:underline">
                  {event.title}
                </Link>
                {event.location ? (
                  <span className="flex items-center gap-1 text-muted-foreground">
                    <MapPin className="size-3.5" aria-hidden /> {event.location}
                  </span>
                ) : null}
                <span className="flex items-center gap-1 text-muted-foreground">
                  <Users className="size-3.5" aria-hidden /> {event.registeredCount}{' '}
                  {event.registeredCount === 1 ? 'asistente' : 'asistentes'}
                </span>
              </li>
            ))}
          </ul>
        </DialogContent>
      </Dialog>
    </section>
  )
}

function DayNumber({ day, today }: { day: string; today: string }) {
  return (
    <span className={cn('px-1 text-xs font-medium', day === today && 'text-primary')} aria-current={day === today ? 'date' : undefined}>
      {Number(day.slice(8))}
    </span>
  )
}

function chunk<T>(items: T[], size: number) {
  const rows: T[][] = []
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size))
  return rows
}
