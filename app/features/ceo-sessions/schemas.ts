import { z } from 'zod'
import { commentIntents } from '~/features/community/comments/schemas'
import { isCleanText, REQUIRED, requiredText } from '~/platform/http/text-fields'
import { fromWallTime } from '~/platform/dates'
import { SHORT_TEXT_MAX, TAG_MAX, TAGS_MAX, TEXT_MAX, TITLE_MAX, VIDEO_MAX_BYTES } from './limits'

// Rules of spec 001 §5 for sessions, enforced by the server; the dialogs repeat them to answer sooner.

/** Forms send repeated hidden fields: one value arrives as a string, none as nothing. */
const tags = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z
    .array(
      z
        .string()
        .trim()
        .max(TAG_MAX, `Cada etiqueta tiene como máximo ${TAG_MAX} caracteres`)
        .refine((value) => isCleanText(value), 'Etiqueta no válida'),
    )
    .transform((values) => {
      // Trimmed and without repeats (spec), whatever their case: 'Liderazgo' and 'liderazgo' are one.
      const seen = new Set<string>()
      return values.filter((tag) => tag && !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase()))
    })
    .refine((values) => values.length <= TAGS_MAX, `Máximo ${TAGS_MAX} etiquetas`),
)

const sessionId = z.uuid('Sesión no válida')

export const SessionFieldsSchema = z.object({
  title: requiredText(TITLE_MAX),
  summary: requiredText(SHORT_TEXT_MAX, { multiline: true }),
  description: requiredText(TEXT_MAX, { multiline: true }),
  ceoName: requiredText(SHORT_TEXT_MAX),
  ceoPosition: requiredText(SHORT_TEXT_MAX),
  ceoCompany: requiredText(SHORT_TEXT_MAX),
  sessionDate: z
    .string({ error: REQUIRED })
    .min(1, REQUIRED)
    .transform((value, ctx) => {
      const date = fromWallTime(value)
      if (!date) ctx.addIssue({ code: 'custom', message: 'Fecha no válida' })
      return date ?? new Date(Number.NaN)
    }),
  durationMinutes: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number({ error: 'La duración debe ser un número entero de minutos' })
      .int('La duración debe ser un número entero de minutos')
      .min(1, 'La duración debe ser de al menos 1 minuto')
      .max(100_000, 'La duración no es válida')
      .optional()
      .transform((value) => value ?? null),
  ),
  tags,
  isFeatured: z.preprocess((value) => value === 'on' || value === 'true', z.boolean()),
})

/** What the browser declares about the video before sending it in chunks (checked again on arrival). */
const videoDeclaration = {
  videoSize: z.coerce
    .number({ error: 'El video es obligatorio' })
    .int()
    .min(1, 'El video es obligatorio')
    .max(VIDEO_MAX_BYTES, 'Archivo muy grande. El límite máximo es 500MB.'),
  videoType: z.string().regex(/^video\//, 'Tipo de archivo inválido. Solo se permiten videos MP4, WebM o MOV.'),
}

const CreateSessionSchema = SessionFieldsSchema.extend({ intent: z.literal('create-session'), ...videoDeclaration })

const UpdateSessionSchema = SessionFieldsSchema.extend({
  intent: z.literal('update-session'),
  sessionId,
  removePdf: z.preprocess((value) => value === 'on' || value === 'true', z.boolean()),
  // A replacement video is declared like a new one; without it the video stays.
  videoSize: videoDeclaration.videoSize.optional().or(z.literal('').transform(() => undefined)),
  videoType: videoDeclaration.videoType.optional().or(z.literal('').transform(() => undefined)),
})

/** Every change to sessions, one object per intent of the sessions action. */
export const SessionIntent = z.discriminatedUnion('intent', [
  CreateSessionSchema,
  UpdateSessionSchema,
  z.object({ intent: z.literal('delete-session'), sessionId }),
  z.object({ intent: z.literal('like-session'), sessionId }),
  ...commentIntents({ sessionId }),
  z.object({
    intent: z.literal('save-progress'),
    sessionId,
    positionSeconds: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60 * 60),
  }),
])

export type SessionIntent = z.output<typeof SessionIntent>

/** In read-only mode a member may still edit their own hidden comment, to ask for a review (decisions/0029). */
export const SESSION_OPEN_WHILE_SUSPENDED = ['update-comment'] as const satisfies ReadonlyArray<SessionIntent['intent']>
export type SessionFieldsInput = z.input<typeof SessionFieldsSchema>
