import { TabNav } from '~/ui/tab-nav'
import { Outlet, redirect } from 'react-router'
import { withBell } from '~/features/notifications/components/notification-bell'
import { requireModerationConsole } from '~/features/account/guards.server'
import { site } from '~/site.config'
import type { Route } from './+types/layout.route'

export const meta: Route.MetaFunction = () => [{ title: `Consola · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const SECTIONS = [
  { path: '/admin', label: 'Panel' },
  { path: '/admin/miembros', label: 'Miembros' },
  { path: '/admin/admisiones', label: 'Admisiones' },
  { path: '/admin/moderacion', label: 'Moderación' },
  { path: '/admin/trabajos', label: 'Trabajos' },
  { path: '/admin/registro', label: 'Registro' },
  { path: '/admin/ajustes', label: 'Ajustes' },
] as const

export const handle = withBell

/** Moderators reach the console for its moderation queue only; every other page is an admin's (its own guard). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireModerationConsole(request)
  if (user.isAdmin) return { sections: SECTIONS, isAdmin: true }
  if (new URL(request.url).pathname !== '/admin/moderacion') throw redirect('/admin/moderacion')
  return { sections: SECTIONS.filter((section) => section.path === '/admin/moderacion'), isAdmin: false }
}

export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8">
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Consola</h1>
        <p className="mt-1 text-muted-foreground">
          {loaderData.isAdmin
            ? 'Cómo va la comunidad, sus miembros, las solicitudes de admisión, la moderación, los trabajos y los ajustes.'
            : 'Lo que los miembros han señalado, para decidir con un motivo.'}
        </p>
      </header>
      <TabNav label="Secciones de la consola" tabs={loaderData.sections} />
      <div className="grid min-w-0 gap-6">
        <Outlet />
      </div>
    </div>
  )
}
