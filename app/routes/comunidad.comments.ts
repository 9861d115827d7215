import { data } from 'react-router'
import { z } from 'zod'
import { listComments, toCommentView } from '~/models/comment.server'
import { requireCompleteProfile } from '~/utils/permissions.server'
import type { Route } from './+types/comunidad.comments'

/** A post's comments for the expandable list (fetched when the member opens it). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const postId = z.uuid().safeParse(params.postId)
  if (!postId.success) throw data('No encontrado', { status: 404 })
  const comments = await listComments(postId.data, user.id)
  return { comments: comments.map((comment) => toCommentView(comment, user)) }
}
