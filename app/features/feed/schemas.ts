import { z } from 'zod'
import { blankToUndefined, isSafeHttpUrl, optionalText, requiredText } from '~/platform/http/text-fields'
import { COMMENT_MAX, POST_CONTENT_MAX, POST_TITLE_MAX, URL_MAX } from './limits'

// Rules of spec 001 §5 for posts and comments, enforced by the server.

const title = requiredText(POST_TITLE_MAX, {
  required: 'El título es requerido',
  tooLong: 'El título es demasiado largo',
  invalid: 'El título contiene caracteres no válidos',
})

const content = optionalText(POST_CONTENT_MAX, {
  multiline: true,
  tooLong: 'El contenido es demasiado largo',
  invalid: 'El contenido contiene caracteres no válidos',
})

/** Forms send an untouched field as '': that means "not given". */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema.optional())
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
export const CommentContent = requiredText(COMMENT_MAX, {
  multiline: true,
  required: 'El comentario no puede estar vacío',
  tooLong: 'El comentario es demasiado largo',
  invalid: 'El comentario contiene caracteres no válidos',
})

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
