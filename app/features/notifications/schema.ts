import { sql } from 'drizzle-orm'
import { boolean, index, pgEnum, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { user, userIdColumn } from '../../platform/auth/schema'
import { admissionApplications } from '../admission/schema'
import { ceoSessions } from '../ceo-sessions/schema'
import { events } from '../events/schema'
import { communityPosts } from '../feed/schema'

export const notificationTypeEnum = pgEnum('notification_type', [
  'like',
  'comment',
  'comment_like',
  'comment_reply',
  'other',
  'new_session',
  'session_published',
  'session_failed',
  'session_comment',
  'session_comment_reply',
  'new_event',
  'event_spot',
  'event_reminder',
  'admission_application',
  // Issue 28: a new report (to moderators), what became of a report (to its reporter), a decision about
  // a member's writing or account (to them: hidden, deleted, restored, a warning, a suspension).
  'moderation_report',
  'moderation_outcome',
  'moderation_decision',
])

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userIdColumn(),
    type: notificationTypeEnum('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    /** Waits to go out in the recipient's next activity e-mail (activity-email.server.ts). */
    emailPending: boolean('email_pending').notNull().default(false),
    relatedPostId: uuid('related_post_id').references(() => communityPosts.id, { onDelete: 'cascade' }),
    /** A post's or a session's comment: no foreign key, triggers remove it with the comment (migration 0013). */
    relatedCommentId: uuid('related_comment_id'),
    relatedSessionId: uuid('related_session_id').references(() => ceoSessions.id, { onDelete: 'cascade' }),
    relatedEventId: uuid('related_event_id').references(() => events.id, { onDelete: 'cascade' }),
    actorUserId: text('actor_user_id').references(() => user.id, { onDelete: 'set null' }),
    /**
     * Whom the words name when it is not the actor (a reported member, the author of reported
     * writing): the notification goes with their account (decisions/0028).
     */
    subjectUserId: text('subject_user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** The application whose applicant the words name: the notification goes with it (retention or deletion). */
    applicationId: uuid('application_id').references(() => admissionApplications.id, { onDelete: 'cascade' }),
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
    // What an account's deletion or an application's retention removes, without reading the whole table.
    index('notifications_subject_idx')
      .on(table.subjectUserId)
      .where(sql`${table.subjectUserId} is not null`),
    index('notifications_application_idx')
      .on(table.applicationId)
      .where(sql`${table.applicationId} is not null`),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('notifications_post_idx')
      .on(table.relatedPostId)
      .where(sql`${table.relatedPostId} is not null`),
    index('notifications_comment_idx')
      .on(table.relatedCommentId)
      .where(sql`${table.relatedCommentId} is not null`),
    index('notifications_actor_idx')
      .on(table.actorUserId)
      .where(sql`${table.actorUserId} is not null`),
    index('notifications_unread_idx')
      .on(table.userId)
      .where(sql`not ${table.isRead}`),
    index('notifications_email_pending_idx')
      .on(table.userId, table.createdAt)
      .where(sql`${table.emailPending}`),
  ],
)

/**
 * How a member hears of one topic (issue 14): the bell and e-mail, the bell only, or not at all;
 * issue 42 adds the bell and push, and all three.
 */
export const notificationChannelEnum = pgEnum('notification_channel', ['email', 'web', 'off', 'push', 'all'])
export const digestFrequencyEnum = pgEnum('digest_frequency', ['never', 'daily', 'weekly'])

/**
 * Each member's notification preferences, one row per profile (a trigger adds it, migration 0012),
 * so the defaults live here once. Also what the e-mail digest needs to send once per period.
 */
export const notificationSettings = pgTable('notification_settings', {
  userId: userIdColumn().primaryKey(),
  comments: notificationChannelEnum('comments').notNull().default('email'),
  replies: notificationChannelEnum('replies').notNull().default('email'),
  likes: notificationChannelEnum('likes').notNull().default('web'),
  sessions: notificationChannelEnum('sessions').notNull().default('web'),
  events: notificationChannelEnum('events').notNull().default('web'),
  myEvents: notificationChannelEnum('my_events').notNull().default('email'),
  /** Admins only: a new application to join (issue 26). */
  admissions: notificationChannelEnum('admissions').notNull().default('email'),
  /** Moderators and admins only: a new report (issue 28). */
  reports: notificationChannelEnum('reports').notNull().default('email'),
  /** Private messages (issue 41): e-mailed when unread 15 minutes after they arrived, pushed as they come (issue 42, who wrote, never what); never in the bell. */
  messages: notificationChannelEnum('messages').notNull().default('email'),
  digest: digestFrequencyEnum('digest').notNull().default('weekly'),
  /** The member's IANA zone, as their browser told it when they saved; the digest goes at 08:00 there. */
  timeZone: text('time_zone'),
  /**
   * Quiet hours (issue 42), minutes after midnight in the member's zone (Europe/Madrid until
   * known): pushes that come inside wait for the end; the bell does not. Equal: none.
   */
  quietStart: smallint('quiet_start')
    .notNull()
    .default(22 * 60),
  quietEnd: smallint('quiet_end')
    .notNull()
    .default(8 * 60),
  /** The last period a digest was settled for ('2026-11-30' daily, '2026-W49' weekly), sent or empty. */
  digestPeriod: text('digest_period'),
  digestSentAt: timestamp('digest_sent_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
