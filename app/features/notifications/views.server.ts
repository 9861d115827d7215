import { inArray } from 'drizzle-orm'
import { profiles, publicProfileColumns } from '~/features/account/schema'
import type { DbExecutor } from '~/platform/db/client.server'
import { notifications } from './schema'

/** What a notification is shown with, in the bell, on /notificaciones and in e-mail. */
export const NOTIFICATION_COLUMNS = {
  id: notifications.id,
  type: notifications.type,
  title: notifications.title,
  message: notifications.message,
  isRead: notifications.isRead,
  relatedPostId: notifications.relatedPostId,
  relatedCommentId: notifications.relatedCommentId,
  relatedSessionId: notifications.relatedSessionId,
  relatedEventId: notifications.relatedEventId,
  actorUserId: notifications.actorUserId,
  createdAt: notifications.createdAt,
}

/** The public name and photo of the notifications' actors, by user id: one query. */
export async function actorsOf(executor: DbExecutor, items: Array<{ actorUserId: string | null }>) {
  const actorIds = [...new Set(items.map((item) => item.actorUserId).filter((id): id is string => Boolean(id)))]
  const actors = actorIds.length
    ? await executor
        .select({ userId: profiles.userId, ...publicProfileColumns })
        .from(profiles)
        .where(inArray(profiles.userId, actorIds))
    : []
  return new Map(actors.map((actor) => [actor.userId, actor]))
}
