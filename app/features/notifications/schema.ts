import { sql } from 'drizzle-orm'
import { boolean, index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { user } from '../../platform/auth/schema'
import { ceoSessions } from '../ceo-sessions/schema'
import { events } from '../events/schema'
import { communityComments, communityPosts } from '../feed/schema'

export const notificationTypeEnum = pgEnum('notification_type', [
  'like',
  'comment',
  'comment_like',
  'comment_reply',
  'other',
  'new_session',
  'session_comment',
  'session_comment_reply',
  'new_event',
  'event_spot',
])

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    type: notificationTypeEnum('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    relatedPostId: uuid('related_post_id').references(() => communityPosts.id, { onDelete: 'cascade' }),
    relatedCommentId: uuid('related_comment_id').references(() => communityComments.id, { onDelete: 'cascade' }),
    relatedSessionId: uuid('related_session_id').references(() => ceoSessions.id, { onDelete: 'cascade' }),
    relatedEventId: uuid('related_event_id').references(() => events.id, { onDelete: 'cascade' }),
    actorUserId: text('actor_user_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('notifications_recipient_idx').on(table.userId, table.createdAt.desc().nullsFirst()),
    // A session's deletion removes its notifications without reading the whole table.
    index('notifications_session_idx')
      .on(table.relatedSessionId)
      .where(sql`${table.relatedSessionId} is not null`),
    index('notifications_event_idx')
      .on(table.relatedEventId)
      .where(sql`${table.relatedEventId} is not null`),
    index('notifications_unread_idx')
      .on(table.userId)
      .where(sql`not ${table.isRead}`),
  ],
)
