import type { Commentable } from '~/features/community/comments/comments.server'
import type { Likeable } from '~/features/community/comments/likes.server'
import { publishPostStats } from './posts.server'
import { commentLikes, communityComments, communityPosts, postLikes } from './schema'

// The feed's posts and comments as the community's comments and likes see them: their tables,
// whose they are, and what their notifications say (docs/decisions/0011).

export const commentLikeable: Likeable<'commentId', 'authorId' | 'postId'> = {
  field: 'commentId',
  likes: commentLikes,
  on: commentLikes.commentId,
  target: communityComments,
  notify: {
    columns: { authorId: communityComments.userId, postId: communityComments.postId },
    notification: ({ authorId, postId }, actorName) => ({
      recipientId: authorId,
      type: 'comment_like',
      title: 'Like en tu comentario',
      message: `A ${actorName} le gusta tu comentario`,
      postId,
    }),
  },
}

export const postComments: Commentable<'postId'> = {
  field: 'postId',
  comments: communityComments,
  on: communityComments.postId,
  target: communityPosts,
  owner: communityPosts.userId,
  title: communityPosts.title,
  likes: commentLikeable,
  changed: publishPostStats,
  notify: {
    comment: { type: 'comment', message: (actorName, title) => `${actorName} ha comentado en tu post «${title}»` },
    reply: { type: 'comment_reply', message: (actorName, title) => `${actorName} ha respondido a tu comentario en «${title}»` },
  },
}

export const postLikeable: Likeable<'postId', 'authorId' | 'title'> = {
  field: 'postId',
  likes: postLikes,
  on: postLikes.postId,
  target: communityPosts,
  changed: publishPostStats,
  notify: {
    columns: { authorId: communityPosts.userId, title: communityPosts.title },
    notification: ({ authorId, title }, actorName) => ({
      recipientId: authorId,
      type: 'like',
      title: 'Nuevo like',
      message: `A ${actorName} le gusta tu post «${title}»`,
    }),
  },
}
