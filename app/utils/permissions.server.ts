import { redirect } from 'react-router'
import type { Role } from '~/db/schema'
import { getProfileByUserId, type Profile } from '~/models/profile.server'
import { getUserRoles } from '~/models/role.server'
import { getAuth } from './auth.server'
import { type Capability, can } from './capabilities'
import { isProfileComplete } from './profile-completeness'

export interface CurrentUser {
  id: string
  email: string
  name: string
  profile: Profile | null
  roles: Role[]
  isAdmin: boolean
  isModerator: boolean
  /** Spec: premium or admin. */
  hasAccess: boolean
}

// Loaders of one navigation run in parallel and all need the user: look it up once per request.
const cache = new WeakMap<Request, Promise<CurrentUser | null>>()

export function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  let pending = cache.get(request)
  if (!pending) {
    pending = loadCurrentUser(request)
    cache.set(request, pending)
  }
  return pending
}

async function loadCurrentUser(request: Request): Promise<CurrentUser | null> {
  const session = await getAuth().api.getSession({ headers: request.headers })
  if (!session) return null
  const [profile, roles] = await Promise.all([getProfileByUserId(session.user.id), getUserRoles(session.user.id)])
  const isAdmin = roles.includes('admin')
  return {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    profile,
    roles,
    isAdmin,
    isModerator: roles.includes('moderator'),
    hasAccess: isAdmin || Boolean(profile?.isPremium),
  }
}

function safeRedirectTarget(request: Request) {
  const url = new URL(request.url)
  return `${url.pathname}${url.search}`
}

/** Without a session: to /auth, remembering where the visitor was going. */
export async function requireUser(request: Request) {
  const user = await getCurrentUser(request)
  if (!user) {
    const params = new URLSearchParams({ redirectTo: safeRedirectTarget(request) })
    throw redirect(`/auth?${params}`)
  }
  return user
}

/** Signed-in visitors have nothing to do on the sign-in pages. */
export async function requireAnonymous(request: Request) {
  const user = await getCurrentUser(request)
  if (user) throw redirect('/comunidad')
}

/** The community is only for members with the five profile items; others go to /perfil. */
export async function requireCompleteProfile(request: Request) {
  const user = await requireUser(request)
  if (!isProfileComplete(user.profile)) throw redirect('/perfil?incompleto=1')
  return user
}

/** Premium or admin (spec: hasAccess); anything else is refused with 403. */
export async function requireAccess(request: Request) {
  const user = await requireUser(request)
  if (!user.hasAccess) throw new Response('Necesitas acceso premium', { status: 403 })
  return user
}

/** A capability from the permission module, or 403. */
export async function requireCapability(request: Request, capability: Capability) {
  const user = await requireUser(request)
  if (!can(user, capability)) throw new Response('No tienes permiso para esta acción', { status: 403 })
  return user
}

export async function requireAdmin(request: Request) {
  const user = await requireUser(request)
  if (!user.isAdmin) throw new Response('Solo para administradores', { status: 403 })
  return user
}

/** Where a redirect after sign-in may go: only paths on this site. */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/comunidad') {
  if (typeof target !== 'string' || !target.startsWith('/')) return fallback
  // Browsers drop tabs and newlines and read '\' as '/', so '/\t/evil' is '//evil': judge the
  // path as a URL parser does and keep it only if it stays on this origin.
  const base = 'http://same.origin'
  let resolved: URL
  try {
    resolved = new URL(target, base)
  } catch {
    return fallback
  }
  if (resolved.origin !== base || /[\u0000-\u001f\\]/.test(target)) return fallback
  return resolved.pathname + resolved.search + resolved.hash
}
