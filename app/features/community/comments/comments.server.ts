import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { DELETED_MEMBER, displayName } from '~/features/account/display-name'
import { profiles, publicProfileColumns } from '~/features/account/schema'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { can } from '~/platform/auth/capabilities'
import type { CurrentUser } from '~/features/account/guards.server'
import { requireAccess, requireParticipation } from '~/platform/auth/guards.server'
import { type AuditEntry, recordAudit } from '~/platform/audit/audit.server'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { refuse, success } from '~/platform/http/responses.server'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import type { Column, Likeable, Notification } from './likes.server'
import type { CommentView, Subject } from './types'

type Viewer = Pick<CurrentUser, 'id' | 'roles'>

/**
 * What a feature tells this module about a thing members comment on (a post, a session): its
 * comments' table with the columns below, `on` the one naming what is commented, and `field` its
 * name alike in the form, in that table and in the notification (`postId` for a post).
 */
export interface Commentable<Field extends Subject = Subject> {
  field: Field
  comments: PgTable & {
    id: Column<string>
    /** Null once its author's account is deleted and the comment kept (ADR 0028). */
    userId: Column<string, boolean>
    content: Column<string>
    parentCommentId: Column<string, false>
    createdAt: Column<Date>
    updatedAt: Column<Date>
    hiddenAt: Column<Date, false>
    hiddenReason: Column<string, false>
    reviewRequestedAt: Column<Date, false>
  }
  on: Column<string>
  /** What is commented: its counter, and whose it is (told of each comment) under which title. */
  target: PgTable & { id: Column<string>; commentCount: Column<number> }
  owner: Column<string, boolean>
  title: Column<string>
  /** Only these take new comments (a session once published). */
  open?: SQL
  /** Where comments can be liked (the feed's). */
  likes?: Pick<Likeable<'commentId'>, 'likes' | 'on' | 'target'>
  /** Runs in the transaction that changed the counter (the feed tells open pages). */
  changed?: (tx: DbExecutor, targetId: string) => Promise<unknown>
  /** The notifications of a new comment (to the owner) and of a reply (to the one replied to). */
  notify: Record<'comment' | 'reply', { type: Notification['type']; message: (actorName: string, title: string) => string }>
}

/** The comments of one thing, oldest first, with their authors and the viewer's likes: one query. */
export async function listComments(c: Commentable, targetId: string, viewer: Viewer) {
  const { comments: t, likes } = c
  const rows = await getDb()
    .select({
      id: t.id,
      userId: t.userId,
      content: t.content,
      parentCommentId: t.parentCommentId,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      likeCount: likes ? likes.target.likeCount : sql<number>`0`,
      likedByMe: likes
        ? sql<boolean>`exists (select 1 from ${likes.likes} where ${likes.on} = ${t.id} and ${likes.likes.userId} = ${viewer.id})`
        : sql<boolean>`false`,
      ...publicProfileColumns,
      hiddenAt: t.hiddenAt,
      hiddenReason: t.hiddenReason,
      reviewRequestedAt: t.reviewRequestedAt,
    })
    .from(t)
    .leftJoin(profiles, eq(profiles.userId, t.userId))
    .where(eq(c.on, targetId))
    .orderBy(asc(t.createdAt), asc(t.id))
    .limit(500)
  // A comment hidden by moderation (issue 28) is its author's to see, with the reason; to others
  // it is gone, or a one-line placeholder where replies hang from it.
  const answered = new Set(rows.filter((row) => !row.hiddenAt && row.parentCommentId).map((row) => row.parentCommentId))
  return rows.filter((row) => !row.hiddenAt || row.userId === viewer.id || answered.has(row.id)).map((row) => toCommentView(row, viewer))
}

type ListedComment = Omit<CommentView, 'createdAt' | 'edited' | 'author' | 'canEdit' | 'canDelete' | 'moderation'> & {
  userId: string | null
  hiddenAt?: Date | null
  hiddenReason?: string | null
  reviewRequestedAt?: Date | null
  createdAt: Date
  updatedAt: Date
  firstName: string | null
  lastName: string | null
  displayName: string | null
  avatarUrl: string | null
}

