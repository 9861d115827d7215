// Limits of spec 001 §5 and §9 for sessions, shown by the browser and enforced by the server.
// Apart from the schemas so that pages showing them load no Zod.

const MB = 1_048_576

export const VIDEO_MAX_BYTES = 500 * MB
export const PDF_MAX_BYTES = 20 * MB
export const THUMBNAIL_MAX_BYTES = 10 * MB
/** Spec: chunks of 5120 KB; a chunk may be larger than that by a little, never by much. */
export const VIDEO_CHUNK_BYTES = { size: 5120 * 1024, max: 8 * MB }
export const TITLE_MAX = 200
export const TEXT_MAX = 10_000
export const SHORT_TEXT_MAX = 500
export const TAGS_MAX = 20
export const TAG_MAX = 40
/** Spec: a card shows up to 3 tags, then '+N'. */
export const CARD_TAGS = 3
