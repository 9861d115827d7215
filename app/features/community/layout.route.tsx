import { NavLink, Outlet, redirect, type ShouldRevalidateFunctionArgs } from 'react-router'
import { site } from '~/site.config'
import { displayName } from '~/features/account/display-name'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { orWhenFailed } from '~/platform/http/responses.server'
import { cn } from '~/ui/cn'
import { PremiumGateProvider } from './components/premium-gate'
import { StatsPanel } from './components/stats-panel'
import { communityStats } from './stats.server'
import type { Route } from './+types/layout.route'
import { withBell } from '~/features/notifications/components/notification-bell'

export const meta: Route.MetaFunction = () => [{ title: `Comunidad · ${site.name}` }, { name: 'robots', content: 'noindex' }]

// Each tab is its own URL and route module; the layout holds only what every tab shows.
const TABS = [
  { path: '/comunidad', label: 'Comunidad' },
  { path: '/comunidad/sesiones', label: 'Sesiones' },
  { path: '/comunidad/calendario', label: 'Calendario' },
  { path: '/comunidad/miembros', label: 'Miembros' },
] as const

/** The first version named tabs with ?tab=…: those links still land on the right tab. */
const LEGACY_TABS: Record<string, string> = {
  comunidad: '/comunidad',
  sesiones: '/comunidad/sesiones',
  calendario: '/comunidad/calendario',
  miembros: '/comunidad/miembros',
}

export const handle = withBell

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  // Spec 001 §2: the video page's edit action sends '/comunidad?edit={sessionId}'.
  const editSession = url.searchParams.get('edit')
  if (editSession !== null && url.pathname.replace(/\/+$/, '') === '/comunidad') {
    throw redirect(`/comunidad/sesiones?${new URLSearchParams({ editar: editSession })}`)
  }
  const legacyTab = url.searchParams.get('tab')
  if (legacyTab !== null && url.pathname.replace(/\/+$/, '') === '/comunidad') {
    url.searchParams.delete('tab')
    const rest = url.searchParams.toString()
    throw redirect(`${LEGACY_TABS[legacyTab] ?? '/comunidad'}${rest ? `?${rest}` : ''}`, 301)
  }
  const user = await requireCompleteProfile(request)
  // Spec 001 §8: a panel that cannot count shows zeros; the tab under it still loads.
  const stats = await orWhenFailed(communityStats(), { members: 0, discussions: 0, eventsThisMonth: 0, ceoSessions: 0 }, 'stats panel')
  return { name: displayName(user.profile), hasAccess: user.hasAccess, stats }
}

/** The counters change with posts and members, not with a like or a comment. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const intent = formData?.get('intent')
  if (
    typeof intent === 'string' &&
    ['create-post', 'delete-post', 'delete-session', 'create-event', 'update-event', 'delete-event'].includes(intent)
  ) {
    return defaultShouldRevalidate
  }
  return formData ? false : defaultShouldRevalidate
}

export default function CommunityLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PremiumGateProvider hasAccess={loaderData.hasAccess}>
      <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8">
        <header>
          <h1 className="text-3xl font-bold tracking-tight">Comunidad</h1>
          <p className="mt-1 text-muted-foreground">Hola, {loaderData.name}.</p>
        </header>
        <nav aria-label="Secciones de la comunidad" className="-mx-4 flex overflow-x-auto border-b px-4 sm:gap-1">
          {TABS.map((tab) => (
            <NavLink
              key={tab.path}
              to={tab.path}
              // The feed is the index: only its own URL marks it; a tab's pages (an event) mark their tab.
              end={tab.path === '/comunidad'}
              prefetch="intent"
              className={({ isActive }) =>
                cn(
                  '-mb-px shrink-0 border-b-2 border-transparent px-2 py-2 text-sm font-medium text-muted-foreground hover:text-foreground sm:px-4',
                  isActive && 'border-primary text-foreground',
                )
              }
            >
              {tab.label}
            </NavLink>
          ))}
        </nav>
        <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
          <div className="grid min-w-0 content-start gap-4">
            <Outlet />
          </div>
          <aside>
            <StatsPanel stats={loaderData.stats} />
          </aside>
        </div>
      </div>
    </PremiumGateProvider>
  )
}
