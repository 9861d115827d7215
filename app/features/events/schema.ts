import { sql } from 'drizzle-orm'
import { index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { user, userIdColumn } from '../../platform/auth/schema'
import { ceoSessions } from '../ceo-sessions/schema'

/** Spec 001 §3: presencial | virtual | hibrido. */
export const eventTypeEnum = pgEnum('event_type', ['presencial', 'virtual', 'hibrido'])
/** A place taken, or a place in the queue behind a full event (the spec's 'registrado' is `registered`). */
export const attendanceStatusEnum = pgEnum('event_attendance_status', ['registered', 'waitlisted'])

/**
 * An event of the community (spec 001 §3 `events`). The date is an instant; `time_zone` is the
 * zone its time is announced in (Europe/Madrid by default). `registered_count` moves with each
 * registration in the same transaction, under the event row's lock, so capacity holds.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    content: text('content'),
    eventDate: timestamp('event_date', { withTimezone: true }).notNull(),
    timeZone: text('time_zone').notNull().default('Europe/Madrid'),
    durationMinutes: integer('duration_minutes').notNull().default(90),
    location: text('location'),
    eventType: eventTypeEnum('event_type').notNull(),
    maxAttendees: integer('max_attendees'),
    externalLink: text('external_link'),
    imageKey: text('image_key'),
    /** The recording, once the event has happened (a published CEO session). */
    recordingSessionId: uuid('recording_session_id').references(() => ceoSessions.id, { onDelete: 'set null' }),
    registeredCount: integer('registered_count').notNull().default(0),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('events_date_idx').on(table.eventDate, table.id),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('events_created_by_idx')
      .on(table.createdBy)
      .where(sql`${table.createdBy} is not null`),
    index('events_recording_idx')
      .on(table.recordingSessionId)
      .where(sql`${table.recordingSessionId} is not null`),
  ],
)

export const eventAttendees = pgTable(
  'event_attendees',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: userIdColumn(),
    status: attendanceStatusEnum('status').notNull(),
    /** When the member registered or joined the queue: the queue's order. */
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.eventId, table.userId] }),
    index('event_attendees_queue_idx').on(table.eventId, table.status, table.registeredAt),
    index('event_attendees_user_idx').on(table.userId),
  ],
)

/**
 * A member's private calendar feed. Its address carries a token derived from a random nonce and
 * the app's secret (so the page can show it again); only the token's hash is looked up. A new
 * nonce revokes the old address.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: userIdColumn().primaryKey(),
  nonce: text('nonce').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