/** Edited means changed more than a second after it was written; the author edits, the author or a moderator deletes. */
export function toCommentView(row: ListedComment, viewer: Viewer): CommentView {
  const mine = row.userId === viewer.id
  if (row.hiddenAt && !mine) {
    return {
      id: row.id,
      content: '',
      parentCommentId: row.parentCommentId,
      likeCount: 0,
      likedByMe: false,
      createdAt: row.createdAt.toISOString(),
      edited: false,
      author: { userId: null, name: '', avatarUrl: null },
      moderation: { reason: null, reviewRequested: false },
      canEdit: false,
      canDelete: can(viewer, 'moderate-content'),
    }
  }
  return {
    id: row.id,
    content: row.content,
    parentCommentId: row.parentCommentId,
    likeCount: row.likeCount,
    likedByMe: row.likedByMe,
    createdAt: row.createdAt.toISOString(),
    edited: row.updatedAt.getTime() - row.createdAt.getTime() > 1000,
    author: { userId: row.userId, name: row.userId ? displayName(row) : DELETED_MEMBER, avatarUrl: row.avatarUrl },
    moderation: row.hiddenAt ? { reason: row.hiddenReason ?? null, reviewRequested: Boolean(row.reviewRequestedAt) } : null,
    canEdit: row.userId === viewer.id,
    canDelete: row.userId === viewer.id || can(viewer, 'moderate-content'),
  }
}

export async function getComment(c: Commentable, commentId: string) {
  const [row] = await getDb()
    .select({ id: c.comments.id, targetId: c.on, userId: c.comments.userId, hiddenAt: c.comments.hiddenAt })
    .from(c.comments)
    .where(eq(c.comments.id, commentId))
  return row ?? null
}

/**
 * Adds a comment or a reply. Replies go one level deep (spec): a reply to a reply joins its
 * thread. The counter and the notifications commit with the comment; the one replied to and the
 * owner hear of it once, never of their own comment. Refused (404) when the thing (or the comment
 * replied to) does not exist or takes no comments.
 */
async function addComment(
  c: Commentable,
  input: { targetId: string; userId: string; content: string; parentCommentId: string | null; actorName: string },
) {
  const { comments: t, target: s } = c
  const notFound: () => never = () =>
    refuse(404, input.parentCommentId ? 'No se pudo añadir la respuesta' : 'No se pudo añadir el comentario', {
      detail: { [c.field]: input.targetId, parentCommentId: input.parentCommentId },
    })
  return getDb().transaction(async (tx) => {
    let parent: { id: string; userId: string | null } | null = null
    if (input.parentCommentId) {
      const [found] = await tx
        .select({ id: t.id, userId: t.userId, parentCommentId: t.parentCommentId })
        .from(t)
        .where(and(eq(t.id, input.parentCommentId), eq(c.on, input.targetId)))
      if (!found) notFound()
      parent = { id: found.parentCommentId ?? found.id, userId: found.userId }
    }
    const [target] = await tx
      .update(s)
      .set({ commentCount: sql`${s.commentCount} + 1` })
      .where(and(eq(s.id, input.targetId), c.open))
      .returning({ ownerId: c.owner, title: c.title })
    if (!target) notFound()
    const [comment] = await tx
      .insert(t)
      .values({ [c.field]: input.targetId, userId: input.userId, content: input.content, parentCommentId: parent?.id ?? null })
      .returning({ id: t.id })
    await c.changed?.(tx, input.targetId)
    const about = { actorId: input.userId, [c.field]: input.targetId, commentId: comment!.id }
    if (parent) {
      await notifyInTransaction(tx, {
        ...about,
        recipientId: parent.userId,
        type: c.notify.reply.type,
        title: 'Nueva respuesta',
        message: c.notify.reply.message(input.actorName, target.title),
      })
    }
    if (target.ownerId && (!parent || parent.userId !== target.ownerId)) {
      await notifyInTransaction(tx, {
        ...about,
        recipientId: target.ownerId,
        type: c.notify.comment.type,
        title: 'Nuevo comentario',
        message: c.notify.comment.message(input.actorName, target.title),
      })
    }
    return comment!.id
  })
}

