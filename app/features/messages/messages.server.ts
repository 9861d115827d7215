import type { CurrentUser } from '~/features/account/guards.server'
import { reportItem } from '~/features/moderation/moderation.server'
import { can } from '~/platform/auth/capabilities'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { enforceRateLimits, type RateLimitRule } from '~/platform/rate-limit/rate-limit.server'
import {
  answerRequest,
  block,
  findConversation,
  findSent,
  getConversationFor,
  messageToReport,
  savePolicy,
  sendMessage,
  unblock,
} from './conversations.server'
import { messagingOpen } from './pairs.server'
import { LIMITS, MESSAGES, POLICY_LABELS } from './limits'
import { MESSAGES_OPEN_WHILE_SUSPENDED, MessageIntent } from './schemas'

type Input<K extends MessageIntent['intent']> = Extract<MessageIntent, { intent: K }>

const DAY_SECONDS = 24 * 60 * 60
const FIRST_WEEK_MS = 7 * DAY_SECONDS * 1000

/** Premium members, moderators and admins write; a member without premium gets the premium prompt. */
export function mayWrite(user: CurrentUser) {
  return user.hasAccess || can(user, 'moderate-content')
}

function requireWriter(user: CurrentUser) {
  if (!mayWrite(user)) refuse(403, { title: 'Acceso Premium Requerido', description: MESSAGES.premium }, { detail: { userId: user.id } })
}

/** The one action of /mensajes and its pages (decisions/0012). */
export function messagesAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    MessageIntent,
    {
      send: { invalid: MESSAGES.invalid, run: (input) => sendIntent(user, input) },
      accept: { invalid: 'No se pudo aceptar la solicitud', run: (input) => answerIntent(user, input, 'accepted') },
      ignore: { invalid: 'No se pudo ignorar la solicitud', run: (input) => answerIntent(user, input, 'ignored') },
      block: { invalid: 'No se pudo bloquear al miembro', run: (input) => blockIntent(user, input) },
      unblock: { invalid: 'No se pudo desbloquear al miembro', run: (input) => unblockIntent(user, input) },
      policy: { invalid: 'No se pudo guardar la preferencia', run: (input) => policyIntent(user, input) },
      report: { invalid: 'No se pudo enviar el informe', run: (input) => reportIntent(user, input) },
    },
    { openWhileSuspended: MESSAGES_OPEN_WHILE_SUSPENDED },
  )
}

async function sendIntent(user: CurrentUser, input: Input<'send'>) {
  requireWriter(user)
  // A retried post of a message already stored answers as the first did, before any limit counts it.
  const already = await findSent(user.id, input.key)
  if (already) return success({ conversationId: already.conversationId, messageId: already.id, key: input.key }, { title: MESSAGES.sent })
  if (!(await messagingOpen(user.id))) refuse(403, MESSAGES.off, { detail: { userId: user.id } })
  let recipientId: string
  if (input.conversationId) {
    const conversation = await getConversationFor(input.conversationId, user.id)
    const other = conversation.userA === user.id ? conversation.userB : conversation.userA
    if (!other) refuse(410, 'Este miembro ya no está en la comunidad.', { detail: { conversationId: conversation.id } })
    recipientId = other
  } else if (input.recipientId) {
    recipientId = input.recipientId
  } else {
    refuse(400, MESSAGES.invalid)
  }
  const existing = await findConversation(user.id, recipientId)
  const rules: RateLimitRule[] = [{ key: `message:${user.id}`, max: LIMITS.messagesPerMinute, windowSeconds: 60 }]
  if (!existing) {
    const firstWeek = Date.now() - (user.profile?.createdAt?.getTime() ?? 0) < FIRST_WEEK_MS
    rules.push({
      key: `message-new:${user.id}`,
      max: firstWeek ? LIMITS.newConversationsFirstWeek : LIMITS.newConversationsPerDay,
      windowSeconds: DAY_SECONDS,
    })
  }
  await enforceRateLimits(rules)
  const sent = await sendMessage({ senderId: user.id, recipientId, body: input.body, key: input.key })
  return success({ conversationId: sent.conversationId, messageId: sent.messageId, key: input.key }, { title: MESSAGES.sent })
}

async function answerIntent(user: CurrentUser, input: { conversationId: string }, answer: 'accepted' | 'ignored') {
  if (answer === 'accepted') requireWriter(user)
  await answerRequest(input.conversationId, user.id, answer)
  return success({ conversationId: input.conversationId, answer }, { title: answer === 'accepted' ? MESSAGES.accepted : MESSAGES.ignored })
}

async function blockIntent(user: CurrentUser, input: Input<'block'>) {
  await block(user.id, input.memberId)
  return success({ memberId: input.memberId, blocked: true }, { title: MESSAGES.blocked })
}

async function unblockIntent(user: CurrentUser, input: Input<'unblock'>) {
  await unblock(user.id, input.memberId)
  return success({ memberId: input.memberId, blocked: false }, { title: MESSAGES.unblocked })
}

async function policyIntent(user: CurrentUser, input: Input<'policy'>) {
  await savePolicy(user.id, input.policy)
  return success({ policy: input.policy }, { title: MESSAGES.policySaved, description: POLICY_LABELS[input.policy] })
}

/**
 * 'Informar' on a message: a report about its sender for moderation's queue, carrying that message
 * and the five before it, all moderators ever read of the conversation. Their decisions are the
 * ones about a member (warn, suspend, expel), as for any report about a member.
 */
async function reportIntent(user: CurrentUser, input: Input<'report'>) {
  const { senderId, context } = await messageToReport(input.messageId, user.id)
  return reportItem(user, { kind: 'member', itemId: senderId, reason: input.reason, note: input.note, context })
}
