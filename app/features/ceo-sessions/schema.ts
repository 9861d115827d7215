import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { authorIdColumn, user, userIdColumn } from '../../platform/auth/schema'
import { hiddenColumns, reviewRequestIndex } from '../moderation/schema'
import { likesTable } from '../community/comments/schema'

/** Spec 001 §4: a session is processing until its video is ready, then published. */
export const publicationStatusEnum = pgEnum('ceo_session_publication_status', ['draft', 'processing', 'published', 'failed'])
export const uploadStatusEnum = pgEnum('ceo_session_upload_status', ['waiting', 'processing', 'ready', 'failed'])
/** Where the video lives: the app itself (embedded default) or Mux. */
export const videoProviderEnum = pgEnum('ceo_session_video_provider', ['local', 'mux'])

/**
 * A recorded session with a CEO (spec 001 §3 `ceo_sessions`). Files are storage keys, never
 * public addresses: the app serves them only to members with access. `video_url` of the spec is
 * not stored: playback is a short-lived address minted per viewer.
 */
export const ceoSessions = pgTable(
  'ceo_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    description: text('description').notNull(),
    ceoName: text('ceo_name').notNull(),
    ceoPosition: text('ceo_position').notNull(),
    ceoCompany: text('ceo_company').notNull(),
    sessionDate: timestamp('session_date', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes'),
    tags: text('tags').array().notNull().default([]),
    isFeatured: boolean('is_featured').notNull().default(false),
    /** Title, CEO, company, summary, description and tags, lower-cased without accents (written by the model). */
    searchText: text('search_text').notNull().default(''),
    thumbnailKey: text('thumbnail_key'),
    pdfKey: text('pdf_key'),
    pdfName: text('pdf_name'),
    captionsKey: text('captions_key'),
    videoProvider: videoProviderEnum('video_provider').notNull(),
    /** Embedded provider: the stored video's key once the upload is complete. */
    videoKey: text('video_key'),
    videoContentType: text('video_content_type'),
    /** The upload's id: Mux's direct upload id, or ours for the embedded provider. */
    uploadId: text('upload_id').unique(),
    muxAssetId: text('mux_asset_id').unique(),
    muxPlaybackId: text('mux_playback_id'),
    uploadStatus: uploadStatusEnum('upload_status').notNull().default('waiting'),
    publicationStatus: publicationStatusEnum('publication_status').notNull().default('processing'),
    /** Why processing failed, for the admin's panel (never shown to members). */
    failureReason: text('failure_reason'),
    viewCount: integer('view_count').notNull().default(0),
    likeCount: integer('like_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (table) => [
    // In the library's order as it is written (`desc`, which puts nulls first): an index built
    // 'desc nulls last' (drizzle-kit's default for desc()) does not give it, and the library sorted
    // every match (issue 38: 'Biotecnología' 18 ms at ×10, a whole read of the sessions).
    index('ceo_sessions_library_idx').on(table.publicationStatus, table.sessionDate.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // A search for a rare word (a CEO, a company) finds its few sessions here; a common one reads the
    // library's index newest first and stops at the page (the planner chooses by the word's frequency).
    index('ceo_sessions_search_text_trgm_idx').using('gin', table.searchText.op('gin_trgm_ops')),
    index('ceo_sessions_created_by_idx').on(table.createdBy),
  ],
)

/**
 * The embedded provider's upload in progress: the bytes received so far sit in a file of their
 * own until the last one arrives. `writer_until` is a short lease: one request writes at a time.
 */
export const videoUploads = pgTable(
  'ceo_session_video_uploads',
  {
    id: text('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .unique()
      .references(() => ceoSessions.id, { onDelete: 'cascade' }),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    totalBytes: bigint('total_bytes', { mode: 'number' }),
    receivedBytes: bigint('received_bytes', { mode: 'number' }).notNull().default(0),
    writerUntil: timestamp('writer_until', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // An account's deletion finds its uploads by index (foreign-keys.test.ts).
  (table) => [index('ceo_session_video_uploads_created_by_idx').on(table.createdBy)],
)

export const ceoSessionLikes = likesTable('ceo_session_likes', 'sessionId', () => ceoSessions.id)

export const ceoSessionComments = pgTable(
  'ceo_session_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ceoSessions.id, { onDelete: 'cascade' }),
    userId: authorIdColumn(),
    content: text('content').notNull(),
    parentCommentId: uuid('parent_comment_id').references((): AnyPgColumn => ceoSessionComments.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...hiddenColumns(),
  },
  (table) => [
    index('ceo_session_comments_session_idx').on(table.sessionId, table.createdAt),
    // /buscar's newest session comments when a word is in more than a thousand (decisions/0031).
    index('ceo_session_comments_created_idx').on(table.createdAt),
    reviewRequestIndex('ceo_session_comments_review_idx', table),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('ceo_session_comments_parent_idx')
      .on(table.parentCommentId)
      .where(sql`${table.parentCommentId} is not null`),
    index('ceo_session_comments_user_idx')
      .on(table.userId)
      .where(sql`${table.userId} is not null`),
  ],
)

/** Where a member left each session ('Continuar viendo'). */
export const ceoSessionProgress = pgTable(
  'ceo_session_progress',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ceoSessions.id, { onDelete: 'cascade' }),
    userId: userIdColumn(),
    positionSeconds: integer('position_seconds').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.sessionId, table.userId] }),
    index('ceo_session_progress_user_idx').on(table.userId, table.updatedAt.desc().nullsFirst()),
  ],
)

/** Openings per session and day (in the community's zone), written with view_count: the console's views of a period. */
export const ceoSessionDailyViews = pgTable(
  'ceo_session_daily_views',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ceoSessions.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    views: integer('views').notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.day] }), index('ceo_session_daily_views_day_idx').on(table.day)],
)
