import type { ComponentProps } from 'react'
import { Input } from './input'
import { Label } from './label'

/** A labelled input with its error message announced to screen readers. */
export function Field({
  label,
  errors,
  inputProps,
}: {
  label: string
  errors?: string[]
  inputProps: ComponentProps<'input'> & { id: string }
}) {
  const errorId = `${inputProps.id}-error`
  const hasError = Boolean(errors?.length)
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={inputProps.id}>{label}</Label>
      <Input {...inputProps} aria-invalid={hasError || undefined} aria-describedby={hasError ? errorId : undefined} />
      <p id={errorId} className="min-h-5 text-sm text-destructive" role={hasError ? 'alert' : undefined}>
        {errors?.[0]}
      </p>
    </div>
  )
}

export function FormError({ errors, id }: { errors?: string[] | null; id?: string }) {
  if (!errors?.length) return null
  return (
    <p id={id} role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {errors[0]}
    </p>
  )
}
