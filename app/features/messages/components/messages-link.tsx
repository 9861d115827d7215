import { MessageCircle } from 'lucide-react'
import { useEffect } from 'react'
import { Link, useMatches } from 'react-router'
import { CountBadge, TOP_BAR_ICON_CLASS } from '~/features/notifications/components/count-badge'
import { onMessage, useLiveCount } from '~/features/notifications/live-events'

/** The top bar's unread messages (issue 41): the count the page brought, plus what the live stream announces. */
export function MessagesLink({ initialUnread: rootUnread }: { initialUnread: number }) {
  // An open conversation read its messages after the root loader counted them: its count wins.
  const open = useMatches()
    .map((match) => match.data as { conversationId?: string; unreadMessagesAfterRead?: number } | undefined)
    .find((data) => typeof data?.unreadMessagesAfterRead === 'number')
  const openId = open?.conversationId
  const [unread, setUnread] = useLiveCount(open?.unreadMessagesAfterRead ?? rootUnread)
  useEffect(
    () =>
      onMessage((event) => {
        // The open conversation reloads and reads what arrived: it is not counted.
        if (event.conversationId !== openId) setUnread((count) => count + 1)
      }),
    [openId, setUnread],
  )
  return (
    <Link to="/mensajes" className={TOP_BAR_ICON_CLASS} aria-label={unread ? `Mensajes: ${unread} sin leer` : 'Mensajes'}>
      <MessageCircle className="size-5" aria-hidden />
      <CountBadge count={unread} />
    </Link>
  )
}
