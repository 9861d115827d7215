import type { FieldMetadata } from '@conform-to/react'
import { Field } from '~/ui/field'

type TextField = FieldMetadata<string | null | undefined>

/** `readOnly` when an invitation fixes the address. */
export function EmailField({ field, readOnly }: { field: TextField; readOnly?: boolean }) {
  return <Field label="Email" field={field} type="email" autoComplete="email" placeholder="tu@empresa.com" readOnly={readOnly} />
}

/** `current` when the password proves who one is; otherwise it is a new one, which browsers offer to generate and save. */
export function PasswordField({ label, field, current }: { label: string; field: TextField; current?: boolean }) {
  return <Field label={label} field={field} type="password" autoComplete={current ? 'current-password' : 'new-password'} />
}

/**
 * The current password, and with `withCode` a code from the app or a recovery code: what proves who
 * one is before a change that matters (proveIdentity in profile-action.server.ts).
 */
export function IdentityFields({ fields, withCode }: { fields: { password: TextField; code: TextField }; withCode: boolean }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <PasswordField label="Contraseña actual" field={fields.password} current />
      {withCode ? <Field label="Código de la aplicación o de recuperación" field={fields.code} autoComplete="one-time-code" /> : null}
    </div>
  )
}
