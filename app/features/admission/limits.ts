/** The application form's limits and the words every page and e-mail uses for it (no Zod: pages import it). */
export const APPLICATION_LIMITS = {
  name: 50,
  email: 254,
  phone: 30,
  url: 300,
  company: 100,
  position: 100,
  targetRole: 100,
  text: 1500,
  referral: 200,
  yearsMax: 60,
  note: 2000,
} as const

export const SECTORS = {
  pharma: 'Farma',
  biotech: 'Biotech',
  medtech: 'Medtech',
  diagnostics: 'Diagnóstico',
  digital_health: 'Salud digital',
  other: 'Otro',
} as const

export type Sector = keyof typeof SECTORS
export type ApplicationStatus = 'pending' | 'info_requested' | 'waitlisted' | 'approved' | 'rejected' | 'withdrawn'

/** What the applicant reads on the status page. */
export const APPLICANT_STATUS: Record<ApplicationStatus, string> = {
  pending: 'En revisión',
  info_requested: 'En revisión',
  waitlisted: 'En lista de espera',
  approved: 'Aprobada',
  rejected: 'No aprobada',
  withdrawn: 'Retirada',
}

/** What admins read in the queue. */
export const ADMIN_STATUS: Record<ApplicationStatus, string> = {
  pending: 'Nueva',
  info_requested: 'Información pedida',
  waitlisted: 'Lista de espera',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  withdrawn: 'Retirada',
}

export const HISTORY_LABELS = {
  submitted: 'Solicitud enviada',
  updated: 'Solicitud actualizada por el candidato',
  note: 'Nota interna',
  approved: 'Aprobada: invitación enviada',
  rejected: 'Rechazada: email enviado',
  waitlisted: 'En lista de espera',
  info_requested: 'Más información pedida',
  answered: 'Respuesta del candidato',
  withdrawn: 'Retirada por el candidato',
  invitation_used: 'Invitación usada: cuenta vinculada',
} as const

/** How long the links in the applicant's e-mails work. */
export const STATUS_LINK_DAYS = 180
export const INVITATION_DAYS = 14
/** Rejected and withdrawn applications are deleted this long after they closed (privacy page). */
export const RETENTION_MONTHS = 12

export const ADMISSION_MESSAGES = {
  invalid: 'Revisa los campos marcados',
  failed: 'No se pudo enviar tu solicitud. Vuelve a intentarlo en unos minutos.',
  received: 'Solicitud recibida',
  badLink: 'Este enlace no es válido. Copia el enlace completo del email que te enviamos.',
  expiredLink: 'Este enlace ha caducado. Envía de nuevo tu solicitud con el mismo email y te mandaremos uno nuevo.',
  withdrawn: 'Has retirado tu solicitud',
  answered: 'Respuesta enviada',
  closed: 'Esta solicitud ya está cerrada',
  alreadyOpen:
    'Ya hay una solicitud abierta con este email. Para cambiarla, usa el enlace privado del email que te enviamos: te lo acabamos de enviar de nuevo.',
  decidedElsewhere: 'Otra persona ya ha cambiado esta solicitud. Recarga la página para ver su estado.',
  invitationInvalid: 'Esta invitación no es válida. Copia el enlace completo del email que te enviamos.',
  invitationExpired: 'Esta invitación ha caducado. Escríbenos y te enviaremos una nueva.',
  invitationUsed: 'Esta invitación ya se ha usado con otra cuenta.',
  invitationOtherEmail: 'Esta invitación es para otra dirección de email. Cierra la sesión y entra con la dirección invitada.',
  admissionRequired:
    'La suscripción es para miembros admitidos. Solicita tu admisión y, si la aprobamos, te enviaremos una invitación para suscribirte.',
} as const
