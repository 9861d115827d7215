import { signedUploadUrl } from '~/platform/storage/signed-url.server'
import type { ListedEvent } from './events.server'

/** What a card and the calendar show of an event, with the viewer's registration. */
export function toEventView(event: ListedEvent) {
  return {
    id: event.id,
    title: event.title,
    description: event.description,
    eventDate: event.eventDate.toISOString(),
    timeZone: event.timeZone,
    durationMinutes: event.durationMinutes,
    location: event.location,
    eventType: event.eventType,
    maxAttendees: event.maxAttendees,
    registeredCount: event.registeredCount,
    imageUrl: event.imageKey ? signedUploadUrl(event.imageKey, 'evento.webp') : null,
    recordingSessionId: event.recordingSessionId,
    myStatus: event.myStatus ?? null,
  }
}

export type EventView = ReturnType<typeof toEventView>
