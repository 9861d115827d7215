import { can } from '~/platform/auth/capabilities'
import { useEffect } from 'react'
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/root'
import { showToast, Toaster } from '~/ui/toast'
import { GeneralErrorBoundary } from '~/ui/error-boundary'
import { useFocusRescue } from '~/ui/use-focus-rescue'
import { Footer } from '~/features/site/components/footer'
import { TopBar, type TopBarUser } from '~/features/site/components/top-bar'
import type { withBell } from '~/features/notifications/components/notification-bell'
import { lazyPart } from '~/ui/lazy-part'
import { displayName } from '~/features/account/display-name'
import { isProfileComplete } from '~/features/account/profile-completeness'
import { SearchBox } from '~/features/search/components/search-box'
import { MessagesLink } from '~/features/messages/components/messages-link'
import { useNonce } from '~/platform/document/nonce'
import { getCurrentUser } from '~/features/account/guards.server'
import { getToast } from '~/platform/http/toast.server'
import { orWhenFailed } from '~/platform/http/responses.server'
import { readSettings, settingDefaults } from '~/platform/settings/settings.server'
import { admissionLink, admissionSettings } from '~/features/admission/settings.server'
import type { Admission } from '~/features/site/components/use-admission'
import { logger } from '~/platform/logger.server'
import stylesheet from './app.css?url'

/**
 * The stylesheet is one file with a hashed name, cached for a year (decisions/0010): every page
 * after the first needs no CSS from the network, and no document carries it again.
 */
export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  // Installable (issue 42): the manifest, and the icon iOS puts on the Home Screen (it reads no manifest icon).
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { toast, headers }, settings] = await Promise.all([
    // Spec 000 §8: when the check fails the member is treated as neither admin nor premium; the
    // frame still shows (and the page's own loader says what it cannot do).
    getCurrentUser(request).catch((error: unknown) => {
      logger.warn({ err: error }, 'Viewer not loaded for the frame')
      return null
    }),
    getToast(request),
    // Kept by every process and renewed on change (platform/settings): no statement per page.
    orWhenFailed(readSettings(admissionSettings), settingDefaults(admissionSettings), 'settings'),
  ])
  const topBarUser: TopBarUser | null = user
    ? {
        email: user.email,
        name: user.profile ? displayName(user.profile, '') || null : user.name || null,
        avatarUrl: user.profile?.avatarUrl ?? null,
        isPremium: Boolean(user.profile?.isPremium),
        isAdmin: user.isAdmin,
        isModerator: can(user, 'moderate-content'),
        // The community's guard (requireCompleteProfile): who may read it may search it.
        canSearch: isProfileComplete(user.profile),
      }
    : null
  const unreadNotifications = user?.profile?.unreadNotifications ?? 0
  // Kept on the profile by the messages feature (issue 41): no statement of its own per page.
  const unreadMessages = user?.profile?.unreadMessages ?? 0
  const admission: Admission = { ...admissionLink(settings), launchAt: settings.admissionLaunchAt }
  return data({ user: topBarUser, unreadNotifications, unreadMessages, toast, admission }, { headers: headers ?? undefined })
}

// The bell comes with a members' page (its route's handle is notifications' `withBell`); a member
// on a public page (the landing, prices, legal texts) gets it a moment later, and a visitor's
// first load goes without it.
const LateBell = lazyPart(
  () => import('~/features/notifications/components/notification-bell').then((module) => module.NotificationBell),
  <span className="inline-block size-10" aria-hidden />,
)

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  const rootData = useRouteLoaderData<typeof loader>('root')
  const Bell =
    useMatches()
      .map((match) => (match.handle as Partial<typeof withBell> | undefined)?.bell)
      .find(Boolean) ?? LateBell
  useEffect(() => {
    // Marks the page as interactive (also an error page, which renders without App); the
    // end-to-end tests wait for it before typing.
    document.documentElement.dataset.hydrated = ''
    // Its own small chunk, fetched after hydration: no page's first load grows (issue 42).
    if (import.meta.env.PROD) void import('~/features/phone/register-worker').then((module) => module.registerServiceWorker())
  }, [])
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b4f4a" />
        {/* Added to an iPhone's Home Screen, the site opens as an app (and only then may it ask for push). */}
        <meta name="mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-title" content="Círculo CEO" />
        <meta name="apple-mobile-web-app-status-bar-style" content="default" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#contenido"
          className="sr-only z-50 rounded-md bg-background px-4 py-2 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Saltar al contenido
        </a>
        <TopBar
          user={rootData?.user ?? null}
          search={rootData?.user?.canSearch ? <SearchBox /> : null}
          bell={rootData?.user ? <Bell initialUnread={rootData.unreadNotifications} /> : null}
          messages={rootData?.user?.canSearch ? <MessagesLink initialUnread={rootData.unreadMessages} /> : null}
        />
        {/* Focusable from script only: the skip link lands here, and so does focus whose control left the page. */}
        <main id="contenido" tabIndex={-1} className="flex-1 pt-16 outline-none">
          {children}
        </main>
        <Footer />
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>()
  useFocusRescue()
  useEffect(() => {
    if (toast) showToast(toast)
  }, [toast])
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
