// Limits of spec 001 §5 and §9 for sessions, shown by the browser and enforced by the server.
// Apart from the schemas so that pages showing them load no Zod.

const MB = 1_048_576

export const VIDEO_MAX_BYTES = 500 * MB
export const PDF_MAX_BYTES = 20 * MB
export const THUMBNAIL_MAX_BYTES = 10 * MB
export const CAPTIONS_MAX_BYTES = 1 * MB
/** Spec: chunks of 5120 KB; a chunk may be larger than that by a little, never by much. */
export const VIDEO_CHUNK_BYTES = { size: 5120 * 1024, max: 8 * MB }
export const TITLE_MAX = 200
export const TEXT_MAX = 10_000
export const SHORT_TEXT_MAX = 500
export const TAGS_MAX = 20
export const TAG_MAX = 40
/** Spec: a card shows up to 3 tags, then '+N'. */
export const CARD_TAGS = 3

/** Spec 001 §8 messages the dialogs show before sending and the server answers when refusing. */
export const SESSION_MESSAGES = {
  required: { title: 'Campos requeridos', description: 'Por favor completa todos los campos obligatorios' },
  created: { title: 'Sesión creada', description: 'El video se está procesando. Te avisaremos cuando esté publicada.' },
  createFailed: 'No se pudo crear la sesión',
  updated: 'Sesión actualizada',
  updateFailed: 'No se pudo actualizar la sesión',
  deleted: 'Sesión eliminada',
  deleteFailed: 'No se pudo eliminar la sesión',
  filesLeft: 'No se pudo eliminar el video/thumbnail',
  loadFailed: 'No se pudo cargar la información de la sesión',
  videoUploadFailed: 'Error subiendo el video',
  videoRequired: 'El video es obligatorio',
  videoType: { title: 'Tipo de archivo inválido', description: 'Solo se permiten archivos de video (MP4, WebM o MOV)' },
  pdfType: { title: 'Tipo de archivo inválido', description: 'Solo se permiten archivos PDF' },
  imageType: { title: 'Tipo de archivo inválido', description: 'La miniatura debe ser una imagen JPG, PNG, WebP o GIF' },
  captionsType: { title: 'Tipo de archivo inválido', description: 'Los subtítulos deben ser un archivo WebVTT (.vtt)' },
  notFound: 'Video no encontrado',
  videoFailed: 'No se pudo cargar el video',
  reaction: 'No se pudo procesar tu reacción',
  fileTooLarge: 'Archivo muy grande. El límite máximo es 20MB por archivo.',
} as const

/** 'Archivo muy grande' with the size (spec 001 §5): 'El PDF es de 23.4 MB. El límite máximo es 20MB.' */
export function tooLarge(kind: 'video' | 'pdf' | 'thumbnail', bytes: number) {
  const size = (bytes / MB).toFixed(1)
  const noun = { video: 'El video', pdf: 'El PDF', thumbnail: 'La miniatura' }[kind]
  const max = { video: VIDEO_MAX_BYTES, pdf: PDF_MAX_BYTES, thumbnail: THUMBNAIL_MAX_BYTES }[kind] / MB
  return { title: 'Archivo muy grande', description: `${noun} es de ${size} MB. El límite máximo es ${max}MB.` }
}

/** 'Nmin' under an hour, otherwise '1h 5min' (spec 001 §9). */
export function formatDuration(minutes: number | null) {
  if (minutes == null) return null
  if (minutes < 60) return `${minutes}min`
  const rest = minutes % 60
  return rest ? `${Math.floor(minutes / 60)}h ${rest}min` : `${Math.floor(minutes / 60)}h`
}
