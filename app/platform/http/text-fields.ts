import { z } from 'zod'

/**
 * The text rules every form shares (spec 001 §5 and our hardening), for the features' Zod
 * schemas: what a required or optional text is, and what is never stored. Every feature's text
 * goes through `requiredText`/`optionalText`, so a name, a title or a comment refuses the same
 * characters wherever it is typed.
 */

// Control characters; the line and paragraph separators (U+2028/9), which break a "single line"
// without being \n; invisible characters that make two names look alike (zero-width space, word
// joiner and the invisible operators, the BOM); and the bidirectional controls that make text read
// differently from how it is stored (CVE-2021-42574): the embeddings, overrides and isolates, and
// the direction marks (LRM U+200E, RLM U+200F, ALM U+061C). Not the zero-width joiner and
// non-joiner (U+200C/D): emoji sequences and some scripts need them.
export const CONTROL_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u061C\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/

/** A single-line text (a name, a title, a tag) has no line breaks and no tabs either. */
const LINE_BREAKS = /[\r\n\t]/

export function isCleanText(value: string, { multiline = false } = {}) {
  return !CONTROL_CHARS.test(value) && (multiline || !LINE_BREAKS.test(value))
}

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
export const INVALID_CHARS = 'Contiene caracteres no válidos'

/** Forms send an untouched field as '': that means "not given". */
export const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

export interface TextOptions {
  multiline?: boolean
  /** The spec's messages where it gives them; ours otherwise. */
  required?: string
  tooLong?: string
  invalid?: string
}

/** A required text of at most `max` characters, on one line unless `multiline`. */
export function requiredText(
  max: number,
  { multiline = false, required = REQUIRED, tooLong = `Máximo ${max} caracteres`, invalid = INVALID_CHARS }: TextOptions = {},
) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .refine((value) => isCleanText(value, { multiline }), invalid)
}

/** The same, optional: stored as null when left empty. */
export function optionalText(
  max: number,
  { multiline = false, tooLong = `Máximo ${max} caracteres`, invalid = INVALID_CHARS }: TextOptions = {},
) {
  return z
    .string()
    .trim()
    .max(max, tooLong)
    .refine((value) => isCleanText(value, { multiline }), invalid)
    .optional()
    .transform((value) => value || null)
}
