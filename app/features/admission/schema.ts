import { sql } from 'drizzle-orm'
import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { ACCENTED, PLAIN } from '../account/schema'
import { user } from '../../platform/auth/schema'

/**
 * Where an application stands. Open (one per e-mail at a time, re-applying updates it): pending,
 * info_requested, waitlisted. Closed: approved, rejected, withdrawn (decisions/0025).
 */
export const admissionStatusEnum = pgEnum('admission_status', [
  'pending',
  'info_requested',
  'waitlisted',
  'approved',
  'rejected',
  'withdrawn',
])

export const OPEN_STATUSES = ['pending', 'info_requested', 'waitlisted'] as const

/** An application to join, sent from /admision (issue 26). Personal data: kept as the privacy page says. */
export const admissionApplications = pgTable(
  'admission_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    linkedinUrl: text('linkedin_url').notNull(),
    company: text('company').notNull(),
    position: text('position').notNull(),
    sector: text('sector', { enum: ['pharma', 'biotech', 'medtech', 'diagnostics', 'digital_health', 'other'] }).notNull(),
    yearsExperience: integer('years_experience').notNull(),
    targetRole: text('target_role').notNull(),
    contribution: text('contribution').notNull(),
    expectations: text('expectations').notNull(),
    referral: text('referral'),
    status: admissionStatusEnum('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was approved, rejected or withdrawn: the retention job counts from here (decisions/0025). */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The account the invitation was used by: the application goes with it when it is deleted. */
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    invitationUsedAt: timestamp('invitation_used_at', { withTimezone: true }),
    /** Names, e-mail and company lower-cased without accents, for the queue's search. */
    search: text('search').generatedAlwaysAs(
      sql.raw(`translate(lower(first_name || ' ' || last_name || ' ' || email || ' ' || company), '${ACCENTED}', '${PLAIN}')`),
    ),
  },
  (table) => [
    // One open application per e-mail: applying again updates it (and two sends at once cannot make two).
    uniqueIndex('admission_open_email_idx')
      .on(table.email)
      .where(sql`${table.status} in ('pending', 'info_requested', 'waitlisted')`),
    index('admission_email_idx').on(table.email),
    index('admission_status_created_idx').on(table.status, table.createdAt.desc().nullsFirst()),
    // The queue's order to the last key: its page is read from the index, never sorted (issue 38).
    index('admission_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('admission_user_idx')
      .on(table.userId)
      .where(sql`${table.userId} is not null`),
    index('admission_closed_idx')
      .on(table.closedAt)
      .where(sql`${table.closedAt} is not null`),
  ],
)

/** An application's history: what the applicant sent and each note and decision, who and when. */
export const admissionEvents = pgTable(
  'admission_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => admissionApplications.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: [
        'submitted',
        'updated',
        'note',
        'approved',
        'rejected',
        'waitlisted',
        'info_requested',
        'answered',
        'withdrawn',
        'invitation_used',
      ],
    }).notNull(),
    /** The admin who acted; null for the applicant's own steps. */
    actorUserId: text('actor_user_id').references(() => user.id, { onDelete: 'set null' }),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('admission_events_application_idx').on(table.applicationId, table.createdAt),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('admission_events_actor_idx')
      .on(table.actorUserId)
      .where(sql`${table.actorUserId} is not null`),
  ],
)
