import { and, eq, sql } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import type { Subject } from './types'

export type Column<T, NotNull extends boolean = true> = AnyPgColumn<{ data: T; notNull: NotNull }>
export type Notification = Parameters<typeof notifyInTransaction>[1]

/**
 * What a feature tells this module about a thing members like (a post, a comment, a session): its
 * likes' table, `on` the column naming what is liked, and `field` its name alike in the form, in
 * that table and in the notification (`postId` for a post).
 */
export interface Likeable<Field extends Subject = Subject, Detail extends string = never> {
  field: Field
  likes: PgTable & { userId: Column<string> }
  on: Column<string>
  /** What is liked, with its counter. */
  target: PgTable & { id: Column<string>; likeCount: Column<number> }
  /** Runs in the transaction that changed the counter (the feed tells open pages). */
  changed?: (tx: DbExecutor, id: string) => Promise<unknown>
  /** Whom a new like is told and in what words, from these columns of the liked row. */
  notify?: {
    columns: Record<Detail, Column<string, boolean>>
    /** A deleted member's writing has no author (null): nobody is told. */
    notification: (liked: Record<Detail, string | null>, actorName: string) => Omit<Notification, 'actorId'>
  }
}

/**
 * Likes or unlikes, keeping the counter in the same transaction (never below 0). A like given
 * twice at once (double click, second tab) counts and is told once.
 */
export async function toggleLike<D extends string>(
  l: Likeable<Subject, D>,
  { id, userId, actorName }: { id: string; userId: string; actorName: string },
) {
  const { likes, target: t } = l
  return getDb().transaction(async (tx) => {
    const removed = await tx
      .delete(likes)
      .where(and(eq(l.on, id), eq(likes.userId, userId)))
      .returning({ userId: likes.userId })
    if (removed.length) {
      const [row] = await tx
        .update(t)
        .set({ likeCount: sql`greatest(${t.likeCount} - 1, 0)` })
        .where(eq(t.id, id))
        .returning({ likeCount: t.likeCount })
      await l.changed?.(tx, id)
      return { liked: false, likeCount: row?.likeCount ?? 0 }
    }
    const added = await tx
      .insert(likes)
      .values({ [l.field]: id, userId })
      .onConflictDoNothing()
      .returning({ userId: likes.userId })
    if (!added.length) {
      const [row] = await tx.select({ likeCount: t.likeCount }).from(t).where(eq(t.id, id))
      return { liked: true, likeCount: row?.likeCount ?? 0 }
    }
    const [row] = await tx
      .update(t)
      .set({ likeCount: sql`${t.likeCount} + 1` })
      .where(eq(t.id, id))
      .returning({ likeCount: t.likeCount, ...l.notify?.columns })
    await l.changed?.(tx, id)
    if (row && l.notify) {
      const notification = l.notify.notification(row as Record<D, string | null>, actorName)
      await notifyInTransaction(tx, { ...notification, actorId: userId, [l.field]: id })
    }
    return { liked: true, likeCount: row?.likeCount ?? 0 }
  })
}
