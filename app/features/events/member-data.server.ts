import { eq, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { toggleRegistration } from './events.server'
import { eventAttendees } from './schema'

export const eventsData: MemberDataPart = {
  tables: {
    event_attendees: { section: 'eventos_inscripciones' },
    calendar_feeds: { not: "the private calendar feed's token: a secret that opens the feed" },
    events: { not: 'events created by staff as part of their work for the community' },
  },
  sections: {
    eventos_inscripciones: (id) => sql`select a.event_id, e.title, e.event_date, a.status, a.registered_at
      from event_attendees a join events e on e.id = a.event_id where a.user_id = ${id} order by e.event_date`,
  },
  // A place they held goes to the first in the queue, who is told, as when they cancel it themselves.
  async erase(tx, { id }) {
    const joined = await tx.select({ eventId: eventAttendees.eventId }).from(eventAttendees).where(eq(eventAttendees.userId, id))
    for (const { eventId } of joined) await toggleRegistration(eventId, id, new Date(), tx)
  },
}
