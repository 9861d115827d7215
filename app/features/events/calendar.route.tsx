import { CalendarDays } from 'lucide-react'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { ComingSoon } from '~/features/community/components/coming-soon'
import type { Route } from './+types/calendar.route'

export async function loader({ request }: Route.LoaderArgs) {
  await requireCompleteProfile(request)
  return null
}

export default function CalendarPage() {
  return (
    <ComingSoon icon={CalendarDays} title="Calendario de eventos">
      Aquí estarán los eventos de la comunidad, con registro y calendario. Esta sección todavía no está disponible.
    </ComingSoon>
  )
}
