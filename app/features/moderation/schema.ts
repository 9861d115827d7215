import { sql } from 'drizzle-orm'
import { type AnyPgColumn, index, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { authorIdColumn, user, userIdColumn } from '../../platform/auth/schema'

/** What can be reported: a post, a comment of the feed, a comment of a CEO session, a member (item id: their user id). */
export const reportedKindEnum = pgEnum('reported_kind', ['post', 'comment', 'session_comment', 'member'])

/** Issue 28's reasons, in the order the form offers them. */
export const reportReasonEnum = pgEnum('report_reason', [
  'spam',
  'offensive',
  'false',
  'off_topic',
  'confidential',
  'other',
  'unwanted_messages',
])

/**
 * What a report of a private message carries for the queue (issue 41): that message and the five
 * before it, as they read when reported. Moderators read this and nothing else of a conversation.
 */
export interface ReportedMessages {
  messages: Array<{ byReported: boolean; body: string; at: string }>
}

/**
 * Open until a moderator decides; then 'actioned' (hidden, deleted, or the member warned, suspended
 * or expelled) or 'dismissed'; 'gone' when what it was about is deleted first (a trigger, migration 0028).
 */
export const reportStatusEnum = pgEnum('report_status', ['open', 'actioned', 'dismissed', 'gone'])

/** A member's report of something they read (issue 28). One open report per member and item. */
export const moderationReports = pgTable(
  'moderation_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The member who reported it.
    userId: userIdColumn(),
    kind: reportedKindEnum('kind').notNull(),
    itemId: uuid('item_id').notNull(),
    reason: reportReasonEnum('reason').notNull(),
    note: text('note'),
    // A reported private message and the five before it (issue 41); null for every other report.
    context: jsonb('context').$type<ReportedMessages>(),
    status: reportStatusEnum('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('moderation_reports_one_open_idx')
      .on(table.userId, table.kind, table.itemId)
      .where(sql`status = 'open'`),
    index('moderation_reports_item_idx').on(table.kind, table.itemId),
    // The queue walks the open reports in its order and keeps each item's oldest (decisions/0029).
    index('moderation_reports_open_idx')
      .on(table.createdAt, table.itemId)
      .where(sql`status = 'open'`),
    index('moderation_reports_open_item_idx')
      .on(table.kind, table.itemId, table.createdAt, table.id)
      .where(sql`status = 'open'`),
  ],
)

/** About an item (hide, delete, dismiss, restore) or about its author (warn, suspend, ban, lift: kind 'member'). */
export const decisionActionEnum = pgEnum('moderation_action', ['hide', 'delete', 'dismiss', 'restore', 'warn', 'suspend', 'ban', 'lift'])

/**
 * What moderators decided about an item, with the reason its author is shown: the author's
 * history in the queue, and part of their data export. The moderator's name is never shown to members.
 */
export const moderationDecisions = pgTable(
  'moderation_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: reportedKindEnum('kind').notNull(),
    itemId: uuid('item_id').notNull(),
    // The item's author; null once their account is deleted (the decision stays, about nobody).
    userId: authorIdColumn(),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
    action: decisionActionEnum('action').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('moderation_decisions_user_idx').on(table.userId, table.createdAt),
    index('moderation_decisions_item_idx').on(table.kind, table.itemId),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('moderation_decisions_decided_by_idx')
      .on(table.decidedBy)
      .where(sql`${table.decidedBy} is not null`),
  ],
)

/**
 * An item a moderator hid: others no longer see it, its author sees it with the reason and may
 * edit it and ask for a review (issue 28). Null while it is visible.
 */
export const hiddenColumns = () => ({
  hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  hiddenReason: text('hidden_reason'),
  reviewRequestedAt: timestamp('review_requested_at', { withTimezone: true }),
})

/** The queue reads the hidden items whose author asked for a review without reading the table, in its order. */
export const reviewRequestIndex = (name: string, table: { reviewRequestedAt: AnyPgColumn; id: AnyPgColumn; hiddenAt: AnyPgColumn }) =>
  index(name)
    .on(table.reviewRequestedAt, table.id)
    .where(sql`${table.hiddenAt} is not null and ${table.reviewRequestedAt} is not null`)
