import { z } from 'zod'
import { listComments } from '~/features/community/comments/comments.server'
import { COMMENTS_FAILED } from '~/features/community/comments/limits'
import { postComments } from './comments.server'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { partLoader, refuse } from '~/platform/http/responses.server'
import type { Route } from './+types/comments.route'

/** A post's comments for the expandable list (fetched when the member opens it). */
export const loader = partLoader(COMMENTS_FAILED, async ({ request, params }: Route.LoaderArgs) => {
  const user = await requireCompleteProfile(request)
  const postId = z.uuid().safeParse(params.postId)
  if (!postId.success) refuse(404, 'Publicación no encontrada')
  return { comments: await listComments(postComments, postId.data, user) }
})
