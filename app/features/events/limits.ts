// Limits and messages of spec 001 §5 and §8 for events, shown by the browser and enforced by the
// server. Apart from the schemas so that pages showing them load no Zod.

export const EVENT_TITLE_MAX = 200
export const EVENT_TEXT_MAX = 10_000
export const EVENT_SHORT_MAX = 500
export const EVENT_IMAGE_MAX_BYTES = 10 * 1_048_576

export const EVENT_TYPES = { presencial: 'Presencial', virtual: 'Virtual', hibrido: 'Híbrido' } as const

/** The zones an event can be announced in (each has a VTIMEZONE in ics.ts). */
export const EVENT_TIME_ZONES = {
  'Europe/Madrid': 'Madrid',
  'Atlantic/Canary': 'Canarias',
  'Europe/Lisbon': 'Lisboa',
  'America/Mexico_City': 'Ciudad de México',
  'America/Bogota': 'Bogotá',
  'America/Lima': 'Lima',
  'America/Argentina/Buenos_Aires': 'Buenos Aires',
  'America/New_York': 'Nueva York',
} as const

export const EVENT_MESSAGES = {
  created: 'Evento creado',
  createFailed: 'No se pudo crear el evento',
  updated: 'Evento actualizado exitosamente',
  updateFailed: 'Error al actualizar el evento',
  deleted: 'Evento eliminado',
  deleteFailed: 'No se pudo eliminar el evento',
  registered: 'Registrado al evento',
  waitlisted: 'Estás en la lista de espera',
  cancelled: 'Registro cancelado',
  registrationFailed: 'No se pudo gestionar el registro',
  past: 'Este evento ya ha pasado',
  notFound: 'Evento no encontrado',
  imageType: { title: 'Tipo de archivo inválido', description: 'La imagen debe ser JPG, PNG, WebP o GIF' },
  imageTooLarge: 'Archivo muy grande. El límite máximo es 10MB.',
  recordingLinked: 'Grabación guardada',
  recordingFailed: 'No se pudo guardar la grabación',
  recordingTooSoon: 'La grabación se puede añadir cuando el evento haya pasado',
  feedRenewed: 'Nuevo enlace de calendario creado. El anterior ya no funciona.',
} as const
