/** What the pages show and the server enforces (issue 41); no Zod here, so the pages load none. */
/** A message's length; the table's check says the same (schema.ts imports it from here, never the other way: the pages would load Drizzle). */
export const MESSAGE_BODY_MAX = 2000

/** Idempotency keys are made by the browser (a UUID) or the no-JS form (a UUID in the page). */
export const IDEMPOTENCY_KEY_MAX = 64

/** The reasons offered when a message is reported ('Mensajes no deseados' first). */
export const MESSAGE_REPORT_REASONS = ['unwanted_messages', 'spam', 'offensive', 'false', 'confidential', 'other'] as const

export const LIMITS = {
  newConversationsPerDay: 20,
  newConversationsFirstWeek: 5,
  messagesPerMinute: 60,
} as const

/** A page of the list and of a conversation. */
export const PAGE_SIZE = 30

export const POLICY_LABELS = {
  anyone: 'Cualquier miembro',
  known: 'Solo miembros con quienes ya he hablado',
  nobody: 'Nadie',
} as const

export type MessagePolicy = keyof typeof POLICY_LABELS

export const MESSAGES = {
  requests: 'Solicitudes de mensaje',
  accept: 'Aceptar',
  ignore: 'Ignorar',
  pending: 'Pendiente',
  placeholder: 'Escribe un mensaje…',
  send: 'Enviar',
  sendMessage: 'Enviar mensaje',
  block: 'Bloquear',
  unblock: 'Desbloquear',
  deleted: 'Miembro eliminado',
  notAccepting: 'Este miembro no acepta mensajes.',
  oneUntilAccepted: 'Pendiente: podrás escribir de nuevo cuando acepte tu solicitud.',
  notFound: 'Conversación no encontrada',
  off: 'Los mensajes privados están desactivados en este momento.',
  premium: 'Necesitas acceso premium para enviar mensajes',
  invalid: 'No se pudo enviar el mensaje',
  tooLong: `El mensaje no puede tener más de 2000 caracteres`,
  empty: 'Escribe un mensaje',
  self: 'No puedes enviarte mensajes a ti mismo.',
  youBlocked: 'Has bloqueado a este miembro. Desbloquéalo para escribirle.',
  blocked: 'Miembro bloqueado. Ya no podrá escribirte.',
  unblocked: 'Miembro desbloqueado',
  accepted: 'Solicitud aceptada',
  ignored: 'Solicitud ignorada',
  sent: 'Mensaje enviado',
  policySaved: 'Preferencia de mensajes guardada',
  loadFailed: 'No se pudieron cargar los mensajes',
  privacy:
    'Las conversaciones no son visibles para ningún administrador: el equipo de moderación solo lee un mensaje que se le informa y los cinco anteriores.',
} as const
