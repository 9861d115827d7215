import { z } from 'zod'
import { blankToUndefined, requiredText } from '~/platform/http/text-fields'
import { COMMENT_MAX } from './limits'

/** A comment or a reply, wherever it is written. */
export const CommentContent = requiredText(COMMENT_MAX, {
  multiline: true,
  required: 'El comentario no puede estar vacío',
  tooLong: 'El comentario es demasiado largo',
  invalid: 'El comentario contiene caracteres no válidos',
})

const commentId = z.uuid('Comentario no válido')

export const EditCommentIntent = z.object({ intent: z.literal('update-comment'), commentId, content: CommentContent })

/** Only where comments can be liked (the feed's). */
export const LikeCommentIntent = z.object({ intent: z.literal('like-comment'), commentId })

/**
 * The comment intents of an action, for its discriminated union. `target` is the field that
 * names what is commented, as the panel posts it: `{ postId: z.uuid('Publicación no válida') }`.
 */
export function commentIntents<Target extends z.ZodRawShape>(target: Target) {
  return [
    z.object({
      intent: z.literal('add-comment'),
      ...target,
      parentCommentId: z.preprocess(blankToUndefined, commentId.optional()),
      content: CommentContent,
    }),
    EditCommentIntent,
    z.object({ intent: z.literal('delete-comment'), commentId }),
  ] as const
}
