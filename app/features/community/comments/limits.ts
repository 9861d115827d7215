// Spec 001 §5: how long a comment may be, shown by the panel and enforced by the schema; apart
// from the schemas so that pages showing comments load no Zod.
export const COMMENT_MAX = 2_000

/** What the panel says in place when the list cannot be loaded. */
export const COMMENTS_FAILED = 'No se pudieron cargar los comentarios'
