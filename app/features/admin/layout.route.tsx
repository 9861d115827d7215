import { TabNav } from '~/ui/tab-nav'
import { Outlet, redirect } from 'react-router'
import { withBell } from '~/features/notifications/components/notification-bell'
import { requireModerationConsole } from '~/features/account/guards.server'
import { type ConsoleEntry, consoleEntries } from '~/platform/parts.server'
import { site } from '~/site.config'
import type { Route } from './+types/layout.route'

export const meta: Route.MetaFunction = () => [{ title: `Consola · ${site.name}` }, { name: 'robots', content: 'noindex' }]

/** The console's own pages around those the features declare in their parts (admissions, moderation…). */
const OWN_FIRST = [
  { path: '/admin', label: 'Panel' },
  { path: '/admin/miembros', label: 'Miembros' },
]
const OWN_LAST = [
  { path: '/admin/trabajos', label: 'Trabajos' },
  { path: '/admin/registro', label: 'Registro' },
  { path: '/admin/ajustes', label: 'Ajustes' },
]

export const handle = withBell

const tabs = (entries: readonly ConsoleEntry[]) => entries.map(({ path, label }) => ({ path, label }))

/** Moderators reach the console for the pages declared open to them only; every other page is an admin's (its own guard). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireModerationConsole(request)
  if (user.isAdmin) return { sections: [...OWN_FIRST, ...tabs(consoleEntries()), ...OWN_LAST], isAdmin: true }
  const sections = tabs(consoleEntries().filter((entry) => entry.moderators))
  if (!sections.some((section) => section.path === new URL(request.url).pathname)) throw redirect(sections[0]!.path)
  return { sections, isAdmin: false }
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
