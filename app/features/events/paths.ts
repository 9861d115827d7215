/** Where the calendar's forms post (the tab's action; an event's page takes the same intents). */
export const CALENDAR_ACTION = '/comunidad/calendario'

export const eventPath = (eventId: string) => `/comunidad/calendario/${eventId}`
