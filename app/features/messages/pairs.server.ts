import { and, eq } from 'drizzle-orm'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { readSettings } from '~/platform/settings/settings.server'
import { conversations, messageBlocks } from './schema'
import { messagesSettings } from './settings.server'

/* What every messages module reads of a pair: its order, its sides, blocks and the kill switches. */

export type Side = 'a' | 'b'

/** The pair as stored: the smaller id is user_a. */
export function orderedPair(one: string, other: string) {
  return one < other ? { userA: one, userB: other } : { userA: other, userB: one }
}

export function sideOf(conversation: { userA: string | null; userB: string | null }, userId: string): Side | null {
  if (conversation.userA === userId) return 'a'
  if (conversation.userB === userId) return 'b'
  return null
}

export const conversationColumns = {
  id: conversations.id,
  userA: conversations.userA,
  userB: conversations.userB,
  state: conversations.state,
  startedBy: conversations.startedBy,
  aUnread: conversations.aUnread,
  bUnread: conversations.bUnread,
  lastMessageAt: conversations.lastMessageAt,
}

export type ConversationRow = Pick<typeof conversations.$inferSelect, keyof typeof conversationColumns>

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(blocker: string, blocked: string, executor: DbExecutor = getDb()) {
  const [row] = await executor
    .select({ at: messageBlocks.createdAt })
    .from(messageBlocks)
    .where(and(eq(messageBlocks.blockerId, blocker), eq(messageBlocks.blockedId, blocked)))
  return Boolean(row)
}

/** The kill switches (admin settings): off for everyone, or for this member (as sender or recipient). */
export async function messagingOpen(userId: string) {
  const settings = await readSettings(messagesSettings)
  return settings.messagesEnabled && !settings.messagesMutedMembers.includes(userId)
}
