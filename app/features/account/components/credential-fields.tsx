import type { FieldMetadata } from '@conform-to/react'
import { Field } from '~/ui/field'

type TextField = FieldMetadata<string | null | undefined>

export function EmailField({ field }: { field: TextField }) {
  return <Field label="Email" field={field} type="email" autoComplete="email" placeholder="tu@empresa.com" />
}

/** `current` when the password proves who one is; otherwise it is a new one, which browsers offer to generate and save. */
export function PasswordField({ label, field, current }: { label: string; field: TextField; current?: boolean }) {
  return <Field label={label} field={field} type="password" autoComplete={current ? 'current-password' : 'new-password'} />
}
