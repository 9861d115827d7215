import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { communityComments, communityPosts, postAttachments, postCategories, postLikes } from './schema'
import { profiles, publicProfileColumns } from '~/features/account/schema'
import { DELETED_MEMBER, displayName } from '~/features/account/display-name'
import type { CurrentUser } from '~/features/account/guards.server'
import { can } from '~/platform/auth/capabilities'
import { signedUploadUrl } from '~/platform/storage/signed-url.server'
import type { FeedPostView } from './types'

/** Posts per page (issue 38): the first page's HTML stays small; the next ones come as the member reads. */
export const FEED_PAGE_SIZE = 10

export async function categoryExists(categoryId: string) {
  const [row] = await getDb().select({ id: postCategories.id }).from(postCategories).where(eq(postCategories.id, categoryId))
  return Boolean(row)
}

// The categories are written by migrations only (0003): read once per database opened.
let categories: { db: ReturnType<typeof getDb>; list: Promise<Array<{ id: string; name: string; color: string }>> } | undefined

export function listCategories() {
  const db = getDb()
  if (categories?.db !== db) {
    const list = db
      .select({ id: postCategories.id, name: postCategories.name, color: postCategories.color })
      .from(postCategories)
      .orderBy(asc(postCategories.name))
      .then((rows) => rows)
    // A failed read is tried again by the next request.
    list.catch(() => (categories = undefined))
    categories = { db, list }
  }
  return categories.list
}

/** Where the next page starts: (pinned, created_at in µs, id) of the last post shown. */
interface FeedCursor {
  pinned: boolean
  micros: string
  id: string
}

function encodeCursor(cursor: FeedCursor) {
  return Buffer.from(JSON.stringify([cursor.pinned, cursor.micros, cursor.id])).toString('base64url')
}

export function decodeCursor(value: string | null | undefined): FeedCursor | null {
  if (!value || value.length > 200) return null
  try {
    const [pinned, micros, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[]
    if (typeof pinned !== 'boolean' || typeof micros !== 'string' || !/^\d{1,17}$/.test(micros)) return null
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) return null
    return { pinned, micros, id }
  } catch {
    return null
  }
}

const createdMicros = sql<string>`(extract(epoch from ${communityPosts.createdAt}) * 1000000)::bigint::text`

/**
 * One page of the feed, pinned first then newest, with the author, the category and
 * whether the viewer liked each post: two queries whatever the page size (posts, then
 * their attachments), keyset-paginated so page 500 costs what page 1 costs.
 */
