import { CalendarDays, MessagesSquare, Users, Video } from 'lucide-react'

export interface CommunityStats {
  members: number
  discussions: number
  eventsThisMonth: number
  ceoSessions: number
}

export function StatsPanel({ stats }: { stats: CommunityStats }) {
  const items = [
    { label: 'Miembros Activos', value: stats.members, icon: Users },
    { label: 'Discusiones', value: stats.discussions, icon: MessagesSquare },
    { label: 'Eventos Este Mes', value: stats.eventsThisMonth, icon: CalendarDays },
    { label: 'Sesiones con CEOs', value: stats.ceoSessions, icon: Video },
  ]
  return (
    <section aria-labelledby="stats-title" className="rounded-xl border bg-card p-5">
      <h2 id="stats-title" className="text-base font-semibold">
        La comunidad
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-4">
        {items.map(({ label, value, icon: Icon }) => (
          // The number reads first on screen; <dt> comes first in the list, as a <dl> wants.
          <div key={label} className="flex flex-col-reverse justify-end">
            <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <Icon className="size-3.5 shrink-0 text-primary" aria-hidden /> {label}
            </dt>
            <dd className="text-xl font-bold tabular-nums">{value.toLocaleString('es-ES')}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
