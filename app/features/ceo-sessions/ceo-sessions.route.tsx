import { Video } from 'lucide-react'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { ComingSoon } from '~/features/community/components/coming-soon'
import type { Route } from './+types/ceo-sessions.route'

export async function loader({ request }: Route.LoaderArgs) {
  await requireCompleteProfile(request)
  return null
}

export default function CeoSessionsPage() {
  return (
    <ComingSoon icon={Video} title="Sesiones con CEOs">
      Aquí estarán las grabaciones de las sesiones mensuales con CEOs. Esta sección todavía no está disponible.
    </ComingSoon>
  )
}
