/** The five things a member must have before entering the community (spec: profile completeness). */
export const REQUIRED_PROFILE_FIELDS = [
  { key: 'avatarUrl', label: 'Foto profesional' },
  { key: 'firstName', label: 'Nombre' },
  { key: 'lastName', label: 'Apellido' },
  { key: 'company', label: 'Empresa actual' },
  { key: 'position', label: 'Cargo' },
] as const

export type CompletenessFields = Partial<Record<(typeof REQUIRED_PROFILE_FIELDS)[number]['key'], string | null>>

export function missingProfileFields(profile: CompletenessFields | null | undefined) {
  return REQUIRED_PROFILE_FIELDS.filter(({ key }) => !profile?.[key]?.trim())
}

export function isProfileComplete(profile: CompletenessFields | null | undefined) {
  return missingProfileFields(profile).length === 0
}
