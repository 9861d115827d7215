import type { CommentThread } from '~/features/community/comments/types'
import type { Result } from '~/platform/http/result'

export interface FeedPostView {
  id: string
  title: string
  content: string | null
  postType: 'text' | 'link' | 'document'
  linkUrl: string | null
  isPinned: boolean
  likeCount: number
  commentCount: number
  likedByMe: boolean
  createdAt: string
  edited: boolean
  /** userId null: written by a member whose account was deleted (ADR 0028). */
  author: { userId: string | null; name: string; avatarUrl: string | null; isPremium: boolean }
  /** Hidden by moderation (only its author gets it): the reason they are shown, and whether they asked for a review. */
  moderation: { reason: string | null; reviewRequested: boolean } | null
  category: { id: string; name: string; color: string } | null
  attachments: Array<{ id: string; fileName: string; fileType: string; fileSize: number; url: string; isImage: boolean }>
  canEdit: boolean
  canDelete: boolean
  canPin: boolean
}

/** Where feed forms post: the feed is the index route of /comunidad, so its action needs `?index`. */
export const FEED_ACTION = '/comunidad?index'

/** What the /comunidad action answers a feed form or fetcher. */
export type FeedResult = Result<{ postId?: string; commentId?: string; liked?: boolean; likeCount?: number }>

/** A post's comments: its forms post to the feed, which keeps them open when answering without JavaScript. */
export const postThread = (postId: string): CommentThread => ({
  action: `${FEED_ACTION}&comentarios=${postId}`,
  field: 'postId',
  id: postId,
  url: `/comunidad/posts/${postId}/comentarios`,
  likes: true,
})

/** The page's answer when it is a failed edit of this post (a form posted without JavaScript). */
export function failedEditOf(result: FeedResult | undefined, postId: string) {
  const sent = result && !result.ok ? result.submission?.initialValue : undefined
  return sent?.intent === 'update-post' && sent.postId === postId ? result : undefined
}
