/**
 * The fields of the event dialog (spec 001 §5 'Event edit'). The date is the wall time in the
 * event's zone in the dialog, a Date once validated.
 */
export interface EventFields<When = Date> {
  title: string
  description: string
  content: string | null
  eventDate: When
  timeZone: string
  durationMinutes: number
  location: string | null
  eventType: 'presencial' | 'virtual' | 'hibrido'
  maxAttendees: number | null
  externalLink: string | null
}
