/** The refund's rules and words, shared by the admin's card and the server (no Zod here). */

/** The guarantee (issue 40): a full refund of the first payment within 30 days of it. */
export const GUARANTEE_DAYS = 30
export const REFUND_REASON_MAX = 500

export const REFUND_MESSAGES = {
  invalid: 'No se pudo hacer el reembolso',
  failed: 'No se pudo hacer el reembolso. Vuelve a intentarlo en unos minutos.',
  done: 'Pago reembolsado y membresía cancelada',
  nothing: 'Este miembro no tiene ningún pago que reembolsar',
  already: 'Este pago ya se ha reembolsado',
  changed: 'Los pagos de este miembro han cambiado: revisa la página antes de reembolsar',
  reasonRequired: `Han pasado más de ${GUARANTEE_DAYS} días desde su primer pago: escribe el motivo del reembolso`,
  reasonTooLong: `El motivo no puede superar ${REFUND_REASON_MAX} caracteres`,
} as const
