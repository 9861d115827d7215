import { z } from 'zod'
import { requireAccess } from '~/platform/auth/guards.server'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { partLoader, refuse } from '~/platform/http/responses.server'
import { can } from '~/platform/auth/capabilities'
import { getSessionRecord } from './sessions.server'
import { SESSION_MESSAGES } from './limits'
import { listComments } from '~/features/community/comments/comments.server'
import { COMMENTS_FAILED } from '~/features/community/comments/limits'
import { sessionComments } from './session-comments.server'
import type { Route } from './+types/comments.route'

/** A session's comments, for the panel of its page (reloaded after each change). */
export const loader = partLoader(COMMENTS_FAILED, async ({ request, params }: Route.LoaderArgs) => {
  const user = await requireCompleteProfile(request)
  requireAccess(user)
  const sessionId = z.uuid().safeParse(params.sessionId)
  if (!sessionId.success) refuse(404, SESSION_MESSAGES.notFound)
  const session = await getSessionRecord(sessionId.data)
  if (!session || (session.publicationStatus !== 'published' && session.createdBy !== user.id && !can(user, 'manage-sessions'))) {
    refuse(404, SESSION_MESSAGES.notFound)
  }
  return { comments: await listComments(sessionComments, sessionId.data, user) }
})
