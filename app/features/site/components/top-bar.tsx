import { LayoutDashboard, LogOut, Menu, User, Users, X } from 'lucide-react'
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { Form, Link, useLocation, useNavigate } from 'react-router'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { UserAvatar } from '~/ui/user-avatar'
import { site } from '~/site.config'
import { DropdownMenu, MenuContent, MenuItem, MenuSeparator } from '~/ui/dropdown-menu'

export interface TopBarUser {
  email: string
  name: string | null
  avatarUrl: string | null
  isPremium: boolean
  isAdmin: boolean
  /** A moderator who is not an admin: their console is the moderation queue. */
  isModerator?: boolean
  /** May read the community, so may search it (the top bar's search box). */
  canSearch?: boolean
}

const SECTION_LINKS = [
  { label: 'Beneficios', anchor: 'beneficios' },
  { label: 'Cómo Funciona', anchor: 'como-funciona' },
  { label: 'Precios', to: '/pricing' },
  { label: 'FAQ', anchor: 'faq' },
] as const

/** Where a signed-in member goes from their menu, on wide screens and on phones alike. */
const USER_LINKS = [
  { label: 'Comunidad', to: '/comunidad', Icon: Users },
  { label: 'Perfil', to: '/perfil', Icon: User },
]
/** Admins also reach the operator's console. */
const ADMIN_LINK = { label: 'Consola', to: '/admin', Icon: LayoutDashboard }

const MODERATION_LINK = { label: 'Moderación', to: '/admin/moderacion', Icon: LayoutDashboard }
const linksOf = (user: TopBarUser) =>
  user.isAdmin ? [...USER_LINKS, ADMIN_LINK] : user.isModerator ? [...USER_LINKS, MODERATION_LINK] : USER_LINKS

/** Delay before scrolling when the bar first has to bring the visitor home (spec: ~100 ms). */
const SCROLL_AFTER_NAVIGATION_MS = 100

function useSectionNavigation() {
  const location = useLocation()
  const navigate = useNavigate()
  return (event: MouseEvent<HTMLAnchorElement>, anchor: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    const scroll = (triesLeft = 20) => {
      const target = document.getElementById(anchor)
      // On a slow device the home page may not be painted yet 100 ms after navigating: look again.
      if (!target) {
        if (triesLeft > 0) setTimeout(() => scroll(triesLeft - 1), SCROLL_AFTER_NAVIGATION_MS)
        return
      }
      const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches
      target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' })
      history.replaceState(history.state, '', `/#${anchor}`)
    }
    if (location.pathname === '/') return scroll()
    void Promise.resolve(navigate('/')).then(() => setTimeout(() => scroll(), SCROLL_AFTER_NAVIGATION_MS))
  }
}

