import { can, readOnlyNotice } from '~/platform/auth/capabilities'
import { TabNav } from '~/ui/tab-nav'
import { Outlet, redirect, type ShouldRevalidateFunctionArgs } from 'react-router'
import { Megaphone } from 'lucide-react'
import { site } from '~/site.config'
import { readSettings, settingDefaults } from '~/platform/settings/settings.server'
import { displayName } from '~/features/account/display-name'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { orWhenFailed } from '~/platform/http/responses.server'
import { PremiumGateProvider } from './components/premium-gate'
import { StatsPanel } from './components/stats-panel'
import { activeAnnouncement, communitySettings } from './settings.server'
import { communityStats } from './stats.server'
import type { Route } from './+types/layout.route'
import { withBell } from '~/features/notifications/components/notification-bell'
import { MembershipBanner } from '~/features/billing/components/membership-banner'
import { membershipOf } from '~/features/billing/lifecycle.server'

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
  const [stats, settings, membership] = await Promise.all([
    orWhenFailed(communityStats(), { members: 0, discussions: 0, eventsThisMonth: 0, ceoSessions: 0 }, 'stats panel'),
    orWhenFailed(readSettings(communitySettings), settingDefaults(communitySettings), 'settings'),
    // Issue 40: a failed payment or a cancellation at the period's end is told above every tab.
    orWhenFailed(membershipOf(user.id), null, 'membership'),
  ])
  // Issue 28: a member in read-only mode is told until when and why, above what they cannot act on.
  const notice = can(user, 'participate') ? null : readOnlyNotice(user.profile!)
  const suspension = notice ? `${notice.title}. ${notice.description}` : null
  return {
    name: displayName(user.profile),
    hasAccess: user.hasAccess,
    stats,
    announcement: activeAnnouncement(settings),
    suspension,
    membership,
  }
}

/** The counters change with posts and members, not with a like or a comment; the membership banner with its own button. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const intent = formData?.get('intent')
  if (
    typeof intent === 'string' &&
    ['create-post', 'delete-post', 'delete-session', 'create-event', 'update-event', 'delete-event', 'keep-membership'].includes(intent)
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
        {loaderData.suspension ? (
          <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
            {loaderData.suspension}
          </p>
        ) : null}
        <MembershipBanner membership={loaderData.membership} />
        {loaderData.announcement ? (
          <aside
            aria-label="Aviso"
            className="flex gap-2 rounded-lg border border-gold/40 bg-gold/10 px-4 py-3 text-sm [overflow-wrap:anywhere]"
          >
            <Megaphone className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>{loaderData.announcement}</p>
          </aside>
        ) : null}
        <TabNav label="Secciones de la comunidad" tabs={TABS} />
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
