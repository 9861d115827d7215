/** Why a member reports something (issue 28), in the words of the form. */
export const REPORT_REASONS = {
  spam: 'Spam',
  offensive: 'Ofensivo o acoso',
  false: 'Información falsa o peligrosa',
  off_topic: 'Fuera de tema',
  confidential: 'Confidencial o datos personales',
  other: 'Otro',
} as const

export type ReportReason = keyof typeof REPORT_REASONS

export const REPORT_NOTE_MAX = 500
export const HIDE_REASON_MAX = 500

/** What the pages and toasts say (a moderator is never named to members). */
export const MODERATION_MESSAGES = {
  received: 'Gracias por avisarnos. El equipo de moderación lo revisará y te contaremos qué decide.',
  already: 'Ya nos habías avisado de esto. El equipo de moderación lo está revisando.',
  own: 'No puedes informar de lo que has escrito tú.',
  gone: 'Este contenido ya no está disponible.',
  taken: 'Otra persona del equipo ya ha decidido sobre este contenido. Recarga la página para ver la cola actualizada.',
  reasonRequired: 'Escribe el motivo que verá el autor',
  hidden: 'Contenido oculto',
  dismissed: 'Informe descartado',
  restored: 'Contenido visible de nuevo',
  reviewAsked: 'Hemos pedido al equipo de moderación que lo revise de nuevo.',
  placeholder: 'Contenido oculto por moderación',
} as const
