import { useEffect } from 'react'
import { Form, Link, useRevalidator } from 'react-router'
import { z } from 'zod'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { withBell } from '~/features/notifications/components/notification-bell'
import { onMessage } from '~/features/notifications/live-events'
import { can, readOnlyNotice } from '~/platform/auth/capabilities'
import { guardedAction, refuse } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { HiddenFields } from '~/ui/hidden-fields'
import { RelativeTime } from '~/ui/relative-time'
import { ReportForm } from '~/features/moderation/components/moderation-controls'
import { Composer } from './components/composer'
import { ConversationHeader, WriteGate } from './components/conversation-frame'
import { MessageText } from './components/message-text'
import { getConversationFor, markRead, refusalToWrite } from './conversations.server'
import { hasBlocked } from './pairs.server'
import { MESSAGE_REPORT_REASONS, MESSAGES } from './limits'
import { mayWrite, messagesAction } from './messages.server'
import { decodeCursor, listMessages, otherMember } from './views.server'
import type { Route } from './+types/conversation.route'

export const meta: Route.MetaFunction = () => [{ title: `Mensajes · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export const handle = withBell

const ConversationId = z.uuid()

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const id = ConversationId.safeParse(params.conversationId)
  if (!id.success) refuse(404, MESSAGES.notFound)
  // Not one of its two members: it does not exist for them (404, never 403).
  const conversation = await getConversationFor(id.data, user.id)
  const cursor = decodeCursor(new URL(request.url).searchParams.get('antes'))
  const [other, page] = await Promise.all([otherMember(conversation, user.id), listMessages(conversation.id, user.id, cursor)])
  const read = await markRead(conversation, user.id)
  const toMe = conversation.state !== 'accepted' && conversation.startedBy !== user.id
  const blocked = other.id ? await hasBlocked(user.id, other.id) : false
  // What stops this member from writing here now, said as the page's words; null when they may.
  let cannotWrite: string | null = null
  if (!other.id) cannotWrite = 'Este miembro ya no está en la comunidad.'
  else if (!blocked && !toMe) cannotWrite = await refusalToWrite(user.id, other.id, conversation)
  return {
    conversationId: conversation.id,
    other,
    messages: page.messages.map((message) => ({ ...message, createdAt: message.createdAt.toISOString() })),
    older: page.older,
    paged: Boolean(cursor),
    request: toMe ? (conversation.state === 'ignored' ? ('ignored' as const) : ('waiting' as const)) : null,
    pending: conversation.state !== 'accepted' && conversation.startedBy === user.id,
    blocked,
    cannotWrite,
    premium: mayWrite(user),
    readOnly: can(user, 'participate') ? null : readOnlyNotice(user.profile!),
    draftKey: crypto.randomUUID(),
    // The root loader read the member before this page read the conversation: the top bar takes this count.
    unreadMessagesAfterRead: Math.max(0, (user.profile?.unreadMessages ?? 0) - read),
  }
}

export const action = guardedAction(requireCompleteProfile, messagesAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed={MESSAGES.loadFailed} />
}

export default function ConversationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { conversationId, other, messages, older, paged, request, pending, blocked, cannotWrite, premium, readOnly, draftKey } = loaderData
  const revalidator = useRevalidator()
  useEffect(
    () =>
      onMessage((event) => {
        if (event.conversationId === conversationId) void revalidator.revalidate()
      }),
    [conversationId, revalidator],
  )
  const failedBody = actionData && !actionData.ok ? (actionData.submission?.initialValue?.body as string | undefined) : undefined
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-4 px-4 py-6">
      <ConversationHeader
        other={other}
        title={
          other.id ? (
            <Link to={`/usuario/${other.id}`} className="hover:underline">
              {other.name}
            </Link>
          ) : (
            other.name
          )
        }
      >
        {pending ? <span className="rounded-full border px-3 py-1 text-sm text-muted-foreground">{MESSAGES.pending}</span> : null}
        {other.id ? (
          <Form method="post">
            <HiddenFields values={{ intent: blocked ? 'unblock' : 'block', memberId: other.id }} />
            <Button type="submit" variant="outline" size="sm">
              {blocked ? MESSAGES.unblock : MESSAGES.block}
            </Button>
          </Form>
        ) : null}
      </ConversationHeader>
      {/* Without JavaScript the answer shows here; a message sent shows itself in the list. */}
      <ActionStatus result={actionData && (!actionData.ok || !('messageId' in actionData)) ? actionData : undefined} />
      {older || paged ? (
        <nav className="flex gap-4 text-sm" aria-label="Páginas de la conversación">
          {older ? (
            <Link to={`?antes=${older}`} className="text-primary underline-offset-4 hover:underline">
              Mensajes anteriores
            </Link>
          ) : null}
          {paged ? (
            <Link to="." className="text-primary underline-offset-4 hover:underline">
              Los más recientes
            </Link>
          ) : null}
        </nav>
      ) : null}
      <ol className="grid gap-2" aria-label={`Conversación con ${other.name}`} aria-live="polite">
        {messages.map((message) => (
          <li key={message.id} className={cn('flex', message.mine ? 'justify-end' : 'justify-start')}>
            <div
              className={cn(
                'max-w-[85%] rounded-2xl px-4 py-2 text-sm',
                message.mine ? 'bg-primary text-primary-foreground' : 'border bg-card',
              )}
            >
              <span className="sr-only">{message.mine ? 'Tú: ' : `${other.name}: `}</span>
              <MessageText body={message.body} />
              <RelativeTime
                date={message.createdAt}
                className={cn('mt-1 block text-[11px]', message.mine ? 'text-primary-foreground/80' : 'text-muted-foreground')}
              />
              {message.mine || !other.id ? null : <ReportMessage conversationId={conversationId} messageId={message.id} />}
            </div>
          </li>
        ))}
      </ol>
      {request === 'waiting' ? (
        <section className="grid gap-3 rounded-xl border bg-card p-4" aria-labelledby="request-title">
          <h2 id="request-title" className="font-semibold">
            {other.name} quiere escribirte
          </h2>
          <p className="text-sm text-muted-foreground">Si aceptas, podréis escribiros. Si la ignoras, no se le avisará.</p>
          <div className="flex gap-2">
            <Form method="post">
              <HiddenFields values={{ intent: 'accept', conversationId }} />
              <Button type="submit">{MESSAGES.accept}</Button>
            </Form>
            <Form method="post">
              <HiddenFields values={{ intent: 'ignore', conversationId }} />
              <Button type="submit" variant="outline">
                {MESSAGES.ignore}
              </Button>
            </Form>
          </div>
        </section>
      ) : request === 'ignored' ? (
        <p className="text-sm text-muted-foreground">Ignoraste esta solicitud.</p>
      ) : blocked ? (
        <p className="text-sm text-muted-foreground">Has bloqueado a este miembro: no puede escribirte.</p>
      ) : (
        <WriteGate readOnly={readOnly} premium={premium} cannotWrite={cannotWrite}>
          <Composer key={conversationId} conversationId={conversationId} fallbackKey={draftKey} initialText={failedBody} />
        </WriteGate>
      )}
    </div>
  )
}

/** 'Informar' on a message of the other member: it and the five before it go to moderation's queue. */
function ReportMessage({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  return (
    <details className="group mt-1">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded px-1 text-[11px] text-muted-foreground hover:bg-accent [&::-webkit-details-marker]:hidden">
        Informar
      </summary>
      <ReportForm
        itemId={messageId}
        className="mt-2"
        target={{ action: `/mensajes/${conversationId}`, fields: { messageId }, reasons: MESSAGE_REPORT_REASONS }}
      />
    </details>
  )
}