export function TopBar({
  user,
  bell,
  search,
  messages,
}: {
  user: TopBarUser | null
  bell?: ReactNode
  search?: ReactNode
  /** The unread messages' link (issue 41), for members who may read the community. */
  messages?: ReactNode
}) {
  const [openMenu, setOpenMenu] = useState<'nav' | 'user' | null>(null)
  const barRef = useRef<HTMLElement>(null)
  const navToggle = useRef<HTMLButtonElement>(null)
  const userToggle = useRef<HTMLButtonElement>(null)
  const goToSection = useSectionNavigation()
  const location = useLocation()

  // Mobile menus close on navigation, outside click and Escape.
  useEffect(() => setOpenMenu(null), [location.pathname, location.search])
  useEffect(() => {
    if (!openMenu) return
    const onPointerDown = (event: PointerEvent) => {
      if (!barRef.current?.contains(event.target as Node)) setOpenMenu(null)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpenMenu(null)
      // The menu leaves the page with whatever had focus in it: focus goes back to its button.
      ;(openMenu === 'nav' ? navToggle : userToggle).current?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [openMenu])

  const toggle = (menu: 'nav' | 'user') => setOpenMenu((current) => (current === menu ? null : menu))
  const shownName = user?.name || user?.email || ''

  const sectionLinks = (onPick?: () => void) =>
    SECTION_LINKS.map((link) =>
      'to' in link ? (
        <Link key={link.label} to={link.to} onClick={onPick} className="rounded-md px-3 py-2 text-sm font-medium hover:bg-accent">
          {link.label}
        </Link>
      ) : (
        <a
          key={link.label}
          href={`/#${link.anchor}`}
          onClick={(event) => {
            goToSection(event, link.anchor)
            onPick?.()
          }}
          className="rounded-md px-3 py-2 text-sm font-medium hover:bg-accent"
        >
          {link.label}
        </a>
      ),
    )

  return (
    <header
      ref={barRef}
      className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="text-lg font-bold tracking-tight text-primary">
          {site.name}
        </Link>

        <nav aria-label="Principal" className="hidden items-center gap-1 md:flex">
          {sectionLinks()}
        </nav>

        <div className="flex items-center gap-2">
          {user ? (
            <>
              {search}
              {messages}
              {bell}
              <div className="hidden md:block">
                <DropdownMenu
                  modal={false}
                  trigger={
                    <button
                      type="button"
                      className="rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
                      aria-label="Menú de usuario"
                    >
                      <UserAvatar avatarUrl={user.avatarUrl} name={shownName} />
                    </button>
                  }
                >
                  <MenuContent align="end" sideOffset={8} className="z-50 w-64 rounded-lg border bg-background p-1 shadow-lg">
                    <UserSummary user={user} />
                    <MenuSeparator className="my-1 h-px bg-border" />
                    {linksOf(user).map(({ label, to, Icon }) => (
                      <MenuItem key={to} asChild>
                        <Link
                          to={to}
                          className="flex items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-accent"
                        >
                          <Icon className="size-4" aria-hidden /> {label}
                        </Link>
                      </MenuItem>
                    ))}
                    <MenuItem className="rounded-md outline-none data-[highlighted]:bg-accent" onSelect={(event) => event.preventDefault()}>
                      <SignOutButton />
                    </MenuItem>
                  </MenuContent>
                </DropdownMenu>
              </div>
              <button
                ref={userToggle}
                type="button"
                className="rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:hidden"
                aria-label="Menú de usuario"
                aria-expanded={openMenu === 'user'}
                aria-controls="mobile-user-menu"
                onClick={() => toggle('user')}
              >
                <UserAvatar avatarUrl={user.avatarUrl} name={shownName} />
              </button>
            </>
          ) : (
            <div className="hidden items-center gap-2 sm:flex">
              <Button asChild variant="ghost" size="sm">
                <Link to="/auth">Iniciar Sesión</Link>
              </Button>
              <Button asChild size="sm">
                <Link to="/auth?tab=registro">Registrarse</Link>
              </Button>
            </div>
          )}
          <Button
            ref={navToggle}
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label={openMenu === 'nav' ? 'Cerrar menú' : 'Abrir menú'}
            aria-expanded={openMenu === 'nav'}
            aria-controls="mobile-nav-menu"
            onClick={() => toggle('nav')}
          >
            {openMenu === 'nav' ? <X aria-hidden /> : <Menu aria-hidden />}
          </Button>
        </div>
      </div>

      {openMenu === 'nav' ? (
        <nav id="mobile-nav-menu" aria-label="Menú" className="border-t bg-background px-4 py-3 md:hidden">
          <div className="flex flex-col">
            {sectionLinks(() => setOpenMenu(null))}
            {user ? null : (
              <div className="mt-2 grid grid-cols-2 gap-2 border-t pt-3">
                <Button asChild variant="outline">
                  <Link to="/auth">Iniciar Sesión</Link>
                </Button>
                <Button asChild>
                  <Link to="/auth?tab=registro">Registrarse</Link>
                </Button>
              </div>
            )}
          </div>
        </nav>
      ) : null}

      {openMenu === 'user' && user ? (
        <div id="mobile-user-menu" className="border-t bg-background px-4 py-3 md:hidden">
          <UserSummary user={user} />
          <div className="mt-2 flex flex-col">
            {linksOf(user).map(({ label, to, Icon }) => (
              <Link key={to} to={to} className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-accent">
                <Icon className="size-4" aria-hidden /> {label}
              </Link>
            ))}
            <SignOutButton />
          </div>
        </div>
      ) : null}
    </header>
  )
}

function UserSummary({ user }: { user: TopBarUser }) {
  return (
    <div className="px-3 py-2">
      <div className="flex items-center gap-2">
        <p className="truncate text-sm font-semibold">{user.name || user.email}</p>
        {user.isPremium ? <Badge variant="premium">Premium</Badge> : null}
      </div>
      <p className="truncate text-xs text-muted-foreground">{user.email}</p>
    </div>
  )
}

function SignOutButton() {
  return (
    <Form method="post" action="/logout">
      <input type="hidden" name="intent" value="logout" />
      <button type="submit" className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-accent">
        <LogOut className="size-4" aria-hidden /> Cerrar Sesión
      </button>
    </Form>
  )
}