/** Deleting a comment takes its replies with it; the counter drops by those it counted (not the hidden). */
async function deleteComment(c: Commentable, commentId: string, moderation?: AuditEntry) {
  await getDb().transaction(async (tx) => {
    if (moderation) await recordAudit(moderation, tx)
    await removeComment(tx, c, commentId)
  })
}

/** The deletion itself, inside the caller's transaction (a moderator's decision from the queue). */
export async function removeComment(tx: DbExecutor, c: Commentable, commentId: string) {
  const { comments: t, target: s } = c
  const removed = await tx
    .delete(t)
    .where(sql`${t.id} = ${commentId} or ${t.parentCommentId} = ${commentId}`)
    .returning({ targetId: c.on, hiddenAt: t.hiddenAt })
  const targetId = removed[0]?.targetId
  if (!targetId) return
  const counted = removed.filter((row) => !row.hiddenAt).length
  await tx
    .update(s)
    .set({ commentCount: sql`greatest(${s.commentCount} - ${counted}, 0)` })
    .where(eq(s.id, targetId))
  await c.changed?.(tx, targetId)
}

type AddInput<F extends Subject> = Record<F, string> & { parentCommentId?: string; content: string }

/**
 * The comment intents of an action (docs/decisions/0012), for its `handleIntent`. The route has
 * required a complete profile; writing needs access, editing is the author's, deleting the
 * author's (also after their premium lapsed) or a moderator's.
 */
export function commentHandlers<F extends Subject>(c: Commentable<F>, user: CurrentUser) {
  const about = (targetId: string, commentId: string) => ({ [c.field]: targetId, commentId }) as Record<F | 'commentId', string>
  return {
    'add-comment': {
      invalid: 'No se pudo añadir el comentario',
      run: async (input: AddInput<F>) => {
        requireAccess(user, 'Necesitas acceso premium para comentar')
        const targetId = input[c.field]
        await enforceRateLimits([{ key: `comment:${user.id}`, max: 60, windowSeconds: 10 * 60 }])
        const commentId = await addComment(c, {
          targetId,
          userId: user.id,
          content: input.content,
          parentCommentId: input.parentCommentId ?? null,
          actorName: displayName(user.profile),
        })
        return success(about(targetId, commentId), { title: input.parentCommentId ? 'Respuesta añadida' : 'Comentario añadido' })
      },
    },
    'update-comment': {
      invalid: 'No se pudieron guardar los cambios',
      run: async (input: { commentId: string; content: string }) => {
        requireAccess(user)
        const comment = await getComment(c, input.commentId)
        if (!comment) refuse(404, 'No se pudieron guardar los cambios')
        if (comment.userId !== user.id) refuse(403, 'No se pudieron guardar los cambios', { detail: { commentId: comment.id } })
        // In read-only mode, only a hidden comment is edited: the author's way to ask for a review.
        if (!comment.hiddenAt) requireParticipation(user)
        await getDb()
          .update(c.comments)
          .set({ content: input.content, updatedAt: sql`now()` })
          .where(eq(c.comments.id, comment.id))
        return success(about(comment.targetId, comment.id), { title: 'Comentario actualizado' })
      },
    },
    'delete-comment': {
      invalid: 'No se pudo eliminar el comentario',
      run: async (input: { commentId: string }) => {
        const comment = await getComment(c, input.commentId)
        if (!comment) refuse(404, 'No se pudo eliminar el comentario')
        if (comment.userId !== user.id && !can(user, 'moderate-content')) {
          refuse(403, 'No se pudo eliminar el comentario', { detail: { commentId: comment.id } })
        }
        // A moderator removing someone else's words is an admin action: the audit log names it.
        const moderation: AuditEntry | undefined =
          comment.userId === user.id
            ? undefined
            : {
                action: 'comment_deleted',
                actorUserId: user.id,
                targetUserId: comment.userId,
                details: { commentId: comment.id, on: c.field },
              }
        await deleteComment(c, comment.id, moderation)
        return success(about(comment.targetId, comment.id), { title: 'Comentario eliminado' })
      },
    },
  }
}
