import { and, eq, sql } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { profiles } from '~/features/account/schema'
import { byPush } from '~/features/notifications/preferences'
import { deliveryFor } from '~/features/notifications/preferences.server'
import { queuePush } from '~/features/push/queue.server'
import { user } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { refuse } from '~/platform/http/responses.server'
import { publishInTransaction } from '~/platform/realtime.server'
import { MESSAGES, type MessagePolicy } from './limits'
import { scheduleUnreadEmail } from './email.server'
import { conversations, messageBlocks, messagePreferences, messages } from './schema'
import { conversationColumns, type ConversationRow, hasBlocked, messagingOpen, orderedPair, type Side, sideOf } from './pairs.server'

/*
 * The rules of issue 41 on the tables (decisions/0032): who may write to whom, one conversation per
 * pair, one message until a request is accepted, blocks, and each side's unread count, which also
 * moves the member's top-bar count (profiles.unread_messages) in the same transaction.
 */

/** The conversation, only to one of its two members; to anyone else it does not exist (404). */
export async function getConversationFor(conversationId: string, userId: string, executor: DbExecutor = getDb()) {
  const [row] = await executor
    .select(conversationColumns)
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), sql`(${conversations.userA} = ${userId} or ${conversations.userB} = ${userId})`))
  if (!row) refuse(404, MESSAGES.notFound, { detail: { conversationId, userId } })
  return row as ConversationRow
}

export async function findConversation(one: string, other: string, executor: DbExecutor = getDb()) {
  const pair = orderedPair(one, other)
  const [row] = await executor
    .select(conversationColumns)
    .from(conversations)
    .where(and(eq(conversations.userA, pair.userA), eq(conversations.userB, pair.userB)))
  return (row as ConversationRow | undefined) ?? null
}

export async function policyOf(userId: string, executor: DbExecutor = getDb()): Promise<MessagePolicy> {
  const [row] = await executor
    .select({ policy: messagePreferences.policy })
    .from(messagePreferences)
    .where(eq(messagePreferences.userId, userId))
  return row?.policy ?? 'anyone'
}

export async function savePolicy(userId: string, policy: MessagePolicy) {
  await getDb()
    .insert(messagePreferences)
    .values({ userId, policy })
    .onConflictDoUpdate({ target: messagePreferences.userId, set: { policy, updatedAt: sql`now()` } })
}

/**
 * Why `recipient` cannot be written to by `sender` now, as the sender is told it, or null. The
 * blocked sender hears only that the member does not accept messages, never that they were blocked.
 */
export async function refusalToWrite(
  senderId: string,
  recipientId: string,
  conversation: ConversationRow | null,
  executor: DbExecutor = getDb(),
  /** The kill switches for the recipient, read before a transaction (on PGlite a read outside it would wait for it). */
  recipientOpen?: boolean,
): Promise<string | null> {
  if (senderId === recipientId) return MESSAGES.self
  const [recipient] = await executor
    .select({ bannedAt: profiles.bannedAt })
    .from(user)
    .innerJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, recipientId))
  if (!recipient || recipient.bannedAt) return MESSAGES.notAccepting
  if (!(recipientOpen ?? (await messagingOpen(recipientId)))) return MESSAGES.notAccepting
  if (await hasBlocked(senderId, recipientId, executor)) return MESSAGES.youBlocked
  if (await hasBlocked(recipientId, senderId, executor)) return MESSAGES.notAccepting
  const policy = await policyOf(recipientId, executor)
  if (policy === 'nobody') return MESSAGES.notAccepting
  const accepted = conversation?.state === 'accepted'
  if (policy === 'known' && !accepted) return MESSAGES.notAccepting
  // One message until the request is accepted; an ignored request looks pending to its sender.
  if (conversation && !accepted && conversation.startedBy === senderId) return MESSAGES.oneUntilAccepted
  return null
}

export interface SentMessage {
  conversationId: string
  messageId: string
  /** Whether this call stored it (false: the same key was already sent). */
  created: boolean
  /** Whether this call opened the conversation. */
  opened: boolean
}

/** The message a sender already stored with this key, if any (a retried post). */
export async function findSent(senderId: string, key: string, executor: DbExecutor = getDb()) {
  const [row] = await executor
    .select({ id: messages.id, conversationId: messages.conversationId })
    .from(messages)
    .where(and(eq(messages.senderId, senderId), eq(messages.idempotencyKey, key)))
  return row ?? null
}

/**
 * Stores one message from `senderId` to `recipientId`, opening their conversation if it is the first:
 * one transaction that creates the pair's row if missing (two first messages at once make one
 * conversation: the unique pair), locks it, checks the rules on what it finds, and stores the
 * message once per idempotency key. The recipient's unread counts and live stream follow on commit.
 */
