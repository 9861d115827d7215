export interface NameFields {
  displayName?: string | null
  firstName?: string | null
  lastName?: string | null
}

/** Who wrote what a deleted member left in shared conversations (ADR 0028). */
export const DELETED_MEMBER = 'Miembro eliminado'

/** Spec rule: display_name, else first and last name, else first name, else the fallback. */
export function displayName(profile: NameFields | null | undefined, fallback = 'Usuario') {
  const display = profile?.displayName?.trim()
  if (display) return display
  const first = profile?.firstName?.trim()
  const last = profile?.lastName?.trim()
  if (first && last) return `${first} ${last}`
  if (first) return first
  return fallback
}
