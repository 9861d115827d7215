import { recordAudit } from '~/platform/audit/audit.server'
import { getDb } from '~/platform/db/client.server'
import type { CurrentUser } from '~/features/account/guards.server'
import { requireAccess, requireCapability } from '~/platform/auth/guards.server'
import { fromWallTime } from '~/platform/dates'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { logger } from '~/platform/logger.server'
import { encodeThumbnail, encodeUploadedImage } from '~/platform/storage/image.server'
import type { UploadedFile } from '~/platform/storage/multipart.server'
import { getStorage } from '~/platform/storage/storage.server'
import { notifyEveryoneInTransaction } from '~/features/notifications/notifications.server'
import { renewCalendarFeed } from './calendar-feed.server'
import { isPublished } from '~/features/ceo-sessions/library.server'
import { createEvent, deleteEvent, getEventRecord, setRecording, toggleRegistration, updateEvent } from './events.server'
import type { EventFields } from './types'
import { EVENT_IMAGE_MAX_BYTES, EVENT_MESSAGES } from './limits'
import { EventIntent } from './schemas'

type Input<K extends EventIntent['intent']> = Extract<EventIntent, { intent: K }>

const IMAGE_LIMITS = { field: 'image', maxFiles: 1, maxFileBytes: EVENT_IMAGE_MAX_BYTES, maxTotalBytes: EVENT_IMAGE_MAX_BYTES }

/**
 * The one action of the events feature, posted to by the calendar tab and an event's page
 * (docs/decisions/0012): guard, form, intent, handler.
 */
export function eventAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    EventIntent,
    {
      'create-event': { invalid: EVENT_MESSAGES.createFailed, run: (input, files) => createIntent(user, input, files) },
      'update-event': { invalid: EVENT_MESSAGES.updateFailed, run: (input, files) => updateIntent(user, input, files) },
      'delete-event': { invalid: EVENT_MESSAGES.deleteFailed, run: (input) => deleteIntent(user, input) },
      'toggle-registration': { invalid: EVENT_MESSAGES.registrationFailed, run: (input) => registrationIntent(user, input) },
      'renew-calendar-feed': { invalid: EVENT_MESSAGES.registrationFailed, run: () => renewFeedIntent(user) },
      'link-recording': { invalid: EVENT_MESSAGES.recordingFailed, run: (input) => recordingIntent(user, input) },
    },
    { files: IMAGE_LIMITS, messages: { 'file-too-large': EVENT_MESSAGES.imageTooLarge, 'too-large': EVENT_MESSAGES.imageTooLarge } },
  )
}

function fieldsOf(input: Input<'create-event'> | Input<'update-event'>): EventFields {
  return {
    title: input.title,
    description: input.description,
    content: input.content,
    // Checked by the schema: a real time in the event's zone.
    eventDate: fromWallTime(input.eventDate, input.timeZone)!,
    timeZone: input.timeZone,
    durationMinutes: input.durationMinutes,
    location: input.location,
    eventType: input.eventType,
    maxAttendees: input.maxAttendees,
    externalLink: input.externalLink,
  }
}

async function createIntent(user: CurrentUser, input: Input<'create-event'>, files: UploadedFile[]) {
  requireCapability(user, 'manage-events', EVENT_MESSAGES.createFailed)
  const eventId = crypto.randomUUID()
  const imageKey = await storeImage(eventId, files)
  try {
    await getDb().transaction(async (tx) => {
      await createEvent({ ...fieldsOf(input), imageKey }, user.id, { id: eventId, executor: tx })
      // Issue 14 and the spec's stats: members hear of a new event in the bell.
      await notifyEveryoneInTransaction(tx, {
        actorId: user.id,
        type: 'new_event',
        title: 'Nuevo evento',
        message: `«${input.title}»: regístrate para reservar tu plaza`,
        eventId,
      })
    })
  } catch (error) {
    if (imageKey)
      await getStorage()
        .delete(imageKey)
        .catch(() => {})
    throw error
  }
  return success({ eventId }, { title: EVENT_MESSAGES.created })
}

