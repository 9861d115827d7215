import { z } from 'zod'
import { listComments } from '~/features/community/comments/comments.server'
import { postComments } from './comments.server'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { refuse } from '~/platform/http/responses.server'
import type { Route } from './+types/comments.route'

/** A post's comments for the expandable list (fetched when the member opens it). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const postId = z.uuid().safeParse(params.postId)
  if (!postId.success) refuse(404, 'Publicación no encontrada')
  return { comments: await listComments(postComments, postId.data, user) }
}
