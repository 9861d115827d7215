import { eq } from 'drizzle-orm'
import type { Commentable } from '~/features/community/comments/comments.server'
import type { Likeable } from '~/features/community/comments/likes.server'
import { ceoSessionComments, ceoSessionLikes, ceoSessions } from './schema'

// Sessions as the community's comments and likes see them (docs/decisions/0019): published ones
// take comments, their creator hears of each, and nobody is told of a like.

export const sessionComments: Commentable<'sessionId'> = {
  field: 'sessionId',
  comments: ceoSessionComments,
  on: ceoSessionComments.sessionId,
  target: ceoSessions,
  owner: ceoSessions.createdBy,
  title: ceoSessions.title,
  open: eq(ceoSessions.publicationStatus, 'published'),
  notify: {
    comment: { type: 'session_comment', message: (actorName, title) => `${actorName} ha comentado en tu sesión «${title}»` },
    reply: {
      type: 'session_comment_reply',
      message: (actorName, title) => `${actorName} ha respondido a tu comentario en la sesión «${title}»`,
    },
  },
}

export const sessionLikeable: Likeable<'sessionId'> = {
  field: 'sessionId',
  likes: ceoSessionLikes,
  on: ceoSessionLikes.sessionId,
  target: ceoSessions,
}
