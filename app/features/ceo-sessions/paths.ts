/** Where the sessions tab's forms post (its route's action). */
export const SESSIONS_ACTION = '/comunidad/sesiones'

/** A session's page, whose action takes the same intents. */
export const videoPath = (sessionId: string) => `/video/${sessionId}`
