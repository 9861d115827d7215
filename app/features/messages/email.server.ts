import { and, asc, eq, sql } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { profiles, recipientColumns } from '~/features/account/schema'
import { deliveryFor } from '~/features/notifications/preferences.server'
import { byEmail } from '~/features/notifications/preferences'
import { emailUnsubscribe } from '~/features/notifications/unsubscribe.server'
import { user } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { enqueueRenderedMail, renderMail } from '~/platform/mail/mail.server'
import { conversationColumns, type ConversationRow, hasBlocked, messagingOpen, sideOf } from './pairs.server'
import { UnreadMessagesEmail } from './emails/unread'
import { conversations, messages } from './schema'

/** Issue 41: a member who has not read a message within 15 minutes gets one e-mail for all of that sender's unread ones. */
export const UNREAD_EMAIL_DELAY_MS = 15 * 60 * 1000
/** An e-mail quotes this many of the messages at most; the rest are one click away. */
const QUOTED = 10

export const unreadMessagesEmailJob = defineJob<{ conversationId: string; recipientId: string }>({
  name: 'messages.unread-email',
  label: 'Correo de mensajes sin leer',
  async run({ conversationId, recipientId }) {
    await sendUnreadMessagesEmail(conversationId, recipientId)
  },
})

/**
 * Called in the transaction that stored the first unread message of a burst (the recipient had
 * read everything before it): one job, 15 minutes later, named by that message, so a burst is
 * e-mailed once. Messages arriving while it is still unread wait for the same e-mail.
 */
export async function scheduleUnreadEmail(tx: DbExecutor, conversationId: string, recipientId: string, messageId: string) {
  await enqueue(
    unreadMessagesEmailJob,
    { conversationId, recipientId },
    { runAt: new Date(Date.now() + UNREAD_EMAIL_DELAY_MS), dedupeKey: `${conversationId}:${messageId}`, executor: tx },
  )
}

/**
 * Sends the e-mail if the member still has unread messages in the conversation, wants 'Mensajes
 * privados' by e-mail, and nothing closed the door meanwhile (a block, the kill switches, an
 * ignored request). A request's text is never e-mailed. Returns whether one was queued.
 */
export async function sendUnreadMessagesEmail(conversationId: string, recipientId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ ...conversationColumns, aLastReadAt: conversations.aLastReadAt, bLastReadAt: conversations.bLastReadAt })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
  if (!row) return false
  const conversation = row as ConversationRow & { aLastReadAt: Date | null; bLastReadAt: Date | null }
  const side = sideOf(conversation, recipientId)
  if (!side || conversation.state === 'ignored') return false
  if ((side === 'a' ? conversation.aUnread : conversation.bUnread) === 0) return false
  const senderId = side === 'a' ? conversation.userB : conversation.userA
  if (!senderId) return false
  if (!byEmail(await deliveryFor(getDb(), recipientId, 'messages'))) return false
  if ((await hasBlocked(recipientId, senderId)) || !(await messagingOpen(recipientId))) return false
  const [recipient] = await getDb()
    .select({ ...recipientColumns, bannedAt: profiles.bannedAt })
    .from(user)
    .innerJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, recipientId))
  const [sender] = await getDb()
    .select({ firstName: profiles.firstName, lastName: profiles.lastName, displayName: profiles.displayName })
    .from(profiles)
    .where(eq(profiles.userId, senderId))
  if (!recipient || recipient.bannedAt || !sender) return false
  const isRequest = conversation.state === 'request'
  const lastRead = side === 'a' ? conversation.aLastReadAt : conversation.bLastReadAt
  const unread = isRequest
    ? []
    : await getDb()
        .select({ id: messages.id, body: messages.body })
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, conversationId),
            eq(messages.senderId, senderId),
            // The read position compared in the database: a JavaScript Date would drop its microseconds.
            sql`${messages.createdAt} > coalesce((select ${sql.raw(`${side}_last_read_at`)} from conversations where id = ${conversationId}), '-infinity')`,
          ),
        )
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(QUOTED)
  const { headers, footer } = emailUnsubscribe(recipientId, ['messages'])
  const senderName = displayName(sender)
  const mail = await renderMail({
    to: recipient.email,
    subject: isRequest ? `${senderName} quiere escribirte` : `Mensaje de ${senderName}`,
    email: UnreadMessagesEmail({
      firstName: recipient.firstName,
      senderName,
      messages: unread.map((message) => message.body),
      isRequest,
      url: `${getEnv().APP_URL}/mensajes/${conversationId}`,
      unsubscribe: footer,
    }),
    headers,
    dedupeKey: `messages:${conversationId}:${unread[0]?.id ?? lastRead?.getTime() ?? 'request'}`,
  })
  // Read again under the conversation's lock: a member who read it while the e-mail rendered gets none.
  return getDb().transaction(async (tx) => {
    const [locked] = await tx
      .select({ aUnread: conversations.aUnread, bUnread: conversations.bUnread })
      .from(conversations)
      .where(eq(conversations.id, conversationId))
      .for('update')
    if (!locked || (side === 'a' ? locked.aUnread : locked.bUnread) === 0) return false
    return enqueueRenderedMail(mail, tx)
  })
}
