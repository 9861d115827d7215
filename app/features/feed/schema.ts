import { sql } from 'drizzle-orm'
import { type AnyPgColumn, bigint, boolean, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { authorIdColumn } from '../../platform/auth/schema'
import { likesTable } from '../community/comments/schema'
import { hiddenColumns, reviewRequestIndex } from '../moderation/schema'

export const postCategories = pgTable('post_categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  color: text('color').notNull().default('#0b4f4a'),
  icon: text('icon'),
  description: text('description'),
})

export const postTypeEnum = pgEnum('post_type', ['text', 'link', 'document'])

export const communityPosts = pgTable(
  'community_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: authorIdColumn(),
    title: text('title').notNull(),
    content: text('content'),
    postType: postTypeEnum('post_type').notNull().default('text'),
    linkUrl: text('link_url'),
    categoryId: uuid('category_id').references(() => postCategories.id, { onDelete: 'set null' }),
    isPinned: boolean('is_pinned').notNull().default(false),
    // Kept in the same transaction as each like and comment, so a page of the feed
    // reads them without counting rows.
    likeCount: integer('like_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...hiddenColumns(),
  },
  (table) => [
    index('community_posts_feed_idx').on(
      table.isPinned.desc().nullsFirst(),
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('community_posts_category_feed_idx').on(
      table.categoryId,
      table.isPinned.desc().nullsFirst(),
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('community_posts_user_idx').on(table.userId),
    // /buscar's newest matches (features/search): the feed's own index leads with is_pinned.
    index('community_posts_created_idx').on(table.createdAt),
    reviewRequestIndex('community_posts_review_idx', table),
  ],
)

export const postAttachments = pgTable(
  'post_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    filePath: text('file_path').notNull(),
    fileType: text('file_type').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('post_attachments_post_idx').on(table.postId)],
)

export const communityComments = pgTable(
  'community_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    userId: authorIdColumn(),
    content: text('content').notNull(),
    parentCommentId: uuid('parent_comment_id').references((): AnyPgColumn => communityComments.id, { onDelete: 'cascade' }),
    likeCount: integer('like_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...hiddenColumns(),
  },
  (table) => [
    index('community_comments_post_idx').on(table.postId, table.createdAt),
    // The period's comments by date, with their post: the dashboard's most commented posts count
    // them from this index alone (an index-only range of the period). On (created_at) only, each
    // row meant a heap fetch, and at ×10 the planner read all of community_comments_post_idx
    // instead (every comment ever, to group them by post: 1,514 buffers, 161 now; issue 38).
    index('community_comments_created_idx').on(table.createdAt, table.postId),
    reviewRequestIndex('community_comments_review_idx', table),
    // A deletion of what these reference finds them by index, not by reading the table (foreign-keys.test.ts).
    index('community_comments_parent_idx')
      .on(table.parentCommentId)
      .where(sql`${table.parentCommentId} is not null`),
    index('community_comments_user_idx')
      .on(table.userId)
      .where(sql`${table.userId} is not null`),
  ],
)

export const postLikes = likesTable('post_likes', 'postId', () => communityPosts.id)
export const commentLikes = likesTable('comment_likes', 'commentId', () => communityComments.id)
