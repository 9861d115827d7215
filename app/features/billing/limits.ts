/**
 * What the billing life cycle's pages show and check (no server code, no Zod: the pages' components
 * import it). The messages are the ones tests assert.
 */

/** Why a member cancels: the optional question under 'Tu membresía termina el …'. */
export const CANCEL_REASONS = {
  precio: 'Es demasiado caro',
  tiempo: 'No tengo tiempo para aprovecharla',
  contenido: 'El contenido no era lo que esperaba',
  empresa: 'Mi empresa ya no la paga',
  otro: 'Otro motivo',
} as const
export type CancelReason = keyof typeof CANCEL_REASONS

export const MEMBERSHIP_LIMITS = { reasonText: 500 } as const

export const MEMBERSHIP_MESSAGES = {
  keep: 'Mantener mi membresía',
  kept: 'Tu membresía sigue activa',
  keepFailed: 'No se pudo mantener tu membresía. Vuelve a intentarlo en unos minutos.',
  nothingToKeep: 'Tu membresía no tiene ninguna cancelación pendiente',
  reasonInvalid: 'Revisa tu respuesta',
  reasonTooLong: `Cuéntanoslo en ${MEMBERSHIP_LIMITS.reasonText} caracteres como máximo`,
  reasonSaved: 'Gracias por contárnoslo',
  noSubscription: 'No se encontró información de suscripción',
  updatePayment: 'Actualizar método de pago',
} as const

/** The failed-payment banner (community and /perfil). */
export const paymentFailedText = (until: string | null) =>
  until
    ? `No hemos podido cobrar tu cuota. Volveremos a intentarlo en los próximos días: actualiza tu método de pago antes del ${until} para no perder tu acceso premium.`
    : 'No hemos podido cobrar tu cuota y tu acceso premium se ha detenido. Actualiza tu método de pago y lo recuperarás en cuanto se cobre.'

export const membershipEndsText = (day: string) => `Tu membresía termina el ${day}`
export const pausedText = (day: string) => `Tu cobro está en pausa hasta el ${day}`

/** The console's pause of a member's payments. */
export const PAUSE_MESSAGES = {
  pause: 'Pausar cobro',
  resume: 'Reanudar cobro',
  invalid: 'Indica hasta qué día pausar el cobro',
  dateInPast: 'La fecha de reanudación debe ser posterior a hoy',
  dateTooFar: 'El cobro se puede pausar como máximo 12 meses',
  noSubscription: 'Este miembro no tiene una suscripción activa',
  notPaused: 'El cobro de este miembro no está en pausa',
  manual: 'Sin Stripe configurado no hay cobros que pausar',
  paused: 'Cobro pausado',
  resumed: 'Cobro reanudado',
  failed: 'No se pudo cambiar el cobro. Vuelve a intentarlo en unos minutos.',
} as const

export const PAUSE_MAX_DAYS = 366

/** The console's promotion codes. */
export const CODE_LIMITS = {
  codeMin: 3,
  codeMax: 40,
  percentMax: 100,
  amountMaxEuros: 10_000,
  monthsMax: 36,
  redemptionsMax: 100_000,
} as const

export const CODE_MESSAGES = {
  invalid: 'Revisa los datos del código',
  failed: 'No se pudo crear el código. Vuelve a intentarlo en unos minutos.',
  codeRequired: 'Escribe el código',
  codeChars: 'El código solo puede tener letras sin tilde, números y guiones',
  codeTooShort: `El código debe tener al menos ${CODE_LIMITS.codeMin} caracteres`,
  codeTooLong: `El código puede tener como máximo ${CODE_LIMITS.codeMax} caracteres`,
  codeTaken: 'Ya existe un código con ese nombre',
  kind: 'Elige si el descuento es un porcentaje o un importe',
  percent: 'El porcentaje debe estar entre 1 y 100',
  amount: `El importe debe ser mayor que 0 € y como máximo ${CODE_LIMITS.amountMaxEuros} €`,
  duration: 'Elige cuánto dura el descuento',
  months: `Indica entre 1 y ${CODE_LIMITS.monthsMax} meses`,
  maxRedemptions: `El número máximo de usos debe estar entre 1 y ${CODE_LIMITS.redemptionsMax}`,
  endsOn: 'Indica una fecha válida',
  endsOnPast: 'La fecha de fin debe ser posterior a hoy',
  created: 'Código creado',
  deactivated: 'Código desactivado',
  deactivateFailed: 'No se pudo desactivar el código',
  notFound: 'Ese código no existe',
  alreadyInactive: 'Ese código ya estaba desactivado',
  manual: 'Los códigos necesitan el pago en línea (Stripe) configurado',
} as const

export const DURATIONS = { once: 'Solo el primer pago', repeating: 'Durante unos meses', forever: 'Siempre' } as const
export const CODE_KINDS = { percent: 'Porcentaje', amount: 'Importe fijo' } as const

/** A code typed by a buyer at the (test) checkout: Stripe Checkout's refusals, in Spanish. */
export const REDEEM_MESSAGES = {
  invalid: 'Este código promocional no es válido',
  expired: 'Este código promocional ha caducado',
  exhausted: 'Este código promocional ya se ha agotado',
  notFirstTime: 'Este código promocional es solo para quien se hace miembro por primera vez',
} as const
