import { useEffect } from 'react'
import { Link, useRevalidator } from 'react-router'
import { onMessage } from '~/features/notifications/live-events'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { withBell } from '~/features/notifications/components/notification-bell'
import { guardedAction } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { RelativeTime } from '~/ui/relative-time'
import { UserAvatar } from '~/ui/user-avatar'
import { cn } from '~/ui/cn'
import { MESSAGES } from './limits'
import { messagesAction } from './messages.server'
import { type ConversationItem, decodeCursor, listConversations } from './views.server'
import type { Route } from './+types/messages.route'

export const meta: Route.MetaFunction = () => [{ title: `Mensajes · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export const handle = withBell

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const cursor = decodeCursor(new URL(request.url).searchParams.get('desde'))
  const { items, next } = await listConversations(user.id, cursor)
  return {
    requests: items.filter((item) => item.isRequest),
    conversations: items.filter((item) => !item.isRequest),
    next,
    paged: Boolean(cursor),
  }
}

export const action = guardedAction(requireCompleteProfile, messagesAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed={MESSAGES.loadFailed} />
}

export default function MessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { requests, conversations, next, paged } = loaderData
  const revalidator = useRevalidator()
  // A message that arrives moves its conversation to the top, marked unread.
  useEffect(() => onMessage(() => void revalidator.revalidate()), [revalidator])
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight">Mensajes</h1>
      <ActionStatus result={actionData} />
      {requests.length > 0 ? (
        <section aria-labelledby="requests-title" className="grid gap-3">
          <h2 id="requests-title" className="text-lg font-semibold">
            {MESSAGES.requests}
          </h2>
          <ConversationList items={requests} />
        </section>
      ) : null}
      <section aria-labelledby="conversations-title" className="grid gap-3">
        <h2 id="conversations-title" className="text-lg font-semibold">
          Conversaciones
        </h2>
        {conversations.length === 0 ? (
          <p className="rounded-xl border bg-card p-6 text-center text-muted-foreground">
            Aún no tienes conversaciones. Escribe a alguien desde el{' '}
            <Link to="/comunidad/miembros" className="text-primary underline underline-offset-4">
              directorio de miembros
            </Link>
            .
          </p>
        ) : (
          <ConversationList items={conversations} />
        )}
      </section>
      <nav className="flex gap-4 text-sm" aria-label="Páginas de conversaciones">
        {paged ? (
          <Link to="/mensajes" className="text-primary underline-offset-4 hover:underline">
            Volver al principio
          </Link>
        ) : null}
        {next ? (
          <Link to={`/mensajes?desde=${next}`} className="text-primary underline-offset-4 hover:underline">
            Conversaciones anteriores
          </Link>
        ) : null}
      </nav>
    </div>
  )
}

function ConversationList({ items }: { items: ConversationItem[] }) {
  return (
    <ul className="divide-y rounded-xl border bg-card">
      {items.map((item) => (
        <li key={item.id}>
          <Link
            to={`/mensajes/${item.id}`}
            className={cn(
              'flex min-w-0 items-center gap-3 p-4 hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
              item.unread > 0 && 'bg-secondary/60',
            )}
          >
            <UserAvatar avatarUrl={item.other.avatarUrl} name={item.other.name} className="size-11" />
            <span className="grid min-w-0 flex-1 gap-0.5">
              <span className="flex min-w-0 items-center justify-between gap-2">
                <span className={cn('min-w-0 truncate', item.unread > 0 ? 'font-semibold' : 'font-medium')}>{item.other.name}</span>
                <RelativeTime date={new Date(item.lastMessageAt).toISOString()} className="shrink-0 text-xs text-muted-foreground" />
              </span>
              <span className="flex min-w-0 items-center gap-2">
                <span className="min-w-0 truncate text-sm text-muted-foreground">{item.lastLine ?? ''}</span>
                {item.isPending ? (
                  <span className="shrink-0 rounded-full border px-2 text-xs text-muted-foreground">{MESSAGES.pending}</span>
                ) : null}
                {item.unread > 0 ? (
                  <span className="ml-auto shrink-0 rounded-full bg-primary px-2 text-xs font-semibold text-primary-foreground">
                    {item.unread}
                    <span className="sr-only"> sin leer</span>
                  </span>
                ) : null}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
