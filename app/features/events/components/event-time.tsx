import { DEFAULT_TIME_ZONE, fullDateTime } from '~/platform/dates'
import { useHydrated } from '~/ui/use-hydrated'
import { EVENT_TIME_ZONES } from '../limits'

/** '23 de noviembre de 2026, 19:00' in the zone the event is announced in. */
export function eventTimeLabel(date: string, timeZone: string) {
  const zone = EVENT_TIME_ZONES[timeZone as keyof typeof EVENT_TIME_ZONES] ?? timeZone
  return `${fullDateTime(date, timeZone)} (hora de ${zone})`
}

/** The viewer's own time, when their zone is another: '12:00 en tu zona horaria'. Null otherwise. */
export function viewerTimeLabel(date: string, eventZone: string, viewerZone: string) {
  if (viewerZone === eventZone || fullDateTime(date, viewerZone) === fullDateTime(date, eventZone)) return null
  return `${fullDateTime(date, viewerZone)} en tu zona horaria`
}

/**
 * The event's time in its zone, and the viewer's own time beside it once the page runs in their
 * browser (the server does not know their zone; rendering it only after hydration keeps the HTML
 * identical on both sides).
 */
export function EventTime({ date, timeZone }: { date: string; timeZone: string }) {
  const hydrated = useHydrated()
  const viewerZone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : DEFAULT_TIME_ZONE
  const own = hydrated ? viewerTimeLabel(date, timeZone, viewerZone) : null
  return (
    <span>
      <time dateTime={date}>{eventTimeLabel(date, timeZone)}</time>
      {own ? <span className="block text-xs text-muted-foreground">{own}</span> : null}
    </span>
  )
}
