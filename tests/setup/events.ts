import { createEvent } from '~/features/events/events.server'

/** An in-person event in Madrid's time, announced by `adminId` (its 'Nuevo evento' goes to everyone). */
export function announceEvent(title: string, eventDate: Date, adminId: string) {
  return createEvent(
    {
      title,
      description: 'Networking',
      content: null,
      eventDate,
      timeZone: 'Europe/Madrid',
      durationMinutes: 90,
      location: 'Madrid',
      eventType: 'presencial',
      maxAttendees: null,
      externalLink: null,
    },
    adminId,
  )
}
