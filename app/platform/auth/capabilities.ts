import { fullDateTime } from '~/platform/dates'
import type { Role } from './schema'

/**
 * What each role may do, in one place: features ask `can(user, 'manage-events')` instead
 * of checking role names. Spec: moderators moderate content and manage events; admins do
 * everything; members act on their own content only (checked by ownership where it applies).
 */
const CAPABILITIES = {
  'moderate-content': ['admin', 'moderator'],
  'manage-events': ['admin', 'moderator'],
  'manage-sessions': ['admin'],
  'pin-posts': ['admin'],
  'manage-members': ['admin'],
  // Expelling a member, and letting an expelled one back (decisions/0029).
  'ban-members': ['admin'],
} as const satisfies Record<string, readonly Role[]>

/**
 * `participate` (posting, commenting, liking, reporting: every write of a signed-in member) is
 * everyone's but a member's whose suspension is running, whatever their roles (decisions/0029).
 */
export type Capability = keyof typeof CAPABILITIES | 'participate'

/** What of a member's standing decides `participate`: moderation's read-only mode. */
export interface Standing {
  suspendedUntil?: Date | null
  suspensionReason?: string | null
}

export interface CapabilityHolder {
  roles: readonly Role[]
  profile?: Standing | null
}

/** Whom the guard primitives judge (platform/auth/guards.server.ts); the account feature's `CurrentUser` is one. */
export interface Viewer extends CapabilityHolder {
  id: string
  /** Spec: premium or admin. */
  hasAccess: boolean
  /** Why this session's admin role waits for the second factor (decisions/0026), or null. */
  adminWait: string | null
}

export function can(user: CapabilityHolder | null | undefined, capability: Capability) {
  if (!user) return false
  if (capability === 'participate') return !((user.profile?.suspendedUntil?.getTime() ?? 0) > Date.now())
  return (CAPABILITIES[capability] as readonly Role[]).some((role) => user.roles.includes(role))
}

/** What a member without `participate` is told, wherever they are refused or read: until when and why. */
export function readOnlyNotice({ suspendedUntil, suspensionReason }: Standing) {
  const reason = suspensionReason?.trim()
  // The moderator's reason may end its own sentence: it is not given a second full stop.
  const why = reason ? ` Motivo: ${/[.!?…]$/.test(reason) ? reason : `${reason}.`}` : ''
  return {
    title: 'Tu cuenta está en modo lectura',
    description: `Hasta el ${fullDateTime(suspendedUntil ?? Date.now())}.${why} Puedes leer la comunidad, pero no publicar, comentar ni dar like.`,
  }
}
