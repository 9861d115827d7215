/** Why a member reports something (issue 28), in the words of the form. */
export const REPORT_REASONS = {
  spam: 'Spam',
  offensive: 'Ofensivo o acoso',
  false: 'Información falsa o peligrosa',
  off_topic: 'Fuera de tema',
  confidential: 'Confidencial o datos personales',
  other: 'Otro',
  unwanted_messages: 'Mensajes no deseados',
} as const

export type ReportReason = keyof typeof REPORT_REASONS

/** How long 'Suspender' makes an account read-only (issue 28). */
export const SUSPENSION_DAYS = [1, 7, 30] as const

export const REPORT_NOTE_MAX = 500
export const HIDE_REASON_MAX = 500

/** What the pages and toasts say (a moderator is never named to members). */
export const MODERATION_MESSAGES = {
  received: 'Gracias por avisarnos. El equipo de moderación lo revisará y te contaremos qué decide.',
  already: 'Ya nos habías avisado de esto. El equipo de moderación lo está revisando.',
  own: 'No puedes informar de lo que has escrito tú.',
  gone: 'Este contenido ya no está disponible.',
  memberGone: 'Este miembro ya no está en la comunidad.',
  taken: 'Otra persona del equipo ya ha decidido sobre este contenido. Recarga la página para ver la cola actualizada.',
  memberTaken: 'Otra persona del equipo ya ha decidido sobre esta cuenta. Recarga la página para ver la cola actualizada.',
  reasonRequired: 'Escribe el motivo que verá el autor',
  hidden: 'Contenido oculto',
  deleted: 'Contenido eliminado',
  dismissed: 'Informe descartado',
  restored: 'Contenido visible de nuevo',
  reviewAsked: 'Hemos pedido al equipo de moderación que lo revise de nuevo.',
  placeholder: 'Contenido oculto por moderación',
  banned: 'Esta cuenta ya no tiene acceso a la comunidad. Si crees que es un error, escríbenos.',
  warned: 'Aviso enviado',
  suspended: 'Cuenta en modo lectura',
  banDone: 'Miembro expulsado',
  lifted: 'Suspensión levantada',
  staff: 'No se puede advertir, suspender ni expulsar a un administrador o moderador desde la cola.',
} as const