export async function sendMessage({
  senderId,
  recipientId,
  body,
  key,
}: {
  senderId: string
  recipientId: string
  body: string
  key: string
}): Promise<SentMessage> {
  if (senderId === recipientId) refuse(400, MESSAGES.self)
  const recipientOpen = await messagingOpen(recipientId)
  return getDb().transaction(async (tx) => {
    const [recipient] = await tx.select({ id: user.id }).from(user).where(eq(user.id, recipientId))
    if (!recipient) refuse(404, 'Miembro no encontrado', { detail: { recipientId } })
    const pair = orderedPair(senderId, recipientId)
    const [inserted] = await tx
      .insert(conversations)
      .values({ ...pair, startedBy: senderId, state: 'request' })
      .onConflictDoNothing({ target: [conversations.userA, conversations.userB] })
      .returning({ id: conversations.id })
    const [locked] = await tx
      .select(conversationColumns)
      .from(conversations)
      .where(and(eq(conversations.userA, pair.userA), eq(conversations.userB, pair.userB)))
      .for('update')
    const conversation = locked as ConversationRow
    // The same key again: what was stored is the answer, nothing is sent twice.
    const already = await findSent(senderId, key, tx)
    if (already) return { conversationId: already.conversationId, messageId: already.id, created: false, opened: false }
    const opened = Boolean(inserted)
    const refusal = await refusalToWrite(senderId, recipientId, opened ? null : conversation, tx, recipientOpen)
    // Thrown inside the transaction: the conversation row it may have created goes with it.
    if (refusal) refuse(refusal === MESSAGES.oneUntilAccepted ? 409 : 403, refusal, { detail: { senderId, recipientId } })
    const [message] = await tx
      .insert(messages)
      .values({ conversationId: conversation.id, senderId, body, idempotencyKey: key })
      .returning({ id: messages.id })
    const mine: Side = sideOf(conversation, senderId)!
    const theirs: Side = mine === 'a' ? 'b' : 'a'
    // Writing back to a request accepts it: the recipient chose to answer.
    const accepts = conversation.state !== 'accepted' && !opened && conversation.startedBy !== senderId
    const ignored = conversation.state === 'ignored' && !accepts
    await tx
      .update(conversations)
      .set({
        // now() is the transaction's time, the message's own: exact, where a JavaScript Date drops microseconds.
        lastMessageAt: sql`now()`,
        lastMessageId: message!.id,
        ...(accepts ? { state: 'accepted' as const } : {}),
        // Writing is reading: the sender's side has nothing unread any more.
        ...(mine === 'a' ? { aLastReadAt: sql`now()`, aUnread: 0 } : { bLastReadAt: sql`now()`, bUnread: 0 }),
        // An ignored request counts for nobody: its recipient chose not to see it.
        ...(ignored
          ? {}
          : theirs === 'a'
            ? { aUnread: sql`${conversations.aUnread} + 1` }
            : { bUnread: sql`${conversations.bUnread} + 1` }),
      })
      .where(eq(conversations.id, conversation.id))
    const senderUnread = mine === 'a' ? conversation.aUnread : conversation.bUnread
    if (senderUnread > 0) {
      await tx
        .update(profiles)
        .set({ unreadMessages: sql`greatest(0, ${profiles.unreadMessages} - ${senderUnread})` })
        .where(eq(profiles.userId, senderId))
    }
    if (!ignored) {
      // The first unread message of a burst schedules the e-mail, 15 minutes later.
      if ((theirs === 'a' ? conversation.aUnread : conversation.bUnread) === 0) {
        await scheduleUnreadEmail(tx, conversation.id, recipientId, message!.id)
      }
      await tx
        .update(profiles)
        .set({ unreadMessages: sql`${profiles.unreadMessages} + 1` })
        .where(eq(profiles.userId, recipientId))
      // Push (issue 42) for a member who chose it, each message; what it says is read when it goes (push.server.ts).
      if (byPush(await deliveryFor(tx, recipientId, 'messages'))) await queuePush(tx, recipientId, { messageId: message!.id })
      await publishInTransaction(tx, { type: 'message', userId: recipientId, conversationId: conversation.id })
    }
    return { conversationId: conversation.id, messageId: message!.id, created: true, opened }
  })
}

/** Sets the member's side as read, and takes its unread messages off their top-bar count. */
async function clearUnread(tx: DbExecutor, conversationId: string, userId: string, side: Side) {
  const [before] = await tx
    .select({ unread: side === 'a' ? conversations.aUnread : conversations.bUnread })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .for('update')
  await tx
    .update(conversations)
    .set(side === 'a' ? { aUnread: 0, aLastReadAt: sql`now()` } : { bUnread: 0, bLastReadAt: sql`now()` })
    .where(eq(conversations.id, conversationId))
  if (before && before.unread > 0) {
    await tx
      .update(profiles)
      .set({ unreadMessages: sql`greatest(0, ${profiles.unreadMessages} - ${before.unread})` })
      .where(eq(profiles.userId, userId))
  }
}

