import { z } from 'zod'
import { optionalText, requiredText } from '~/platform/http/text-fields'
import { REPORT_NOTE_MAX } from '~/features/moderation/reasons'
import { IDEMPOTENCY_KEY_MAX, MESSAGE_BODY_MAX, MESSAGE_REPORT_REASONS, MESSAGES } from './limits'

/** Why a private message is reported: 'Mensajes no deseados' first, then moderation's reasons that fit a message. */

const memberId = z.string().trim().min(1).max(100)
const conversationId = z.uuid(MESSAGES.notFound)

/** The body as typed: line breaks kept, control characters refused, 1–2,000 characters. */
export const MessageBody = requiredText(MESSAGE_BODY_MAX, { multiline: true, required: MESSAGES.empty, tooLong: MESSAGES.tooLong })

/** Every change of /mensajes and its conversation pages (decisions/0012). */
export const MessageIntent = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('send'),
    // One of the two: the conversation, or the member written to for the first time.
    conversationId: conversationId.optional(),
    recipientId: memberId.optional(),
    body: MessageBody,
    key: z
      .string()
      .trim()
      .min(8)
      .max(IDEMPOTENCY_KEY_MAX)
      .regex(/^[A-Za-z0-9_-]+$/),
  }),
  z.object({ intent: z.literal('accept'), conversationId }),
  z.object({ intent: z.literal('ignore'), conversationId }),
  z.object({ intent: z.literal('block'), memberId }),
  z.object({ intent: z.literal('unblock'), memberId }),
  z.object({
    intent: z.literal('report'),
    messageId: z.uuid('Mensaje no válido'),
    reason: z.enum(MESSAGE_REPORT_REASONS, 'Elige un motivo'),
    note: optionalText(REPORT_NOTE_MAX, { multiline: true, tooLong: `La nota no puede tener más de ${REPORT_NOTE_MAX} caracteres` }),
  }),
  z.object({ intent: z.literal('policy'), policy: z.enum(['anyone', 'known', 'nobody'], 'Elige quién puede escribirte') }),
])

export type MessageIntent = z.output<typeof MessageIntent>

/**
 * A suspended member reads their messages (decisions/0029) and may still shut a door: block,
 * unblock, ignore a request and choose who writes to them. Sending and accepting stay closed.
 */
export const MESSAGES_OPEN_WHILE_SUSPENDED = ['block', 'unblock', 'ignore', 'policy'] as const satisfies ReadonlyArray<
  MessageIntent['intent']
>
