/** What is liked or commented, named alike in the form, in the tables and in the notification. */
export type Subject = 'postId' | 'commentId' | 'sessionId' | 'eventId'

/** What the browser gets for a comment, with what this viewer may do with it. */
export interface CommentView {
  id: string
  content: string
  parentCommentId: string | null
  likeCount: number
  likedByMe: boolean
  createdAt: string
  edited: boolean
  /** userId null: written by a member whose account was deleted (ADR 0028). */
  author: { userId: string | null; name: string; avatarUrl: string | null }
  /**
   * Hidden by moderation (issue 28): to its author, the reason and whether they asked for a
   * review; to others (only where replies hang from it) a placeholder, with no text nor author.
   */
  moderation: { reason: string | null; reviewRequested: boolean } | null
  canEdit: boolean
  canDelete: boolean
}

/** What the panel comments on: a post, a session. The same rules and forms serve each. */
export interface CommentThread {
  /** Where the forms post; without JavaScript the page that answers keeps these comments open. */
  action: string
  /** The hidden field that names what is commented ('postId', 'sessionId'), and its id. */
  field: string
  id: string
  /** Where the list is loaded from. */
  url: string
  /** Whether its comments can be liked (spec 001 §3 gives session comments no likes). */
  likes: boolean
}
