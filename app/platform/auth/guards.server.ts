import { redirect } from 'react-router'
import { getViewer, type Profile } from '~/features/account/profile.server'
import { isProfileComplete } from '~/features/account/profile-completeness'
import { oncePerRequest } from '~/platform/http/request-context.server'
import { getEnv } from '~/platform/env.server'
import { refuse, refuseReadOnly, unavailableIfDatabaseAway } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { noteActive } from './activity.server'
import { getAuth } from './auth.server'
import { cachedViewer, keepViewer } from './viewer-cache.server'
import { type Capability, can } from './capabilities'
import type { Role } from './schema'
import { sessionCookieOf } from './session-cookie'

export interface CurrentUser {
  id: string
  email: string
  name: string
  profile: Profile | null
  roles: Role[]
  isAdmin: boolean
  /** Sign-in asks for a code from an authenticator app (decisions/0026). */
  twoFactorEnabled: boolean
  /**
   * An admin without two-factor sign-in while ADMIN_TWO_FACTOR is 'required': their admin role
   * waits (not in `roles`, `isAdmin` false) until they turn it on in /perfil.
   */
  mustEnrolTwoFactor: boolean
  /**
   * An admin with two-factor sign-in on whose session did not pass it (opened before it was turned
   * on, or by a passkey that did not verify the person): the admin role waits the same way until
   * they sign in again with a code, whatever ADMIN_TWO_FACTOR says.
   */
  mustSignInWithCode: boolean
  /** Spec: premium or admin. */
  hasAccess: boolean
}

/**
 * The signed-in user, or null. For pages that anyone may see (the root, public resources).
 * Loaders of one navigation run in parallel and all need the user: it is looked up once per
 * HTTP request (each loader gets its own Request object, so the request's async context keeps it).
 */
export function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  // The database away is a 503 for the page (or the form), never a sign-in page or a 500.
  return oncePerRequest('current-user', async () => {
    const user = await loadCurrentUser(request).catch(unavailableIfDatabaseAway)
    if (user) noteActive(user.id)
    return user
  })
}

