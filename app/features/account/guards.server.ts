import { redirect } from 'react-router'
import { noteActive } from '~/platform/auth/activity.server'
import { can, type Viewer } from '~/platform/auth/capabilities'
import type { Role } from '~/platform/auth/schema'
import { sessionCookieOf } from '~/platform/auth/session-cookie'
import { cachedViewer, keepViewer } from '~/platform/auth/viewer-cache.server'
import { getEnv } from '~/platform/env.server'
import { oncePerRequest } from '~/platform/http/request-context.server'
import { refuse, unavailableIfDatabaseAway } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { getAuth } from './auth.server'
import { isProfileComplete } from './profile-completeness'
import { getViewer, type Profile } from './profile.server'

/*
 * The page guards: they read the session and the member's profile, so they live with the feature
 * that owns both. The primitives that judge a viewer already found (`requireAccess`,
 * `requireCapability`, `requireParticipation`) are the platform's (platform/auth/guards.server.ts).
 */

export interface CurrentUser extends Viewer {
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
    adminWait: mustEnrolTwoFactor ? ADMIN_TWO_FACTOR_MESSAGE : mustSignInWithCode ? ADMIN_SIGN_IN_AGAIN_MESSAGE : null,
    hasAccess: isAdmin || Boolean(profile?.isPremium),
  }
  if (token) keepViewer(token, user.id, user, session.session.expiresAt)
  return user
}

export const ADMIN_TWO_FACTOR_MESSAGE =
  'Activa la verificación en dos pasos en tu perfil para usar la consola y las herramientas de administración'
export const ADMIN_SIGN_IN_AGAIN_MESSAGE =
  'Por seguridad, vuelve a iniciar sesión con el código de tu aplicación para usar la consola y las herramientas de administración'

/** The console sends a waiting admin to 'Seguridad' in /perfil with the reason. */
async function sendWaitingAdminToProfile(user: CurrentUser) {
  if (user.adminWait) throw await redirectWithToast('/perfil#seguridad', { type: 'info', title: user.adminWait })
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
  if (user.adminWait) refuse(403, user.adminWait, { detail: { userId: user.id } })
  if (!user.isAdmin) refuse(403, 'Solo para administradores', { detail: { userId: user.id } })
  return user
}
