import { MessageCircle } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useMatches } from 'react-router'
import { onMessage } from '~/features/notifications/live-events'

/** The top bar's unread messages (issue 41): the count the page brought, plus what the live stream announces. */
export function MessagesLink({ initialUnread: rootUnread }: { initialUnread: number }) {
  // An open conversation read its messages after the root loader counted them: its count wins.
  const open = useMatches()
    .map((match) => match.data as { conversationId?: string; unreadMessagesAfterRead?: number } | undefined)
    .find((data) => typeof data?.unreadMessagesAfterRead === 'number')
  const initialUnread = open?.unreadMessagesAfterRead ?? rootUnread
  const openId = open?.conversationId
  const [arrived, setArrived] = useState({ base: initialUnread, extra: 0 })
  useEffect(
    () =>
      onMessage((event) => {
        // The open conversation reloads and reads what arrived: it is not counted.
        if (event.conversationId !== openId) setArrived((current) => ({ ...current, extra: current.extra + 1 }))
      }),
    [openId],
  )
  const unread = arrived.base === initialUnread ? initialUnread + arrived.extra : initialUnread
  if (arrived.base !== initialUnread) setArrived({ base: initialUnread, extra: 0 })
  const badge = unread > 9 ? '9+' : String(unread)
  return (
    <Link
      to="/mensajes"
      className="relative inline-flex size-10 items-center justify-center rounded-full hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      aria-label={unread ? `Mensajes: ${unread} sin leer` : 'Mensajes'}
    >
      <MessageCircle className="size-5" aria-hidden />
      {unread > 0 ? (
        <span
          className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-[11px] font-bold leading-5 text-white"
          aria-hidden
        >
          {badge}
        </span>
      ) : null}
    </Link>
  )
}
