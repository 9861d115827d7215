// Spec 001 §5: how long a comment may be, shown by the panel and enforced by the schema; apart
// from the schemas so that pages showing comments load no Zod.
export const COMMENT_MAX = 2_000
