// Limits and messages of spec 001 §5 for posts, shown by the browser and enforced
// by the server (schemas.ts). Apart from the schemas so that pages showing them load no Zod.

export const POST_TITLE_MAX = 200
export const POST_CONTENT_MAX = 10_000
export const URL_MAX = 2_048

export const ATTACHMENT_LIMITS = {
  field: 'attachments',
  maxFiles: 5,
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 25 * 1024 * 1024,
} as const

export const ATTACHMENT_ERRORS = {
  type: 'Solo se permiten imágenes, PDF, DOC, DOCX o TXT',
  fileSize: 'Cada archivo debe ser menor a 10MB',
  count: 'Máximo 5 archivos por post',
  total: 'Los archivos no pueden superar 25MB en total',
} as const
