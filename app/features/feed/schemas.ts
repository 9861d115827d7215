import { z } from 'zod'
import { blankToUndefined, isSafeHttpUrl, optionalText, requiredText } from '~/platform/http/text-fields'
import { commentIntents, LikeCommentIntent } from '~/features/community/comments/schemas'
import { POST_CONTENT_MAX, POST_TITLE_MAX, URL_MAX } from './limits'

// Rules of spec 001 §5 for posts, enforced by the server; comments follow the community's.

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

/** Every change to the feed, one object per intent of the /comunidad action. */
export const FeedIntent = z.discriminatedUnion('intent', [
  NewPostSchema,
  EditPostSchema,
  z.object({ intent: z.literal('delete-post'), postId }),
  z.object({ intent: z.literal('pin-post'), postId, pinned: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  z.object({ intent: z.literal('like-post'), postId }),
  ...commentIntents({ postId }),
  LikeCommentIntent,
])

export type FeedIntent = z.output<typeof FeedIntent>

/**
 * In read-only mode a member may still edit their own hidden post or comment, to ask for a review
 * (decisions/0029); the handlers refuse the edit of anything visible.
 */
export const FEED_OPEN_WHILE_SUSPENDED = ['update-post', 'update-comment'] as const satisfies ReadonlyArray<FeedIntent['intent']>
