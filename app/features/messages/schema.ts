import { sql } from 'drizzle-orm'
import { check, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { user, userIdColumn } from '../../platform/auth/schema'
import { MESSAGE_BODY_MAX } from './limits'

/**
 * Private messages (issue 41, decisions/0032). One conversation per pair of members, its two ids
 * stored ordered (user_a < user_b) so the pair is unique whoever writes first; each side keeps its
 * own read position and unread count. A side's id goes null when that account is deleted: the other
 * member keeps the conversation, whose messages then read 'Miembro eliminado'.
 */

/** 'request' until the recipient accepts ('Solicitudes de mensaje'); 'ignored' is never told to the sender. */
export const conversationStateEnum = pgEnum('conversation_state', ['request', 'accepted', 'ignored'])

/** Who may write to a member ('Cualquier miembro', 'Solo miembros con quienes ya he hablado', 'Nadie'). */
export const messagePolicyEnum = pgEnum('message_policy', ['anyone', 'known', 'nobody'])

const sideColumn = (name: string) => text(name).references(() => user.id, { onDelete: 'set null' })

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userA: sideColumn('user_a'),
    userB: sideColumn('user_b'),
    state: conversationStateEnum('state').notNull().default('request'),
    // Who wrote first: the request is theirs, the choice to accept the other's.
    startedBy: sideColumn('started_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageId: uuid('last_message_id'),
    aLastReadAt: timestamp('a_last_read_at', { withTimezone: true }),
    bLastReadAt: timestamp('b_last_read_at', { withTimezone: true }),
    aUnread: integer('a_unread').notNull().default(0),
    bUnread: integer('b_unread').notNull().default(0),
  },
  (table) => [
    unique('conversations_pair_key').on(table.userA, table.userB),
    check('conversations_ordered', sql`${table.userA} < ${table.userB}`),
    // A member's list, newest first: one index per side, read as two ordered branches.
    index('conversations_a_idx').on(table.userA, table.lastMessageAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('conversations_started_by_idx').on(table.startedBy),
    index('conversations_b_idx').on(table.userB, table.lastMessageAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
  ],
)

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    // Null once the sender's account is deleted and they kept their writing ('Miembro eliminado').
    senderId: sideColumn('sender_id'),
    body: text('body').notNull(),
    // Made by the browser when the message was typed: a retried post is stored once.
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('messages_body_length', sql`char_length(${table.body}) between 1 and ${sql.raw(String(MESSAGE_BODY_MAX))}`),
    uniqueIndex('messages_idempotency_idx').on(table.senderId, table.idempotencyKey),
    // The conversation page and its older pages (keyset on created_at, id).
    index('messages_conversation_idx').on(table.conversationId, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The new-conversations limit and the export read a member's own messages.
    index('messages_sender_idx').on(table.senderId, table.createdAt),
  ],
)

/** 'Bloquear': the blocked member can no longer write to the blocker, who no longer lists the conversation. */
export const messageBlocks = pgTable(
  'message_blocks',
  {
    blockerId: userIdColumn(),
    blockedId: text('blocked_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.blockerId, table.blockedId] }), index('message_blocks_blocked_idx').on(table.blockedId)],
)

/** A member's choice of who may write to them; no row is 'anyone'. */
export const messagePreferences = pgTable('message_preferences', {
  userId: userIdColumn().primaryKey(),
  policy: messagePolicyEnum('policy').notNull().default('anyone'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