async function loadCurrentUser(request: Request): Promise<CurrentUser | null> {
  // The cookie as sent: a cache key only a valid sign-in ever produced.
  const token = sessionCookieOf(request)
  const kept = token ? cachedViewer<CurrentUser>(token) : undefined
  if (kept) return kept
  const session = await getAuth().api.getSession({ headers: request.headers })
  if (!session) return null
  const { profile, roles: granted } = await getViewer(session.user.id)
  const twoFactorEnabled = Boolean((session.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled)
  const admin = granted.includes('admin')
  const mustEnrolTwoFactor = admin && !twoFactorEnabled && getEnv().ADMIN_TWO_FACTOR === 'required'
  const mustSignInWithCode = admin && twoFactorEnabled && !session.session.twoFactorPassed
  const roles = mustEnrolTwoFactor || mustSignInWithCode ? granted.filter((role) => role !== 'admin') : granted
  const isAdmin = roles.includes('admin')
  const user: CurrentUser = {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    profile,
    roles,
    isAdmin,
    twoFactorEnabled,
    mustEnrolTwoFactor,
    mustSignInWithCode,
    hasAccess: isAdmin || Boolean(profile?.isPremium),
  }
  if (token) keepViewer(token, user.id, user, session.session.expiresAt)
  return user
}

export const ADMIN_TWO_FACTOR_MESSAGE =
  'Activa la verificación en dos pasos en tu perfil para usar la consola y las herramientas de administración'
export const ADMIN_SIGN_IN_AGAIN_MESSAGE =
  'Por seguridad, vuelve a iniciar sesión con el código de tu aplicación para usar la consola y las herramientas de administración'

/** Why this session's admin role waits (decisions/0026), or null. */
const adminWait = (user: CurrentUser) =>
  user.mustEnrolTwoFactor ? ADMIN_TWO_FACTOR_MESSAGE : user.mustSignInWithCode ? ADMIN_SIGN_IN_AGAIN_MESSAGE : null

/** The console sends a waiting admin to 'Seguridad' in /perfil with the reason. */
async function sendWaitingAdminToProfile(user: CurrentUser) {
  const wait = adminWait(user)
  if (wait) throw await redirectWithToast('/perfil#seguridad', { type: 'info', title: wait })
}

/** Without a session: to /auth, remembering where the visitor was going. */
export async function requireUser(request: Request) {
  const user = await getCurrentUser(request)
  if (!user) {
    const url = new URL(request.url)
    throw redirect(`/auth?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`)
  }
  return user
}

/** Signed-in visitors have nothing to do on the sign-in pages. */
export async function requireAnonymous(request: Request) {
  if (await getCurrentUser(request)) throw redirect('/comunidad')
}

/** The community is only for members with the five profile items; others go to /perfil. */
export async function requireCompleteProfile(request: Request) {
  const user = await requireUser(request)
  if (!isProfileComplete(user.profile)) throw redirect('/perfil?incompleto=1')
  return user
}

/**
 * The operator's console (/admin): a visitor signs in first; to anyone signed in who is not an
 * admin the console does not exist (404), so its pages are not announced to members.
 */
export async function requireAdminConsole(request: Request) {
  const user = await requireUser(request)
  await sendWaitingAdminToProfile(user)
  if (!user.isAdmin) refuse(404, 'Página no encontrada', { detail: { userId: user.id, console: true } })
  return user
}

/** The console's moderation queue (issue 28): moderators and admins; to other members it does not exist. */
export async function requireModerationConsole(request: Request) {
  const user = await requireUser(request)
  await sendWaitingAdminToProfile(user)
  if (!can(user, 'moderate-content')) refuse(404, 'Página no encontrada', { detail: { userId: user.id, console: true } })
  return user
}

export async function requireAdmin(request: Request) {
  const user = await requireUser(request)
  const wait = adminWait(user)
  if (wait) refuse(403, wait, { detail: { userId: user.id } })
  if (!user.isAdmin) refuse(403, 'Solo para administradores', { detail: { userId: user.id } })
  return user
}

/** Premium or admin (spec: hasAccess), or a 403: 'Acceso Premium Requerido' and the spec's message for what was tried. */
export function requireAccess(user: CurrentUser, description = 'Necesitas acceso premium') {
  if (!user.hasAccess) refuse(403, { title: 'Acceso Premium Requerido', description }, { detail: { userId: user.id } })
}

/** A capability of the user's roles (capabilities.ts), or a 403 with the action's message. */
export function requireCapability(user: CurrentUser, capability: Capability, message: string) {
  const wait = adminWait(user)
  if (!can(user, capability) && wait && can({ roles: ['admin'] }, capability))
    refuse(403, wait, { detail: { userId: user.id, capability } })
  if (!can(user, capability)) refuse(403, message, { detail: { userId: user.id, capability } })
}

/**
 * Where a redirect after sign-in may go: only a path on this site. Browsers drop tabs and
 * newlines and read '\' as '/', and a path that starts with two slashes is another host:
 * the target is judged as a URL parser reads it, then refused unless it stays a plain path.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/comunidad') {
  if (typeof target !== 'string' || !target.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(target)) return fallback
  const base = 'http://same.origin'
  let resolved: URL
  try {
    resolved = new URL(target, base)
  } catch {
    return fallback
  }
  const path = resolved.pathname + resolved.search + resolved.hash
  if (resolved.origin !== base || /^\/[/\\]/.test(path) || /%(2f|5c)/i.test(resolved.pathname.slice(0, 4))) return fallback
  return path
}

/**
 * `participate` (capabilities.ts), or 403 'Tu cuenta está en modo lectura' with until when and
 * why. `handleIntent` already holds every intent to it; an intent declared open while suspended
 * that is so only in part (editing one's own hidden item) asks for it where it is not.
 */
export function requireParticipation(user: CurrentUser) {
  if (!can(user, 'participate')) refuseReadOnly(user.profile!, { userId: user.id })
}
