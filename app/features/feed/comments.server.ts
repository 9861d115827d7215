import { and, asc, eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { getDb } from '~/platform/db/client.server'
import { commentLikes, communityComments, communityPosts } from './schema'
import { profiles } from '~/features/account/schema'
import type { CommentView } from './types'
import { can } from '~/platform/auth/capabilities'
import { displayName } from '~/features/account/display-name'
import type { CurrentUser } from '~/platform/auth/guards.server'
import { publishPostStats } from './posts.server'
import { notifyInTransaction } from '~/features/notifications/notifications.server'

/** A post's comments, oldest first, with authors and the viewer's likes: one query. */
export async function listComments(postId: string, viewerId: string) {
  const myLike = alias(commentLikes, 'my_comment_like')
  const rows = await getDb()
    .select({
      id: communityComments.id,
      userId: communityComments.userId,
      content: communityComments.content,
      parentCommentId: communityComments.parentCommentId,
      likeCount: communityComments.likeCount,
      createdAt: communityComments.createdAt,
      updatedAt: communityComments.updatedAt,
      authorFirstName: profiles.firstName,
      authorLastName: profiles.lastName,
      authorDisplayName: profiles.displayName,
      authorAvatarUrl: profiles.avatarUrl,
      likedByMe: sql<boolean>`${myLike.userId} is not null`,
    })
    .from(communityComments)
    .leftJoin(profiles, eq(profiles.userId, communityComments.userId))
    .leftJoin(myLike, and(eq(myLike.commentId, communityComments.id), eq(myLike.userId, viewerId)))
    .where(eq(communityComments.postId, postId))
    .orderBy(asc(communityComments.createdAt), asc(communityComments.id))
    .limit(500)
  return rows.map((row) => ({
    ...row,
    authorName: displayName({ displayName: row.authorDisplayName, firstName: row.authorFirstName, lastName: row.authorLastName }),
  }))
}

type ListedComment = Awaited<ReturnType<typeof listComments>>[number]

/** What the browser gets for a comment, with what this viewer may do with it. */
export function toCommentView(comment: ListedComment, viewer: Pick<CurrentUser, 'id' | 'roles'>): CommentView {
  return {
    id: comment.id,
    content: comment.content,
    parentCommentId: comment.parentCommentId,
    likeCount: comment.likeCount,
    likedByMe: comment.likedByMe,
    createdAt: comment.createdAt.toISOString(),
    edited: comment.updatedAt.getTime() - comment.createdAt.getTime() > 1000,
    author: { userId: comment.userId, name: comment.authorName, avatarUrl: comment.authorAvatarUrl },
    canEdit: comment.userId === viewer.id,
    canDelete: comment.userId === viewer.id || can(viewer, 'moderate-content'),
  }
}

export async function getComment(commentId: string) {
  const [comment] = await getDb()
    .select({
      id: communityComments.id,
      postId: communityComments.postId,
      userId: communityComments.userId,
      parentCommentId: communityComments.parentCommentId,
    })
    .from(communityComments)
    .where(eq(communityComments.id, commentId))
  return comment ?? null
}

/**
 * Adds a comment or a reply. Replies go one level deep (spec): a reply to a reply joins
 * its thread. The post's counter and the notifications commit with the comment. Returns null
 * when the post, or the comment replied to, does not exist.
 */
export async function addComment({
  postId,
  userId,
  content,
  parentCommentId,
  actorName,
}: {
  postId: string
  userId: string
  content: string
  parentCommentId: string | null
  actorName: string
}) {
  return getDb().transaction(async (tx) => {
    let parent: { id: string; userId: string } | null = null
    if (parentCommentId) {
      const [found] = await tx
        .select({ id: communityComments.id, userId: communityComments.userId, parentCommentId: communityComments.parentCommentId })
        .from(communityComments)
        .where(and(eq(communityComments.id, parentCommentId), eq(communityComments.postId, postId)))
      if (!found) return null
      const threadRootId = found.parentCommentId ?? found.id
      parent = threadRootId === found.id ? found : { id: threadRootId, userId: found.userId }
    }
    const [post] = await tx
      .update(communityPosts)
      .set({ commentCount: sql`${communityPosts.commentCount} + 1` })
      .where(eq(communityPosts.id, postId))
      .returning({ authorId: communityPosts.userId, title: communityPosts.title })
    if (!post) return null

    const [comment] = await tx
      .insert(communityComments)
      .values({ postId, userId, content, parentCommentId: parent?.id ?? null })
      .returning({ id: communityComments.id })
    await publishPostStats(tx, postId)

    if (parent) {
      await notifyInTransaction(tx, {
        recipientId: parent.userId,
        actorId: userId,
        type: 'comment_reply',
        title: 'Nueva respuesta',
        message: `${actorName} ha respondido a tu comentario en «${post.title}»`,
        postId,
        commentId: comment!.id,
      })
    }
    if (!parent || parent.userId !== post.authorId) {
      await notifyInTransaction(tx, {
        recipientId: post.authorId,
        actorId: userId,
        type: 'comment',
        title: 'Nuevo comentario',
        message: `${actorName} ha comentado en tu post «${post.title}»`,
        postId,
        commentId: comment!.id,
      })
    }
    return comment!.id
  })
}

export async function updateComment(commentId: string, content: string) {
  await getDb()
    .update(communityComments)
    .set({ content, updatedAt: sql`now()` })
    .where(eq(communityComments.id, commentId))
}

/** Deleting a comment takes its replies with it; the post's counter drops by all of them. */
export async function deleteComment(commentId: string) {
  await getDb().transaction(async (tx) => {
    const [comment] = await tx
      .select({ postId: communityComments.postId })
      .from(communityComments)
      .where(eq(communityComments.id, commentId))
    if (!comment) return
    const removed = await tx
      .delete(communityComments)
      .where(sql`${communityComments.id} = ${commentId} or ${communityComments.parentCommentId} = ${commentId}`)
      .returning({ id: communityComments.id })
    await tx
      .update(communityPosts)
      .set({ commentCount: sql`greatest(${communityPosts.commentCount} - ${removed.length}, 0)` })
      .where(eq(communityPosts.id, comment.postId))
    await publishPostStats(tx, comment.postId)
  })
}

export async function toggleCommentLike({ commentId, userId, actorName }: { commentId: string; userId: string; actorName: string }) {
  return getDb().transaction(async (tx) => {
    const removed = await tx
      .delete(commentLikes)
      .where(and(eq(commentLikes.commentId, commentId), eq(commentLikes.userId, userId)))
      .returning({ commentId: commentLikes.commentId })
    if (removed.length) {
      const [comment] = await tx
        .update(communityComments)
        .set({ likeCount: sql`greatest(${communityComments.likeCount} - 1, 0)` })
        .where(eq(communityComments.id, commentId))
        .returning({ likeCount: communityComments.likeCount })
      return { liked: false, likeCount: comment?.likeCount ?? 0 }
    }
    const added = await tx
      .insert(commentLikes)
      .values({ commentId, userId })
      .onConflictDoNothing()
      .returning({ commentId: commentLikes.commentId })
    if (added.length === 0) {
      // A concurrent request liked first: count and notify once.
      const [comment] = await tx
        .select({ likeCount: communityComments.likeCount })
        .from(communityComments)
        .where(eq(communityComments.id, commentId))
      return { liked: true, likeCount: comment?.likeCount ?? 0 }
    }
    const [comment] = await tx
      .update(communityComments)
      .set({ likeCount: sql`${communityComments.likeCount} + 1` })
      .where(eq(communityComments.id, commentId))
      .returning({ likeCount: communityComments.likeCount, authorId: communityComments.userId, postId: communityComments.postId })
    if (comment) {
      await notifyInTransaction(tx, {
        recipientId: comment.authorId,
        actorId: userId,
        type: 'comment_like',
        title: 'Like en tu comentario',
        message: `A ${actorName} le gusta tu comentario`,
        postId: comment.postId,
        commentId,
      })
    }
    return { liked: true, likeCount: comment?.likeCount ?? 0 }
  })
}
