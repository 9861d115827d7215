/** The community announcement's length (a single line above the tabs). */
export const ANNOUNCEMENT_MAX = 280

/** The courteous words of a rejection e-mail (its greeting and signature are the e-mail's). */
export const REJECTION_TEXT_MAX = 2000
export const DEFAULT_REJECTION_TEXT =
  'Gracias por tu interés y por el tiempo que dedicaste a tu solicitud. Hemos revisado tu perfil con atención y, por ahora, no podemos ofrecerte una plaza en la comunidad. Esta decisión no es un juicio sobre tu trayectoria: cada convocatoria buscamos un equilibrio de perfiles y experiencia. Podrás volver a solicitarlo más adelante.'
