import { useCallback } from 'react'
import { redirect, useNavigate } from 'react-router'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { withBell } from '~/features/notifications/components/notification-bell'
import { can, readOnlyNotice } from '~/platform/auth/capabilities'
import { guardedAction, refuse } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Composer } from './components/composer'
import { ConversationHeader, WriteGate } from './components/conversation-frame'
import { findConversation, refusalToWrite } from './conversations.server'
import { MESSAGES } from './limits'
import { mayWrite, messagesAction } from './messages.server'
import { otherMember } from './views.server'
import type { Route } from './+types/new-conversation.route'

export const meta: Route.MetaFunction = () => [{ title: `Nuevo mensaje · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export const handle = withBell

/**
 * 'Enviar mensaje' from a member's page or card: the conversation if there is one, else the box for
 * the first message (a request), which opens the conversation when it is sent.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const memberId = params.userId
  if (!memberId || memberId.length > 100) refuse(404, 'Miembro no encontrado')
  if (memberId === user.id) refuse(400, MESSAGES.self)
  const existing = await findConversation(user.id, memberId)
  if (existing) throw redirect(`/mensajes/${existing.id}`)
  const other = await otherMember({ userA: user.id, userB: memberId }, user.id)
  if (other.name === MESSAGES.deleted) refuse(404, 'Miembro no encontrado')
  return {
    other,
    premium: mayWrite(user),
    readOnly: can(user, 'participate') ? null : readOnlyNotice(user.profile!),
    cannotWrite: await refusalToWrite(user.id, memberId, null),
    draftKey: crypto.randomUUID(),
  }
}

export const action = guardedAction(requireCompleteProfile, messagesAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed={MESSAGES.loadFailed} />
}

export default function NewConversationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { other, premium, readOnly, cannotWrite, draftKey } = loaderData
  const navigate = useNavigate()
  const opened = useCallback(({ conversationId }: { conversationId: string }) => void navigate(`/mensajes/${conversationId}`), [navigate])
  const failedBody = actionData && !actionData.ok ? (actionData.submission?.initialValue?.body as string | undefined) : undefined
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-4 px-4 py-6">
      <ConversationHeader other={other} title={`Mensaje para ${other.name}`} />
      <ActionStatus result={actionData?.ok === false ? actionData : undefined} />
      <WriteGate readOnly={readOnly} premium={premium} cannotWrite={cannotWrite}>
        <p className="text-sm text-muted-foreground">
          Tu primer mensaje le llega como solicitud: podrás escribirle de nuevo cuando la acepte.
        </p>
        <Composer recipientId={other.id!} fallbackKey={draftKey} initialText={failedBody} onSent={opened} />
      </WriteGate>
    </div>
  )
}
