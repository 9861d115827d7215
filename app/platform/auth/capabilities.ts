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
} as const satisfies Record<string, readonly Role[]>

export type Capability = keyof typeof CAPABILITIES

export function can(user: { roles: readonly Role[] } | null | undefined, capability: Capability) {
  if (!user) return false
  return (CAPABILITIES[capability] as readonly Role[]).some((role) => user.roles.includes(role))
}
