import { Bell, Check, CheckCheck } from 'lucide-react'
import { data, Form, Link, useFetcher } from 'react-router'
import { requireUser } from '~/features/account/guards.server'
import { HiddenFields } from '~/ui/hidden-fields'
import { RelativeTime } from '~/ui/relative-time'
import { guardedAction } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { UserAvatar } from '~/ui/user-avatar'
import { type NotificationView, linkOf } from './grouping'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { notificationAction, notificationPage } from './notifications.server'
import type { Route } from './+types/notifications.route'
import { withBell } from '~/features/notifications/components/notification-bell'

export const meta: Route.MetaFunction = () => [{ title: `Notificaciones · ${site.name}` }, { name: 'robots', content: 'noindex' }]

/** The member's own notifications, newest first, a page at a time, optionally only the unread. */
export const handle = withBell

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return data(await notificationPage(user, new URL(request.url).searchParams), { headers: { 'Cache-Control': 'no-store' } })
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Notificaciones</h1>
      <PartErrorBoundary failed="No se pudieron cargar las notificaciones" />
    </div>
  )
}

export const action = guardedAction(requireUser, notificationAction)

export default function NotificationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { items, unreadCount, page, hasMore, unreadOnly } = loaderData
  const hrefFor = (next: { page?: number; unreadOnly?: boolean }) => {
    const params = new URLSearchParams()
    if (next.unreadOnly ?? unreadOnly) params.set('solo', 'no-leidas')
    if ((next.page ?? 1) > 1) params.set('pagina', String(next.page))
    return `/notificaciones${params.size ? `?${params}` : ''}`
  }
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Notificaciones</h1>
        <Form method="post">
          <input type="hidden" name="intent" value="mark-all-read" />
          <Button type="submit" variant="outline" size="sm" disabled={unreadCount === 0}>
            <CheckCheck aria-hidden /> Marcar todas como leídas
          </Button>
        </Form>
      </div>
      <ActionStatus result={actionData} />
      <nav aria-label="Filtrar notificaciones" className="flex gap-1 border-b">
        {[
          { label: 'Todas', active: !unreadOnly, href: hrefFor({ unreadOnly: false }) },
          { label: `No leídas (${unreadCount})`, active: unreadOnly, href: hrefFor({ unreadOnly: true }) },
        ].map((tab) => (
          <Link
            key={tab.label}
            to={tab.href}
            aria-current={tab.active ? 'page' : undefined}
            className={cn(
              '-mb-px border-b-2 border-transparent px-4 py-2 text-sm font-medium text-muted-foreground hover:text-foreground',
              tab.active && 'border-primary text-foreground',
            )}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <p className="flex flex-col items-center gap-2 rounded-xl border border-dashed p-10 text-center text-muted-foreground">
          <Bell className="size-6" aria-hidden />
          {unreadOnly ? 'No tienes notificaciones sin leer.' : 'Todavía no tienes notificaciones.'}
        </p>
      ) : (
        <ul className="grid gap-2" aria-label="Notificaciones">
          {items.map((item) => (
            <NotificationRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {page > 1 || hasMore ? (
        <nav aria-label="Páginas" className="flex justify-between gap-3">
          {page > 1 ? (
            <Link to={hrefFor({ page: page - 1 })} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Más recientes
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link to={hrefFor({ page: page + 1 })} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Anteriores
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  )
}

function NotificationRow({ item }: { item: NotificationView }) {
  const mark = useFetcher()
  const isRead = item.isRead || mark.formData !== undefined
  const markRead = () => {
    if (!isRead) void mark.submit({ intent: 'mark-read', notificationId: item.id }, { method: 'post', action: '/notificaciones' })
  }
  return (
    <li className={cn('flex items-start gap-3 rounded-lg border p-3 text-sm', !isRead && 'border-primary/30 bg-secondary/60')}>
      <UserAvatar avatarUrl={item.actor?.avatarUrl} name={item.actor?.name ?? 'Usuario'} className="size-9 text-xs" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{item.title}</p>
        {linkOf(item) ? (
          <Link to={linkOf(item)!} onClick={markRead} className="break-words text-muted-foreground hover:text-foreground hover:underline">
            {item.message}
          </Link>
        ) : (
          <p className="break-words text-muted-foreground">{item.message}</p>
        )}
        <p className="text-xs text-muted-foreground">
          <RelativeTime date={item.createdAt} />
        </p>
      </div>
      {isRead ? null : (
        <mark.Form method="post" action="/notificaciones">
          <HiddenFields values={{ intent: 'mark-read', notificationId: item.id }} />
          {/* On a phone only the mark shows (the text stays for screen readers): the message keeps the row. */}
          <Button type="submit" variant="ghost" size="sm" className="shrink-0">
            <Check className="size-4" aria-hidden /> <span className="sr-only sm:not-sr-only">Marcar como leída</span>
          </Button>
        </mark.Form>
      )}
    </li>
  )
}
