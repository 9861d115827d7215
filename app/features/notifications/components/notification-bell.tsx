import { Bell, CheckCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher, useNavigate } from 'react-router'
import { UserAvatar } from '~/ui/user-avatar'
import { cn } from '~/ui/cn'
import { relativeTime } from '~/platform/dates'
import type { Result } from '~/platform/http/result'
import { groupNotifications, type NotificationGroup, type NotificationView, linkOf } from '../grouping'
import { emitMessage, emitPostStats, useLiveCount } from '../live-events'
import { CountBadge, TOP_BAR_ICON_CLASS } from './count-badge'
import { DropdownMenu, MenuContent, MenuItem } from '~/ui/dropdown-menu'

/** Spec 000: badge capped at '9+', 10 shown, 'see all' beyond that. */
const SHOWN = 10
/** Spec 000 §9: reconnect after 1, 2, 5, 10 s, then every 10 s. */
const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000]

function useNotificationStream(onNotification: () => void) {
  const callback = useRef(onNotification)
  callback.current = onNotification
  useEffect(() => {
    let source: EventSource | undefined
    let attempt = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const connect = () => {
      source = new EventSource('/notificaciones/stream')
      source.addEventListener('open', () => {
        // Anything that arrived while disconnected is picked up by re-reading the list.
        if (attempt > 0) callback.current()
        attempt = 0
      })
      source.addEventListener('notification', () => callback.current())
      source.addEventListener('post-stats', (event) => {
        try {
          emitPostStats(JSON.parse((event as MessageEvent<string>).data))
        } catch {
          // A malformed event changes nothing.
        }
      })
      source.addEventListener('private-message', (event) => {
        try {
          emitMessage(JSON.parse((event as MessageEvent<string>).data))
        } catch {
          // A malformed event changes nothing.
        }
      })
      source.addEventListener('error', () => {
        source?.close()
        if (stopped) return
        const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]
        attempt++
        timer = setTimeout(connect, delay)
      })
    }
    connect()
    return () => {
      stopped = true
      clearTimeout(timer)
      source?.close()
    }
  }, [])
}

export function NotificationBell({ initialUnread }: { initialUnread: number }) {
  const list = useFetcher<Result<{ items: NotificationView[]; unreadCount: number }>>()
  const mark = useFetcher<Result<{ unreadCount: number }>>()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const [unread, setUnread] = useLiveCount(initialUnread)
  const [readIds, setReadIds] = useState<Set<string>>(new Set())
  // The newest count wins, whichever brought it: the page's data (useLiveCount), the list, a
  // marking, taken while rendering like the page's.
  const [seen, setSeen] = useState({ list: list.data, mark: mark.data })
  if (seen.list !== list.data || seen.mark !== mark.data) {
    setSeen({ list: list.data, mark: mark.data })
    if (seen.list !== list.data && list.data?.ok) {
      setUnread(list.data.unreadCount)
      setReadIds(new Set())
    }
    if (seen.mark !== mark.data && mark.data?.ok) setUnread(mark.data.unreadCount)
  }

  // Its own part route: a list that cannot be loaded is the bell's to say, never the page's.
  const refresh = () => void list.load('/notificaciones/campana')
  useNotificationStream(refresh)

  const failed = list.data?.ok === false ? list.data.message.title : null
  const items = list.data?.ok ? list.data.items : []
  const allRead = mark.formData?.get('intent') === 'mark-all-read'
  const groups = groupNotifications(items).map((group) =>
    allRead || group.ids.every((id) => readIds.has(id)) ? { ...group, isRead: true } : group,
  )

  function openGroup(group: NotificationGroup) {
    if (!group.isRead) {
      const unreadIds = group.ids.filter((id) => !readIds.has(id) && !items.find((item) => item.id === id)?.isRead)
      setReadIds((current) => new Set([...current, ...group.ids]))
      setUnread((count) => Math.max(0, count - unreadIds.length))
      const body = new FormData()
      body.set('intent', 'mark-read')
      for (const id of group.ids) body.append('notificationId', id)
      void mark.submit(body, { method: 'post', action: '/notificaciones' })
    }
    setOpen(false)
    const link = linkOf(group.latest)
    if (link) void navigate(link)
  }

  return (
    <DropdownMenu
      modal={false}
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (next) refresh()
      }}
      trigger={
        <button type="button" className={TOP_BAR_ICON_CLASS} aria-label={unread ? `Notificaciones: ${unread} sin leer` : 'Notificaciones'}>
          <Bell className="size-5" aria-hidden />
          <CountBadge count={unread} />
        </button>
      }
    >
      <MenuContent align="end" sideOffset={8} className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-lg border bg-background shadow-lg">
        <div className="flex items-center justify-between border-b px-3 py-2">
          <p className="text-sm font-semibold">Notificaciones</p>
          {/* A menu item, so the keyboard reaches it; it keeps the menu open. */}
          <MenuItem
            disabled={unread === 0}
            onSelect={(event) => {
              event.preventDefault()
              setUnread(0)
              void mark.submit({ intent: 'mark-all-read' }, { method: 'post', action: '/notificaciones' })
            }}
            className="inline-flex cursor-pointer items-center gap-1 rounded px-2 py-1 text-xs font-medium text-primary outline-none data-[disabled]:cursor-default data-[highlighted]:bg-accent data-[disabled]:opacity-50"
          >
            <CheckCheck className="size-3.5" aria-hidden /> Marcar todas como leídas
          </MenuItem>
        </div>
        {list.state === 'loading' && !list.data ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Cargando...</p>
        ) : failed ? (
          <p role="status" className="px-3 py-6 text-center text-sm text-muted-foreground">
            {failed}
          </p>
        ) : groups.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">No tienes notificaciones</p>
        ) : (
          <div className="max-h-[26rem] overflow-y-auto py-1">
            {groups.slice(0, SHOWN).map((group) => (
              <MenuItem
                key={group.ids[0]}
                onSelect={() => openGroup(group)}
                className={cn(
                  'flex cursor-pointer gap-3 px-3 py-2 text-sm outline-none data-[highlighted]:bg-accent',
                  !group.isRead && 'bg-secondary/70',
                )}
              >
                <UserAvatar
                  avatarUrl={group.latest.actor?.avatarUrl}
                  name={group.latest.actor?.name ?? 'Usuario'}
                  className="size-8 text-xs"
                />
                <span className="min-w-0 flex-1">
                  <span className="block font-medium">{group.latest.title}</span>
                  <span className="block break-words text-muted-foreground">{group.message}</span>
                  <span className="block text-xs text-muted-foreground" suppressHydrationWarning>
                    {relativeTime(group.latest.createdAt)}
                  </span>
                </span>
                {!group.isRead ? <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" aria-label="Sin leer" /> : null}
              </MenuItem>
            ))}
          </div>
        )}
        {/* Always there: the page has every notification, read or not, and opens in a new tab too. */}
        <div className="border-t p-2">
          <MenuItem asChild>
            <Link
              to="/notificaciones"
              className="block cursor-pointer rounded px-2 py-1.5 text-center text-sm font-medium text-primary outline-none data-[highlighted]:bg-accent"
            >
              Ver todas
            </Link>
          </MenuItem>
        </div>
      </MenuContent>
    </DropdownMenu>
  )
}

/** A members' page's `handle`: the bell comes with the page's own code, not after it (root.tsx). */
export const withBell = { bell: NotificationBell }
