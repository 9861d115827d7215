import { type DefaultValue, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import type { Failure } from '~/platform/http/result'

// Zod compiles validators with `new Function` when it can, and finds out by trying: our CSP
// forbids eval, so every page with a form reported a violation. Interpreted validation is
// plenty fast for forms. Here rather than in the root, so pages without forms load no Zod.
z.config({ jitless: true })

/** Conform's Zod parser; forms import it from here so the setting above is always applied. */
export { parseWithZod }

/**
 * A Conform form posted by a navigation (no fetcher) that checks in the browser with the schema
 * the server checks with, and shows the server's answer when it refused.
 */
export function useZodForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: Schema,
  {
    id,
    failure,
    defaultValue,
    shouldValidate = 'onSubmit',
  }: { id: string; failure?: Failure; defaultValue?: DefaultValue<z.input<Schema>>; shouldValidate?: 'onSubmit' | 'onBlur' },
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult: failure?.submission,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate,
    shouldRevalidate: 'onInput',
  })
}
