import { refuse, refuseReadOnly } from '~/platform/http/responses.server'
import { type Capability, can, type Viewer } from './capabilities'

/*
 * The guard primitives any feature may use on a viewer it already has. The page guards that find
 * the viewer (the session, the member's profile) are the account feature's, in its guards.server.ts.
 */

/** Premium or admin (spec: hasAccess), or a 403: 'Acceso Premium Requerido' and the spec's message for what was tried. */
export function requireAccess(user: Viewer, description = 'Necesitas acceso premium') {
  if (!user.hasAccess) refuse(403, { title: 'Acceso Premium Requerido', description }, { detail: { userId: user.id } })
}

/** A capability of the user's roles (capabilities.ts), or a 403 with the action's message. */
export function requireCapability(user: Viewer, capability: Capability, message: string) {
  if (!can(user, capability) && user.adminWait && can({ roles: ['admin'] }, capability))
    refuse(403, user.adminWait, { detail: { userId: user.id, capability } })
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
export function requireParticipation(user: Viewer) {
  if (!can(user, 'participate')) refuseReadOnly(user.profile!, { userId: user.id })
}
