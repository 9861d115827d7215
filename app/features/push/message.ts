import { linkOf } from '~/features/notifications/grouping'
import type { notifications } from '~/features/notifications/schema'

type Notification = Pick<
  typeof notifications.$inferSelect,
  'id' | 'type' | 'title' | 'message' | 'relatedPostId' | 'relatedCommentId' | 'relatedSessionId' | 'relatedEventId'
>

/** What the service worker shows (app/features/phone/sw.js): JSON, well under the 4 KB push services take. */
export interface PushMessage {
  title: string
  body: string
  /** A path of this site: the exact place (the comment, the session, the event, the conversation). */
  url: string
  /** Same tag, same notification on the device: the newer replaces the older, silently. */
  tag: string
}

/** Issue 42: a push's payload stays under 2 KB (never a 413 from a push service). */
export const MAX_PAYLOAD_BYTES = 2048

/** A line shortened to `length` characters, an ellipsis marking the cut. */
export const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text)

/**
 * A notification as a push: its short Spanish title and line, as the bell shows them. These never
 * carry a private message's words (messages are not notifications: their pushes are made by
 * messages/push.server.ts, without the words either), only what the bell says.
 * Several of one kind about one thing (likes on a post, comments on a session) share a tag.
 */
export function pushMessageOf(notification: Notification): PushMessage {
  const about = notification.relatedPostId ?? notification.relatedSessionId ?? notification.relatedEventId ?? notification.id
  return {
    title: cut(notification.title, 60),
    body: cut(notification.message, 160),
    url: linkOf(notification, { exactComment: true }) ?? '/notificaciones',
    tag: `${notification.type}:${about}`,
  }
}

export function payloadOf(message: PushMessage) {
  const payload = JSON.stringify(message)
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`Push payload of ${Buffer.byteLength(payload)} bytes`)
  return payload
}
