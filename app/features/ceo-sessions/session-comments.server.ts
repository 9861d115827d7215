import { and, asc, eq, sql } from 'drizzle-orm'
import { profiles } from '~/features/account/schema'
import { displayName } from '~/features/account/display-name'
import type { CommentView } from '~/features/feed/types'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import type { CurrentUser } from '~/platform/auth/guards.server'
import { can } from '~/platform/auth/capabilities'
import { getDb } from '~/platform/db/client.server'
import { ceoSessionComments, ceoSessions } from './schema'

/** A session's comments, oldest first, with their authors: one query. Same view as the feed's. */
export async function listSessionComments(sessionId: string, viewer: Pick<CurrentUser, 'id' | 'roles'>): Promise<CommentView[]> {
  const rows = await getDb()
    .select({
      id: ceoSessionComments.id,
      userId: ceoSessionComments.userId,
      content: ceoSessionComments.content,
      parentCommentId: ceoSessionComments.parentCommentId,
      createdAt: ceoSessionComments.createdAt,
      updatedAt: ceoSessionComments.updatedAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      displayName: profiles.displayName,
      avatarUrl: profiles.avatarUrl,
    })
    .from(ceoSessionComments)
    .leftJoin(profiles, eq(profiles.userId, ceoSessionComments.userId))
    .where(eq(ceoSessionComments.sessionId, sessionId))
    .orderBy(asc(ceoSessionComments.createdAt), asc(ceoSessionComments.id))
    .limit(500)
  return rows.map((row) => ({
    id: row.id,
    content: row.content,
    parentCommentId: row.parentCommentId,
    likeCount: 0,
    likedByMe: false,
    createdAt: row.createdAt.toISOString(),
    edited: row.updatedAt.getTime() - row.createdAt.getTime() > 1000,
    author: { userId: row.userId, name: displayName(row), avatarUrl: row.avatarUrl },
    canEdit: row.userId === viewer.id,
    canDelete: row.userId === viewer.id || can(viewer, 'moderate-content'),
  }))
}

export async function getSessionComment(commentId: string) {
  const [row] = await getDb()
    .select({ id: ceoSessionComments.id, sessionId: ceoSessionComments.sessionId, userId: ceoSessionComments.userId })
    .from(ceoSessionComments)
    .where(eq(ceoSessionComments.id, commentId))
  return row ?? null
}

/**
 * A comment or a reply under a published session, with the feed's rules: replies one level deep
 * (a reply to a reply joins its thread), the counter and the notifications commit with it, the
 * replied-to author and the session's creator hear of it once. Null when the session or the
 * comment replied to does not exist.
 */
export async function addSessionComment(input: {
  sessionId: string
  userId: string
  content: string
  parentCommentId: string | null
  actorName: string
}) {
  return getDb().transaction(async (tx) => {
    let parent: { id: string; userId: string } | null = null
    if (input.parentCommentId) {
      const [found] = await tx
        .select({ id: ceoSessionComments.id, userId: ceoSessionComments.userId, parentCommentId: ceoSessionComments.parentCommentId })
        .from(ceoSessionComments)
        .where(and(eq(ceoSessionComments.id, input.parentCommentId), eq(ceoSessionComments.sessionId, input.sessionId)))
      if (!found) return null
      parent = { id: found.parentCommentId ?? found.id, userId: found.userId }
    }
    const [session] = await tx
      .update(ceoSessions)
      .set({ commentCount: sql`${ceoSessions.commentCount} + 1` })
      .where(and(eq(ceoSessions.id, input.sessionId), eq(ceoSessions.publicationStatus, 'published')))
      .returning({ createdBy: ceoSessions.createdBy, title: ceoSessions.title })
    if (!session) return null
    const [comment] = await tx
      .insert(ceoSessionComments)
      .values({ sessionId: input.sessionId, userId: input.userId, content: input.content, parentCommentId: parent?.id ?? null })
      .returning({ id: ceoSessionComments.id })
    const about = { actorId: input.userId, sessionId: input.sessionId }
    if (parent) {
      await notifyInTransaction(tx, {
        ...about,
        recipientId: parent.userId,
        type: 'session_comment_reply',
        title: 'Nueva respuesta',
        message: `${input.actorName} ha respondido a tu comentario en la sesión «${session.title}»`,
      })
    }
    if (session.createdBy && (!parent || parent.userId !== session.createdBy)) {
      await notifyInTransaction(tx, {
        ...about,
        recipientId: session.createdBy,
        type: 'session_comment',
        title: 'Nuevo comentario',
        message: `${input.actorName} ha comentado en tu sesión «${session.title}»`,
      })
    }
    return comment!.id
  })
}

export async function updateSessionComment(commentId: string, content: string) {
  await getDb()
    .update(ceoSessionComments)
    .set({ content, updatedAt: sql`now()` })
    .where(eq(ceoSessionComments.id, commentId))
}

/** Deleting a comment takes its replies with it; the counter drops by all of them. */
export async function deleteSessionComment(commentId: string) {
  await getDb().transaction(async (tx) => {
    const removed = await tx
      .delete(ceoSessionComments)
      .where(sql`${ceoSessionComments.id} = ${commentId} or ${ceoSessionComments.parentCommentId} = ${commentId}`)
      .returning({ sessionId: ceoSessionComments.sessionId })
    const sessionId = removed[0]?.sessionId
    if (!sessionId) return
    await tx
      .update(ceoSessions)
      .set({ commentCount: sql`greatest(${ceoSessions.commentCount} - ${removed.length}, 0)` })
      .where(eq(ceoSessions.id, sessionId))
  })
}
