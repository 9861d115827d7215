import { TabNav } from '~/ui/tab-nav'
import { Outlet } from 'react-router'
import { withBell } from '~/features/notifications/components/notification-bell'
import { requireAdminConsole } from '~/platform/auth/guards.server'
import { site } from '~/site.config'
import type { Route } from './+types/layout.route'

export const meta: Route.MetaFunction = () => [{ title: `Consola · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const SECTIONS = [
  { path: '/admin', label: 'Panel' },
  { path: '/admin/miembros', label: 'Miembros' },
  { path: '/admin/admisiones', label: 'Admisiones' },
  { path: '/admin/trabajos', label: 'Trabajos' },
  { path: '/admin/registro', label: 'Registro' },
  { path: '/admin/ajustes', label: 'Ajustes' },
] as const

export const handle = withBell

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  return null
}

export default function ConsoleLayout() {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8">
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Consola</h1>
        <p className="mt-1 text-muted-foreground">
          Cómo va la comunidad, sus miembros, las solicitudes de admisión, los trabajos y los ajustes.
        </p>
      </header>
      <TabNav label="Secciones de la consola" tabs={SECTIONS} />
      <div className="grid min-w-0 gap-6">
        <Outlet />
      </div>
    </div>
  )
}
