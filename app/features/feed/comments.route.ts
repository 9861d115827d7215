import { z } from 'zod'
import { listComments, toCommentView } from './comments.server'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { refuse } from '~/platform/http/responses.server'
import type { Route } from './+types/comments.route'

/** A post's comments for the expandable list (fetched when the member opens it). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const postId = z.uuid().safeParse(params.postId)
  if (!postId.success) refuse(404, 'Publicación no encontrada')
  const comments = await listComments(postId.data, user.id)
  return { comments: comments.map((comment) => toCommentView(comment, user)) }
}
