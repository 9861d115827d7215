import { z } from 'zod'
import { COMMENT_MAX, POST_CONTENT_MAX, POST_TITLE_MAX, URL_MAX } from './limits'

// Rules of spec 001 §5 for posts and comments, enforced by the server.

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

const title = z
  .string({ error: 'El título es requerido' })
  .trim()
  .min(1, 'El título es requerido')
  .max(POST_TITLE_MAX, 'El título es demasiado largo')
  .refine((value) => !CONTROL_CHARS.test(value) && !/[\r\n]/.test(value), 'El título contiene caracteres no válidos')

const content = z
  .string()
  .trim()
  .max(POST_CONTENT_MAX, 'El contenido es demasiado largo')
  .refine((value) => !CONTROL_CHARS.test(value), 'El contenido contiene caracteres no válidos')
  .optional()
  .transform((value) => value || null)

/** Forms send an untouched field as '': that means "not given". */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional())
}

const linkUrl = optional(
  z.string().trim().max(URL_MAX, 'La URL es demasiado larga').refine(isSafeHttpUrl, 'Introduce una URL válida (http o https)'),
)

function requireUrlForLinks<T extends { postType?: string; linkUrl?: string | undefined }>(values: T, ctx: z.RefinementCtx) {
  if (values.postType === 'link' && !values.linkUrl) {
    ctx.addIssue({ code: 'custom', path: ['linkUrl'], message: 'La URL es requerida para publicar un enlace' })
  }
}

const postType = z.enum(['text', 'link', 'document'])
const postId = z.uuid('Publicación no válida')
const commentId = z.uuid('Comentario no válido')

/** A comment or reply, in the feed and under a session. */
export const CommentContent = z
  .string({ error: 'El comentario no puede estar vacío' })
  .trim()
  .min(1, 'El comentario no puede estar vacío')
  .max(COMMENT_MAX, 'El comentario es demasiado largo')
  .refine((value) => !CONTROL_CHARS.test(value), 'El comentario contiene caracteres no válidos')

export const NewPostSchema = z
  .object({
    intent: z.literal('create-post'),
    postType: postType.default('text'),
    title,
    content,
    linkUrl,
    categoryId: optional(z.uuid('Categoría no válida')),
  })
  .superRefine(requireUrlForLinks)

export const EditPostSchema = z
  .object({ intent: z.literal('update-post'), postId, postType: postType.optional(), title, content, linkUrl })
  .superRefine(requireUrlForLinks)

export const CommentSchema = z.object({
  intent: z.literal('add-comment'),
  postId,
  parentCommentId: optional(commentId),
  content: CommentContent,
})

export const EditCommentSchema = z.object({ intent: z.literal('update-comment'), commentId, content: CommentContent })

/** Every change to the feed, one object per intent of the /comunidad action. */
export const FeedIntent = z.discriminatedUnion('intent', [
  NewPostSchema,
  EditPostSchema,
  z.object({ intent: z.literal('delete-post'), postId }),
  z.object({ intent: z.literal('pin-post'), postId, pinned: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  z.object({ intent: z.literal('like-post'), postId }),
  CommentSchema,
  EditCommentSchema,
  z.object({ intent: z.literal('delete-comment'), commentId }),
  z.object({ intent: z.literal('like-comment'), commentId }),
])

export type FeedIntent = z.output<typeof FeedIntent>
