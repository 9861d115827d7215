import { and, eq, sql } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { profiles } from '~/features/account/schema'
import { byPush } from '~/features/notifications/preferences'
import { deliveryFor } from '~/features/notifications/preferences.server'
import { cut, type PushMessage } from '~/features/push/message'
import { getDb } from '~/platform/db/client.server'
import { conversationColumns, type ConversationRow, hasBlocked, messagingOpen, sideOf } from './pairs.server'
import { conversations, messages } from './schema'

/**
 * A private message as a push (issue 42, decisions/0035): who wrote, never what. A push shows on a
 * locked screen, is kept by the push service and may be read by whoever holds the phone, so no
 * message's words go in one, not even an accepted conversation's. A request (the first message of
 * someone the member has not accepted) says only who wants to write. The tag is the conversation's:
 * several messages are one notification on the device, its line counting them.
 */
export const MESSAGE_PUSH = {
  requestTitle: 'Nueva solicitud de mensaje',
  requestBody: (name: string) => `${name} quiere escribirte. Abre la solicitud para leerla y decidir si la aceptas.`,
  title: (name: string) => `Nuevo mensaje de ${name}`,
  body: (unread: number) =>
    unread > 1 ? `Tienes ${unread} mensajes sin leer. Abre la conversación para leerlos.` : 'Abre la conversación para leerlo.',
}

/** The tag of a conversation's pushes: one notification per conversation on each device. */
export const messageTag = (conversationId: string) => `message:${conversationId}`

/**
 * What to push to `recipientId` about one of their messages, read when the push goes (at once or
 * when quiet hours end), or null when it should not go any more: the message or conversation is
 * gone, the member already read it, ignored the request, blocked its sender, turned the topic's
 * push off, or messages were switched off for them.
 */
export async function messagePushFor(messageId: string, recipientId: string): Promise<PushMessage | null> {
  const [row] = await getDb()
    .select({ ...conversationColumns, senderId: messages.senderId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), sql`(${conversations.userA} = ${recipientId} or ${conversations.userB} = ${recipientId})`))
  if (!row?.senderId || row.senderId === recipientId) return null
  const conversation = row as ConversationRow & { senderId: string }
  const side = sideOf(conversation, recipientId)
  if (!side || conversation.state === 'ignored') return null
  const unread = side === 'a' ? conversation.aUnread : conversation.bUnread
  if (unread === 0) return null
  if (!byPush(await deliveryFor(getDb(), recipientId, 'messages'))) return null
  if ((await hasBlocked(recipientId, conversation.senderId)) || !(await messagingOpen(recipientId))) return null
  const [sender] = await getDb()
    .select({ firstName: profiles.firstName, lastName: profiles.lastName, displayName: profiles.displayName })
    .from(profiles)
    .where(eq(profiles.userId, conversation.senderId))
  const name = cut(displayName(sender), 40)
  const isRequest = conversation.state === 'request'
  return {
    title: cut(isRequest ? MESSAGE_PUSH.requestTitle : MESSAGE_PUSH.title(name), 60),
    body: isRequest ? MESSAGE_PUSH.requestBody(name) : MESSAGE_PUSH.body(unread),
    url: `/mensajes/${conversation.id}`,
    tag: messageTag(conversation.id),
  }
}
