import { z } from 'zod'

/**
 * The text rules every form shares (spec 001 §5 and our hardening), for the features' Zod
 * schemas: what a required or optional text is, and what is never stored.
 */

// Control characters, and the bidirectional controls that make text read differently from how
// it is stored (a name that shows 'Ana' but is something else; CVE-2021-42574): the embeddings,
// overrides and isolates, and the invisible direction marks (LRM U+200E, RLM U+200F, ALM U+061C).
// Not all of \p{Cf}: the zero-width joiner holds emoji sequences together.
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

/** Only web and mail links are ever stored or rendered as links (no javascript:, data:, …). */
export function isSafeHttpUrl(value: string) {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname)
  } catch {
    return false
  }
}

export const REQUIRED = 'Este campo es obligatorio'

/** Forms send an untouched field as '': that means "not given". */
export const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

/** A required text of at most `max` characters, on one line unless `multiline`. */
export function requiredText(max: number, { multiline = false } = {}) {
  return z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .max(max, `Máximo ${max} caracteres`)
    .refine((value) => !CONTROL_CHARS.test(value) && (multiline || !/[\r\n]/.test(value)), 'Contiene caracteres no válidos')
}

/** The same, optional: stored as null when left empty. */
export const optionalText = (max: number, options?: { multiline?: boolean }) =>
  z.preprocess(blankToUndefined, requiredText(max, options).optional()).transform((value) => value ?? null)