/** Opening a conversation reads it (nothing is written when there is nothing unread); returns how many it read. */
export async function markRead(conversation: ConversationRow, userId: string) {
  const side = sideOf(conversation, userId)!
  const unread = side === 'a' ? conversation.aUnread : conversation.bUnread
  if (unread === 0) return 0
  await getDb().transaction((tx) => clearUnread(tx, conversation.id, userId, side))
  return unread
}

/** 'Aceptar' or 'Ignorar' a request: only its recipient, only while it waits. */
export async function answerRequest(conversationId: string, userId: string, answer: 'accepted' | 'ignored') {
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .select(conversationColumns)
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), sql`(${conversations.userA} = ${userId} or ${conversations.userB} = ${userId})`))
      .for('update')
    const conversation = row as ConversationRow | undefined
    if (!conversation) refuse(404, MESSAGES.notFound, { detail: { conversationId, userId } })
    if (conversation.startedBy === userId || conversation.state === 'accepted') {
      refuse(409, 'Esta solicitud ya no espera respuesta.', { detail: { conversationId, state: conversation.state } })
    }
    await tx.update(conversations).set({ state: answer }).where(eq(conversations.id, conversationId))
    if (answer === 'ignored') await clearUnread(tx, conversationId, userId, sideOf(conversation, userId)!)
  })
}

/** 'Bloquear': they can no longer write to the blocker, and the conversation leaves the blocker's list and count. */
export async function block(blockerId: string, blockedId: string) {
  if (blockerId === blockedId) refuse(400, 'No puedes bloquearte a ti mismo.')
  await getDb().transaction(async (tx) => {
    const [exists] = await tx.select({ id: user.id }).from(user).where(eq(user.id, blockedId))
    if (!exists) refuse(404, 'Miembro no encontrado', { detail: { blockedId } })
    await tx.insert(messageBlocks).values({ blockerId, blockedId }).onConflictDoNothing()
    const conversation = await findConversation(blockerId, blockedId, tx)
    if (conversation) await clearUnread(tx, conversation.id, blockerId, sideOf(conversation, blockerId)!)
  })
}

export async function unblock(blockerId: string, blockedId: string) {
  await getDb()
    .delete(messageBlocks)
    .where(and(eq(messageBlocks.blockerId, blockerId), eq(messageBlocks.blockedId, blockedId)))
}

/** /perfil's card: who may write to them, and whom they blocked (name as they see it), newest first. */
export async function getMessagePreferences(userId: string) {
  const [policy, blocked] = await Promise.all([
    policyOf(userId),
    getDb()
      .select({
        id: messageBlocks.blockedId,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        displayName: profiles.displayName,
      })
      .from(messageBlocks)
      .leftJoin(profiles, eq(profiles.userId, messageBlocks.blockedId))
      .where(eq(messageBlocks.blockerId, userId))
      .orderBy(sql`${messageBlocks.createdAt} desc`)
      .limit(200),
  ])
  return { policy, blocked: blocked.map((row) => ({ id: row.id, name: displayName(row, 'Usuario') })) }
}

/** What is reported with a message (issue 41): the message and the five before it in its conversation. */
export const REPORTED_CONTEXT = 6

/**
 * A message of one of this member's conversations, written by the other member, with the five
 * before it as moderators will read them; 404 for anything else.
 */
export async function messageToReport(messageId: string, reporterId: string) {
  const [message] = await getDb()
    .select({ id: messages.id, senderId: messages.senderId, conversationId: messages.conversationId, createdAt: messages.createdAt })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), sql`(${conversations.userA} = ${reporterId} or ${conversations.userB} = ${reporterId})`))
  if (!message) refuse(404, 'Mensaje no encontrado', { detail: { messageId, reporterId } })
  if (message.senderId === reporterId) refuse(400, 'No puedes informar de lo que has escrito tú.')
  if (!message.senderId) refuse(404, 'Este miembro ya no está en la comunidad.')
  const context = await getDb()
    .select({ senderId: messages.senderId, body: messages.body, createdAt: messages.createdAt })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, message.conversationId),
        // Compared in the database: a JavaScript Date would drop the microseconds.
        sql`(${messages.createdAt}, ${messages.id}) <= (select m.created_at, m.id from messages m where m.id = ${message.id})`,
      ),
    )
    .orderBy(sql`${messages.createdAt} desc, ${messages.id} desc`)
    .limit(REPORTED_CONTEXT)
  return {
    senderId: message.senderId,
    context: {
      messages: context.reverse().map((row) => ({
        byReported: row.senderId === message.senderId,
        body: row.body,
        at: row.createdAt.toISOString(),
      })),
    },
  }
}