export async function listFeed({
  viewerId,
  categoryId,
  cursor,
  postId,
  limit = FEED_PAGE_SIZE,
}: {
  viewerId: string
  categoryId?: string | null
  cursor?: FeedCursor | null
  /** Only this post (a notification's link to a post that is not on the first page). */
  postId?: string
  limit?: number
}) {
  const db = getDb()
  const myLike = alias(postLikes, 'my_like')
  // A post hidden by moderation is its author's alone to see (issue 28).
  const filters = [or(isNull(communityPosts.hiddenAt), eq(communityPosts.userId, viewerId))]
  if (categoryId) filters.push(eq(communityPosts.categoryId, categoryId))
  if (postId) filters.push(eq(communityPosts.id, postId))
  if (cursor) {
    filters.push(
      sql`(${communityPosts.isPinned}, ${communityPosts.createdAt}, ${communityPosts.id}) < (${cursor.pinned}, to_timestamp(${cursor.micros}::bigint / 1000000.0), ${cursor.id}::uuid)`,
    )
  }
  const rows = await db
    .select({
      id: communityPosts.id,
      userId: communityPosts.userId,
      title: communityPosts.title,
      content: communityPosts.content,
      postType: communityPosts.postType,
      linkUrl: communityPosts.linkUrl,
      isPinned: communityPosts.isPinned,
      likeCount: communityPosts.likeCount,
      commentCount: communityPosts.commentCount,
      createdAt: communityPosts.createdAt,
      updatedAt: communityPosts.updatedAt,
      micros: createdMicros,
      // No category: null (Drizzle nulls a left-joined table's object when its first column is null).
      category: { id: postCategories.id, name: postCategories.name, color: postCategories.color },
      author: { ...publicProfileColumns, isPremium: profiles.isPremium },
      likedByMe: sql<boolean>`${myLike.userId} is not null`,
      hiddenAt: communityPosts.hiddenAt,
      hiddenReason: communityPosts.hiddenReason,
      reviewRequestedAt: communityPosts.reviewRequestedAt,
    })
    .from(communityPosts)
    .leftJoin(profiles, eq(profiles.userId, communityPosts.userId))
    .leftJoin(postCategories, eq(postCategories.id, communityPosts.categoryId))
    .leftJoin(myLike, and(eq(myLike.postId, communityPosts.id), eq(myLike.userId, viewerId)))
    .where(and(...filters))
    .orderBy(desc(communityPosts.isPinned), desc(communityPosts.createdAt), desc(communityPosts.id))
    .limit(limit + 1)

  const page = rows.slice(0, limit)
  const attachments = page.length
    ? await db
        .select({
          id: postAttachments.id,
          postId: postAttachments.postId,
          fileName: postAttachments.fileName,
          filePath: postAttachments.filePath,
          fileType: postAttachments.fileType,
          fileSize: postAttachments.fileSize,
        })
        .from(postAttachments)
        .where(
          inArray(
            postAttachments.postId,
            page.map((post) => post.id),
          ),
        )
        .orderBy(asc(postAttachments.createdAt))
    : []
  const last = page.at(-1)
  return {
    posts: page.map((post) => ({
      ...post,
      authorName: post.userId ? displayName(post.author) : DELETED_MEMBER,
      attachments: attachments.filter((attachment) => attachment.postId === post.id),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ pinned: last.isPinned, micros: last.micros, id: last.id }) : null,
  }
}

export type FeedPost = Awaited<ReturnType<typeof listFeed>>['posts'][number]

/** What the browser gets for a post: the fields the card shows, and what this viewer may do. */
export function toPostView(post: FeedPost, viewer: CurrentUser): FeedPostView {
  return {
    id: post.id,
    title: post.title,
    content: post.content,
    postType: post.postType,
    linkUrl: post.linkUrl,
    isPinned: post.isPinned,
    likeCount: post.likeCount,
    commentCount: post.commentCount,
    likedByMe: post.likedByMe,
    createdAt: post.createdAt.toISOString(),
    edited: post.updatedAt.getTime() - post.createdAt.getTime() > 1000,
    author: {
      userId: post.userId,
      name: post.authorName,
      avatarUrl: post.author?.avatarUrl ?? null,
      isPremium: Boolean(post.author?.isPremium),
    },
    category: post.category,
    attachments: post.attachments.map((attachment) => ({
      id: attachment.id,
      fileName: attachment.fileName,
      fileType: attachment.fileType,
      fileSize: attachment.fileSize,
      url: signedUploadUrl(attachment.filePath, attachment.fileName),
      isImage: attachment.fileType.startsWith('image/'),
    })),
    moderation: post.hiddenAt ? { reason: post.hiddenReason, reviewRequested: Boolean(post.reviewRequestedAt) } : null,
    canEdit: post.userId === viewer.id,
    canDelete: post.userId === viewer.id || can(viewer, 'moderate-content'),
    canPin: can(viewer, 'pin-posts'),
  }
}

export async function getPost(postId: string) {
  const [post] = await getDb()
    .select({
      id: communityPosts.id,
      userId: communityPosts.userId,
      title: communityPosts.title,
      postType: communityPosts.postType,
      hiddenAt: communityPosts.hiddenAt,
    })
    .from(communityPosts)
    .where(eq(communityPosts.id, postId))
  return post ?? null
}

export interface NewAttachment {
  fileName: string
  filePath: string
  fileType: string
  fileSize: number
}

export async function createPost(post: {
  userId: string
  title: string
  content: string | null
  postType: 'text' | 'link' | 'document'
  linkUrl: string | null
  categoryId: string | null
  attachments: NewAttachment[]
}) {
  return getDb().transaction(async (tx) => {
    const [created] = await tx
      .insert(communityPosts)
      .values({
        userId: post.userId,
        title: post.title,
        content: post.content,
        postType: post.postType,
        linkUrl: post.linkUrl,
        categoryId: post.categoryId,
      })
      .returning({ id: communityPosts.id })
    if (post.attachments.length) {
      await tx.insert(postAttachments).values(post.attachments.map((attachment) => ({ ...attachment, postId: created!.id })))
    }
    return created!.id
  })
}

export async function updatePost(postId: string, fields: { title: string; content: string | null; linkUrl: string | null }) {
  await getDb()
    .update(communityPosts)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(communityPosts.id, postId))
}

/**
 * Deletes the post (comments, likes, attachments and notifications cascade); returns the files to
 * remove once committed. Inside the caller's transaction when given (a moderator's decision).
 */
export async function deletePost(postId: string, executor: DbExecutor = getDb()) {
  return executor.transaction(async (tx) => {
    const files = await tx.select({ filePath: postAttachments.filePath }).from(postAttachments).where(eq(postAttachments.postId, postId))
    await tx.delete(communityPosts).where(eq(communityPosts.id, postId))
    return files.map((file) => file.filePath)
  })
}

export async function setPinned(postId: string, pinned: boolean) {
  await getDb().update(communityPosts).set({ isPinned: pinned }).where(eq(communityPosts.id, postId))
}

/**
 * Tells every open page the post's counters once the transaction commits (members watching the
 * feed see likes and comments move): one statement that reads the counters as this transaction
 * leaves them.
 */
export async function publishPostStats(tx: DbExecutor, postId: string) {
  await tx.execute(sql`
    select pg_notify('app_events', json_build_object('type', 'post-stats', 'postId', id, 'likeCount', like_count, 'commentCount', comment_count)::text)
    from ${communityPosts} where id = ${postId}`)
}

/** For the e-mail digest: the posts with most comments since `since` (and those written since); never what moderation hid. */
export async function listMostActivePosts(since: Date, limit: number) {
  const recentComments = sql<number>`count(${communityComments.id})`.mapWith(Number)
  return getDb()
    .select({ id: communityPosts.id, title: communityPosts.title, authorId: communityPosts.userId, comments: recentComments })
    .from(communityPosts)
    .leftJoin(
      communityComments,
      and(eq(communityComments.postId, communityPosts.id), gte(communityComments.createdAt, since), isNull(communityComments.hiddenAt)),
    )
    .where(and(isNull(communityPosts.hiddenAt), or(gte(communityPosts.createdAt, since), gte(communityComments.createdAt, since))))
    .groupBy(communityPosts.id)
    .orderBy(desc(recentComments), desc(communityPosts.createdAt))
    .limit(limit)
}
