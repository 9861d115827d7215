import { data } from 'react-router'
import { z } from 'zod'
import { countUnread, listNotifications, markAllNotificationsRead, markNotificationRead } from '~/models/notification.server'
import { displayName } from '~/utils/display-name'
import { requireUser } from '~/utils/permissions.server'
import type { Route } from './+types/notificaciones'

/** The bell's data: the signed-in member's own notifications only. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const [items, unreadCount] = await Promise.all([listNotifications(user.id), countUnread(user.id)])
  return data(
    {
      unreadCount,
      items: items.map((item) => ({
        id: item.id,
        type: item.type,
        title: item.title,
        message: item.message,
        isRead: item.isRead,
        relatedPostId: item.relatedPostId,
        createdAt: item.createdAt.toISOString(),
        actor: item.actor ? { name: displayName(item.actor), avatarUrl: item.actor.avatarUrl } : null,
      })),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

const Command = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('mark-read'), notificationId: z.uuid() }),
  z.object({ intent: z.literal('mark-all-read') }),
])

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  const command = Command.safeParse(Object.fromEntries(await request.formData()))
  if (!command.success) throw data('Solicitud no válida', { status: 400 })
  if (command.data.intent === 'mark-all-read') {
    await markAllNotificationsRead(user.id)
    return { ok: true, unreadCount: 0 }
  }
  const updated = await markNotificationRead(user.id, command.data.notificationId)
  if (!updated) throw data('No encontrado', { status: 404 })
  return { ok: true, unreadCount: await countUnread(user.id) }
}
