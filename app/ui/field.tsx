import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import { type ComponentProps, type ReactNode, useEffect, useEffectEvent, useId, useRef, useState } from 'react'
import { cn } from './cn'
import { Input, Select } from './input'
import { Label } from './label'
import { useHydrated } from './use-hydrated'

/**
 * Form fields for Conform (docs/decisions/0012): a label, the control, and its first error
 * announced to screen readers under the control.
 */
export function Field<Schema>({
  label,
  field,
  type = 'text',
  ...props
}: {
  label: ReactNode
  field: FieldMetadata<Schema, any, any>
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'datetime-local' | 'date'
} & Omit<ComponentProps<'input'>, 'type'>) {
  const errorId = `${field.id}-error`
  const hasError = Boolean(field.errors?.length)
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={field.id}>{label}</Label>
      <Input
        {...getInputProps(field, { type })}
        {...props}
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? errorId : undefined}
      />
      <ErrorLine id={errorId} errors={field.errors} />
    </div>
  )
}

export function TextareaField({
  label,
  field,
  className,
  ...props
}: { label: ReactNode; field: FieldMetadata<string | null | undefined> } & ComponentProps<'textarea'>) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={field.id}>{label}</Label>
      <textarea
        {...getTextareaProps(field)}
        {...props}
        className={cn(
          'rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive md:text-sm',
          className,
        )}
      />
      <ErrorLine id={field.errorId} errors={field.errors} />
    </div>
  )
}

/** A native select (the phone's own picker) with a first option that asks to choose. */
export function SelectField<Schema>({
  label,
  field,
  options,
  placeholder = 'Elige una opción',
}: {
  label: ReactNode
  field: FieldMetadata<Schema, any, any>
  options: Record<string, string>
  placeholder?: string
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={field.id}>{label}</Label>
      <Select
        {...getSelectProps(field)}
        className="w-full aria-[invalid=true]:border-destructive"
        none={placeholder}
        options={Object.entries(options)}
      />
      <ErrorLine id={field.errorId} errors={field.errors} />
    </div>
  )
}

/**
 * A file picker in Spanish: the browser's own button says 'Choose file' in the browser's
 * language, so once the page runs the native input (kept for the keyboard, screen readers and
 * the form) is hidden behind a Spanish button and the names of the chosen files. Before that,
 * or without JavaScript, the native input shows: only it can show what was chosen then.
 */
export function FileField({
  label,
  name,
  multiple,
  accept,
  help,
  error,
  onFiles,
}: {
  label: ReactNode
  name: string
  multiple?: boolean
  accept?: string
  help?: string
  error?: string | null
  /** Sees the files chosen; answering false refuses them (the input is cleared, spec 001 §5). */
  onFiles?: (files: File[]) => boolean | void
}) {
  const id = useId()
  const hydrated = useHydrated()
  const [chosen, setChosen] = useState<string[]>([])
  const inputRef = useRef<HTMLInputElement>(null)
  function take(input: HTMLInputElement) {
    const files = [...(input.files ?? [])]
    if (onFiles?.(files) === false) {
      input.value = ''
      setChosen([])
    } else {
      setChosen(files.map((file) => file.name))
    }
  }
  // Files chosen before the page's scripts ran fired no change event React saw: they are still in
  // the input, so they are checked and named now, as if just chosen.
  const takeEarlyChoice = useEffectEvent(() => {
    if (inputRef.current?.files?.length) take(inputRef.current)
  })
  useEffect(() => takeEarlyChoice(), [])
  return (
    <div className="grid gap-1.5">
      <span id={`${id}-label`} className="flex items-center gap-2 text-sm font-medium leading-none">
        {label}
      </span>
      <div className="flex min-w-0 flex-wrap items-center gap-3">
        <input
          ref={inputRef}
          id={id}
          name={name}
          type="file"
          multiple={multiple}
          accept={accept}
          className={hydrated ? 'peer sr-only' : 'min-w-0 max-w-full text-sm'}
          aria-labelledby={`${id}-label`}
          aria-describedby={[help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined}
          onChange={(event) => take(event.currentTarget)}
        />
        {hydrated ? (
          <>
            <label
              htmlFor={id}
              className="inline-flex h-9 cursor-pointer items-center rounded-md bg-secondary px-3 text-sm font-medium hover:bg-secondary/80 peer-focus-visible:ring-2 peer-focus-visible:ring-ring"
            >
              {multiple ? 'Elegir archivos' : 'Elegir archivo'}
            </label>
            <span className="min-w-0 flex-1 truncate text-sm text-muted-foreground" aria-live="polite">
              {chosen.length === 0
                ? 'Ningún archivo seleccionado'
                : chosen.length === 1
                  ? chosen[0]
                  : `${chosen.length} archivos: ${chosen.join(', ')}`}
            </span>
          </>
        ) : null}
      </div>
      {help ? (
        <p id={`${id}-help`} className="text-xs text-muted-foreground">
          {help}
        </p>
      ) : null}
      <ErrorLine id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  )
}

function ErrorLine({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <p id={id} className="min-h-5 text-sm text-destructive" role={errors?.length ? 'alert' : undefined}>
      {errors?.[0]}
    </p>
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
