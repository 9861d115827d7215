/**
 * The bell shows repeated notifications as one: 'Ana, Luis y 3 más comentaron tu publicación'.
 * Notifications of one kind about one thing (a post's comments, a comment's likes) group,
 * newest first; a group is unread while any of its notifications is.
 */
export interface NotificationView {
  id: string
  type: string
  title: string
  message: string
  isRead: boolean
  relatedPostId: string | null
  relatedCommentId: string | null
  relatedSessionId: string | null
  relatedEventId: string | null
  createdAt: string
  actor: { name: string; avatarUrl: string | null } | null
}

export interface NotificationGroup {
  /** Every notification in the group (marked read together). */
  ids: string[]
  latest: NotificationView
  isRead: boolean
  /** The group's text: the notification's own message when alone. */
  message: string
}

/** Where a notification leads: its post with the comments open, its session's page or its event's. */
export const postLinkOf = (postId: string) => `/comunidad?comentarios=${postId}#post-${postId}`

/** With `exactComment` (e-mail, read long after), a comment's link scrolls to the comment itself. */
export function linkOf(
  item: Pick<NotificationView, 'type' | 'relatedPostId' | 'relatedSessionId' | 'relatedEventId' | 'relatedCommentId'>,
  { exactComment = false } = {},
) {
  const comment = exactComment && item.relatedCommentId ? `#comment-${item.relatedCommentId}` : null
  if (item.relatedPostId) return comment ? `/comunidad?comentarios=${item.relatedPostId}${comment}` : postLinkOf(item.relatedPostId)
  if (item.relatedEventId) return `/comunidad/calendario/${item.relatedEventId}`
  // A failed video is fixed from the Sesiones tab, where its creator's panel shows it.
  if (item.type === 'session_failed') return '/comunidad/sesiones'
  if (item.type === 'admission_application') return '/admin/admisiones'
  if (item.type === 'moderation_report') return '/admin/moderacion'
  if (item.relatedSessionId) {
    const toComments = item.type === 'new_session' || item.type === 'session_published' ? '' : '#comentarios'
    return `/video/${item.relatedSessionId}${comment ?? toComments}`
  }
  return null
}

const GROUP_VERBS: Record<string, (names: string) => string> = {
  comment: (names) => `${names} comentaron tu publicación`,
  like: (names) => `A ${names} les gusta tu publicación`,
  comment_like: (names) => `A ${names} les gusta tu comentario`,
  comment_reply: (names) => `${names} respondieron a tu comentario`,
  session_comment: (names) => `${names} comentaron tu sesión`,
  session_comment_reply: (names) => `${names} respondieron a tu comentario`,
}

/** 'Ana y Luis', 'Ana, Luis y Marta', 'Ana, Luis y 3 más'. */
export function joinNames(names: string[]) {
  if (names.length <= 1) return names[0] ?? ''
  if (names.length === 2) return `${names[0]} y ${names[1]}`
  if (names.length === 3) return `${names[0]}, ${names[1]} y ${names[2]}`
  return `${names[0]}, ${names[1]} y ${names.length - 2} más`
}

function keyOf(item: NotificationView) {
  // Likes of a comment group by the comment; comments, replies and likes of a post by the post.
  // Comments and replies under a session group by the session.
  const target =
    item.type === 'comment_like' || item.type === 'comment_reply' ? item.relatedCommentId : (item.relatedPostId ?? item.relatedSessionId)
  return GROUP_VERBS[item.type] && target
    ? `${item.type}:${item.type === 'comment_reply' ? item.relatedPostId : target}`
    : `single:${item.id}`
}

export function groupNotifications(items: NotificationView[]): NotificationGroup[] {
  const groups = new Map<string, NotificationView[]>()
  for (const item of items) {
    const key = keyOf(item)
    groups.set(key, [...(groups.get(key) ?? []), item])
  }
  return [...groups.values()].map((members) => {
    const latest = members[0]!
    const names = [...new Set(members.map((member) => member.actor?.name ?? 'Usuario'))]
    return {
      ids: members.map((member) => member.id),
      latest,
      isRead: members.every((member) => member.isRead),
      message: names.length > 1 ? GROUP_VERBS[latest.type]!(joinNames(names)) : latest.message,
    }
  })
}