async function updateIntent(user: CurrentUser, input: Input<'update-event'>, files: UploadedFile[]) {
  requireCapability(user, 'manage-events', EVENT_MESSAGES.updateFailed)
  const event = await getEventRecord(input.eventId)
  if (!event) refuse(404, EVENT_MESSAGES.updateFailed, { detail: { eventId: input.eventId } })
  const imageKey = await storeImage(event.id, files)
  await updateEvent(event.id, { ...fieldsOf(input), ...(imageKey ? { imageKey } : {}) })
  if (imageKey && event.imageKey)
    await getStorage()
      .delete(event.imageKey)
      .catch((error: unknown) => logger.warn({ err: error }, 'event image not removed'))
  return success({ eventId: event.id }, { title: EVENT_MESSAGES.updated })
}

async function deleteIntent(user: CurrentUser, input: Input<'delete-event'>) {
  requireCapability(user, 'manage-events', EVENT_MESSAGES.deleteFailed)
  const removed = await deleteEvent(input.eventId)
  if (!removed) refuse(404, EVENT_MESSAGES.deleteFailed, { detail: { eventId: input.eventId } })
  await recordAudit({ action: 'event_deleted', actorUserId: user.id, details: { eventId: input.eventId, title: removed.title } })
  if (removed.imageKey)
    await getStorage()
      .delete(removed.imageKey)
      .catch((error: unknown) => logger.warn({ err: error }, 'event image not removed'))
  return success({ eventId: input.eventId }, { title: EVENT_MESSAGES.deleted })
}

async function registrationIntent(user: CurrentUser, input: Input<'toggle-registration'>) {
  requireAccess(user, 'Necesitas acceso premium para registrarte en eventos')
  const outcome = await toggleRegistration(input.eventId, user.id)
  if (outcome.kind === 'not-found') refuse(404, EVENT_MESSAGES.registrationFailed, { detail: { eventId: input.eventId } })
  if (outcome.kind === 'past') refuse(409, EVENT_MESSAGES.past, { detail: { eventId: input.eventId } })
  if (outcome.kind === 'registered')
    return success({ eventId: input.eventId, status: 'registered' as const }, { title: EVENT_MESSAGES.registered })
  if (outcome.kind === 'waitlisted') {
    return success(
      { eventId: input.eventId, status: 'waitlisted' as const },
      {
        title: EVENT_MESSAGES.waitlisted,
        description: `El evento está completo. Eres el número ${outcome.position} de la lista: te avisaremos si se libera una plaza.`,
      },
    )
  }
  return success({ eventId: input.eventId, status: 'none' as const }, { title: EVENT_MESSAGES.cancelled })
}

async function recordingIntent(user: CurrentUser, input: Input<'link-recording'>) {
  requireCapability(user, 'manage-events', EVENT_MESSAGES.recordingFailed)
  if (input.sessionId && !(await isPublished(input.sessionId)))
    refuse(404, EVENT_MESSAGES.recordingFailed, { detail: { sessionId: input.sessionId } })
  const event = await getEventRecord(input.eventId)
  if (!event) refuse(404, EVENT_MESSAGES.recordingFailed, { detail: { eventId: input.eventId } })
  if (event.eventDate > new Date()) refuse(409, EVENT_MESSAGES.recordingTooSoon)
  await setRecording(event.id, input.sessionId ?? null)
  return success({ eventId: event.id }, { title: EVENT_MESSAGES.recordingLinked })
}

async function renewFeedIntent(user: CurrentUser) {
  requireAccess(user)
  const feedPath = await renewCalendarFeed(user.id)
  return success({ feedPath }, { title: EVENT_MESSAGES.feedRenewed })
}

/** The event's picture, re-encoded (no metadata, 16:9); a file that is not an image is refused. */
async function storeImage(eventId: string, files: UploadedFile[]) {
  const file = files[0]
  if (!file) return null
  const key = `events/${eventId}/image_${Date.now()}.webp`
  await getStorage().put(key, await encodeUploadedImage(file.buffer, encodeThumbnail, EVENT_MESSAGES.imageType), 'image/webp')
  return key
}
