import { z } from 'zod'
import { optionalText } from '~/platform/http/text-fields'
import { HIDE_REASON_MAX, REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, SUSPENSION_DAYS } from './reasons'

const kind = z.enum(['post', 'comment', 'session_comment'], 'Contenido no válido')
const reportedKind = z.enum(['post', 'comment', 'session_comment', 'member'], 'Contenido no válido')
const itemId = z.uuid('Contenido no válido')

/** What members send from 'Informar' (about an item or a member) and 'Pedir revisión'. */
export const ReportIntent = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('report'),
    kind: reportedKind,
    itemId,
    reason: z.enum(Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]], 'Elige un motivo'),
    note: optionalText(REPORT_NOTE_MAX, { multiline: true, tooLong: `La nota no puede tener más de ${REPORT_NOTE_MAX} caracteres` }),
  }),
  z.object({ intent: z.literal('request-review'), kind, itemId }),
])

/** Asking for a review is a suspended member's one way to appeal: open in read-only mode (decisions/0029). */
export const REPORT_OPEN_WHILE_SUSPENDED = ['request-review'] as const satisfies ReadonlyArray<z.output<typeof ReportIntent>['intent']>

/** What moderators send from the queue. */
export const DecisionIntent = z.object({
  intent: z.literal('decide'),
  kind,
  itemId,
  action: z.enum(['hide', 'delete', 'dismiss', 'restore'], 'Decisión no válida'),
  reason: optionalText(HIDE_REASON_MAX, { multiline: true, tooLong: `El motivo no puede tener más de ${HIDE_REASON_MAX} caracteres` }),
})

/** What moderators decide about an item's author. */
export const MemberDecisionIntent = z.object({
  intent: z.literal('member'),
  userId: z.string().min(1).max(100),
  action: z.enum(['warn', 'suspend', 'ban', 'lift', 'dismiss'], 'Decisión no válida'),
  days: z.coerce
    .number()
    .refine((days) => (SUSPENSION_DAYS as readonly number[]).includes(days), 'Elige 1, 7 o 30 días')
    .optional(),
  reason: optionalText(HIDE_REASON_MAX, { multiline: true, tooLong: `El motivo no puede tener más de ${HIDE_REASON_MAX} caracteres` }),
})
