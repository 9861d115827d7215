import { and, asc, count, desc, eq, gt, gte, lt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { profiles, publicProfileColumns } from '~/features/account/schema'
import { displayName } from '~/features/account/display-name'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { dateCursor } from '~/platform/http/query'
import { refuse } from '~/platform/http/responses.server'
import { enqueue } from '~/platform/jobs/jobs.server'
import { EVENT_MESSAGES } from './limits'
import { eventAttendees, events } from './schema'
import { reminderJob, REMINDERS } from './reminders.server'
import type { EventFields } from './types'

const eventColumns = {
  id: events.id,
  title: events.title,
  description: events.description,
  eventDate: events.eventDate,
  timeZone: events.timeZone,
  durationMinutes: events.durationMinutes,
  location: events.location,
  eventType: events.eventType,
  maxAttendees: events.maxAttendees,
  externalLink: events.externalLink,
  imageKey: events.imageKey,
  registeredCount: events.registeredCount,
  recordingSessionId: events.recordingSessionId,
  createdBy: events.createdBy,
}

/**
 * Events in [from, to), soonest first (spec 001 §7), with the viewer's registration. The calendar
 * asks for a month (every event of it: the spec's 'first 6' is a defect, ADR 0020), the list for
 * what is ahead, 'Pasados' for what is behind, newest first.
 */
export async function listEvents({
  viewerId,
  from,
  to,
  order = 'asc',
  limit = 200,
  after,
}: {
  viewerId: string
  from?: Date
  to?: Date
  order?: 'asc' | 'desc'
  limit?: number
  /** The last event of the page before (soonest first only). */
  after?: { date: Date; id: string } | null
}) {
  const mine = alias(eventAttendees, 'my_attendance')
  return getDb()
    .select({ ...eventColumns, myStatus: mine.status })
    .from(events)
    .leftJoin(mine, and(eq(mine.eventId, events.id), eq(mine.userId, viewerId)))
    .where(
      and(
        from ? gte(events.eventDate, from) : undefined,
        to ? lt(events.eventDate, to) : undefined,
        after ? or(gt(events.eventDate, after.date), and(eq(events.eventDate, after.date), gt(events.id, after.id))) : undefined,
      ),
    )
    .orderBy(order === 'asc' ? asc(events.eventDate) : desc(events.eventDate), asc(events.id))
    .limit(limit)
}

/** Upcoming events per page of the list (issue 38: 12, the next ones appended as the member scrolls). */
export const UPCOMING_PAGE_SIZE = 12

/** A page of the list's upcoming events after `cursor` (keyset, no OFFSET), and where the next starts. */
export async function listUpcoming({
  viewerId,
  cursor,
  limit = UPCOMING_PAGE_SIZE,
}: {
  viewerId: string
  cursor: string | null
  limit?: number
}) {
  const rows = await listEvents({ viewerId, from: new Date(), after: dateCursor.decode(cursor), limit: limit + 1 })
  const shown = rows.slice(0, limit)
  const last = shown.at(-1)
  return { events: shown, next: rows.length > limit && last ? dateCursor.encode(last.eventDate, last.id) : null }
}

export type ListedEvent = Awaited<ReturnType<typeof listEvents>>[number]

/** One event with its registered members (names link to profiles) and the viewer's place. */
export async function getEvent(eventId: string, viewerId: string) {
  const mine = alias(eventAttendees, 'my_attendance')
  const [event] = await getDb()
    .select({ ...eventColumns, content: events.content, myStatus: mine.status, myRegisteredAt: mine.registeredAt })
    .from(events)
    .leftJoin(mine, and(eq(mine.eventId, events.id), eq(mine.userId, viewerId)))
    .where(eq(events.id, eventId))
    .limit(1)
  if (!event) return null
  const [attendees, [queue]] = await Promise.all([
    getDb()
      .select({
        userId: eventAttendees.userId,
        ...publicProfileColumns,
      })
      .from(eventAttendees)
      .leftJoin(profiles, eq(profiles.userId, eventAttendees.userId))
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'registered')))
      .orderBy(asc(eventAttendees.registeredAt))
      .limit(500),
    getDb()
      .select({
        waiting: count(),
        ahead: event.myRegisteredAt
          ? sql<number>`count(*) filter (where ${eventAttendees.registeredAt} < ${event.myRegisteredAt})`
          : sql<number>`0`,
      })
      .from(eventAttendees)
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'waitlisted'))),
  ])
  return {
    ...event,
    attendees: attendees.map((row) => ({ userId: row.userId, name: displayName(row), avatarUrl: row.avatarUrl })),
    waitlistCount: queue?.waiting ?? 0,
    /** 1 for the first in the queue. */
    myWaitlistPosition: event.myStatus === 'waitlisted' ? Number(queue?.ahead ?? 0) + 1 : null,
  }
}

export async function createEvent(
  fields: EventFields & { imageKey?: string | null },
  createdBy: string,
  { id = crypto.randomUUID(), executor = getDb() }: { id?: string; executor?: DbExecutor } = {},
) {
  const [row] = await executor
    .insert(events)
    .values({ id, ...fields, createdBy })
    .returning({ id: events.id })
  return row!.id
}

/** The event as the guards and the image replacement need it. */
export async function getEventRecord(eventId: string) {
  const [row] = await getDb()
    .select({ id: events.id, imageKey: events.imageKey, eventDate: events.eventDate })
    .from(events)
    .where(eq(events.id, eventId))
  return row ?? null
}

/**
 * New details. A new date re-plans the reminders of everyone registered (the old jobs find the
 * date changed and do nothing); more places let the queue in, in order.
 */
export async function updateEvent(eventId: string, fields: EventFields & { imageKey?: string | null }) {
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select({ eventDate: events.eventDate }).from(events).where(eq(events.id, eventId)).for('update')
    // Deleted since the edit began.
    if (!before) refuse(404, EVENT_MESSAGES.updateFailed, { detail: { eventId } })
    await tx
      .update(events)
      .set({ ...fields, updatedAt: sql`now()` })
      .where(eq(events.id, eventId))
    if (before.eventDate.getTime() !== fields.eventDate.getTime()) {
      const registered = await tx
        .select({ userId: eventAttendees.userId })
        .from(eventAttendees)
        .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'registered')))
      for (const { userId } of registered) await planReminders(tx, { id: eventId, eventDate: fields.eventDate }, userId)
    }
    await admitFromQueue(tx, eventId)
  })
}

/** Beyond the spec: a past event names its recording (or none). */
export async function setRecording(eventId: string, sessionId: string | null) {
  const updated = await getDb()
    .update(events)
    .set({ recordingSessionId: sessionId, updatedAt: sql`now()` })
    .where(eq(events.id, eventId))
    .returning({ eventDate: events.eventDate })
  return updated[0] ?? null
}

export async function deleteEvent(eventId: string) {
  const [row] = await getDb().delete(events).where(eq(events.id, eventId)).returning({ imageKey: events.imageKey, title: events.title })
  return row ?? null
}

export type RegistrationOutcome =
  | { kind: 'registered' }
  | { kind: 'waitlisted'; position: number }
  | { kind: 'cancelled'; admitted: string | null }
  | { kind: 'past' }
  | { kind: 'not-found' }

/**
 * Registers the member, or cancels their registration (spec 001 §4: a toggle). The event row is
 * locked for the whole change, so fifty members registering at once for the last places cannot
 * take more than there are: the rest join the queue in order. A cancellation gives the place to
 * the first in the queue, who is told in the bell. Inside another transaction (`executor`: an
 * account's deletion) it is a part of that one.
 */
export async function toggleRegistration(
  eventId: string,
  userId: string,
  now = new Date(),
  executor: DbExecutor = getDb(),
): Promise<RegistrationOutcome> {
  return executor.transaction(async (tx) => {
    const [event] = await tx
      .select({ id: events.id, eventDate: events.eventDate, maxAttendees: events.maxAttendees, registeredCount: events.registeredCount })
      .from(events)
      .where(eq(events.id, eventId))
      .for('update')
    if (!event) return { kind: 'not-found' }
    const [existing] = await tx
      .select({ status: eventAttendees.status })
      .from(eventAttendees)
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.userId, userId)))
    if (existing) {
      await tx.delete(eventAttendees).where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.userId, userId)))
      if (existing.status === 'registered') {
        await tx
          .update(events)
          .set({ registeredCount: sql`greatest(${events.registeredCount} - 1, 0)` })
          .where(eq(events.id, eventId))
      }
      const admitted = event.eventDate > now ? await admitFromQueue(tx, eventId) : []
      return { kind: 'cancelled', admitted: admitted[0] ?? null }
    }
    if (event.eventDate <= now) return { kind: 'past' }
    if (event.maxAttendees === null || event.registeredCount < event.maxAttendees) {
      await tx.insert(eventAttendees).values({ eventId, userId, status: 'registered' })
      await tx
        .update(events)
        .set({ registeredCount: sql`${events.registeredCount} + 1` })
        .where(eq(events.id, eventId))
      await planReminders(tx, event, userId)
      return { kind: 'registered' }
    }
    await tx.insert(eventAttendees).values({ eventId, userId, status: 'waitlisted' })
    const [queue] = await tx
      .select({ n: count() })
      .from(eventAttendees)
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'waitlisted')))
    return { kind: 'waitlisted', position: queue?.n ?? 1 }
  })
}

/** While there are free places, the first in the queue takes one and hears of it. Returns who. */
async function admitFromQueue(tx: DbExecutor, eventId: string) {
  const admitted: string[] = []
  for (;;) {
    const [event] = await tx
      .select({
        title: events.title,
        eventDate: events.eventDate,
        maxAttendees: events.maxAttendees,
        registeredCount: events.registeredCount,
      })
      .from(events)
      .where(eq(events.id, eventId))
    if (!event || (event.maxAttendees !== null && event.registeredCount >= event.maxAttendees)) return admitted
    const [next] = await tx
      .select({ userId: eventAttendees.userId })
      .from(eventAttendees)
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'waitlisted')))
      .orderBy(asc(eventAttendees.registeredAt), asc(eventAttendees.userId))
      .limit(1)
    if (!next) return admitted
    await tx
      .update(eventAttendees)
      .set({ status: 'registered' })
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.userId, next.userId)))
    await tx
      .update(events)
      .set({ registeredCount: sql`${events.registeredCount} + 1` })
      .where(eq(events.id, eventId))
    await notifyInTransaction(tx, {
      recipientId: next.userId,
      actorId: null,
      type: 'event_spot',
      title: 'Tienes plaza',
      message: `Se ha liberado una plaza en «${event.title}» y ya estás registrado.`,
      eventId,
    })
    await planReminders(tx, { id: eventId, eventDate: event.eventDate }, next.userId)
    admitted.push(next.userId)
  }
}

/**
 * The 24 h and 1 h reminders of one registration, as jobs keyed by event, member, kind and date:
 * registering again, or a second process, cannot queue a second e-mail for the same moment.
 */
async function planReminders(tx: DbExecutor, event: { id: string; eventDate: Date }, userId: string) {
  for (const reminder of REMINDERS) {
    const runAt = new Date(event.eventDate.getTime() - reminder.beforeMs)
    if (runAt.getTime() <= Date.now()) continue
    await enqueue(
      reminderJob,
      { eventId: event.id, userId, kind: reminder.kind, eventDate: event.eventDate.toISOString() },
      { runAt, dedupeKey: `event-reminder:${event.id}:${userId}:${reminder.kind}:${event.eventDate.toISOString()}`, executor: tx },
    )
  }
}

/** 'Eventos Este Mes' (spec 001 §7: events in the current month by event_date), in Madrid's month. */
export async function countEventsBetween(from: Date, to: Date) {
  const [row] = await getDb()
    .select({ n: count() })
    .from(events)
    .where(and(gte(events.eventDate, from), lt(events.eventDate, to)))
  return row?.n ?? 0
}

/** For the e-mail digest: events announced since `since` that are still to come, soonest first. */
export async function listAnnouncedSince(since: Date, now: Date, limit: number) {
  return getDb()
    .select({
      id: events.id,
      title: events.title,
      eventDate: events.eventDate,
      timeZone: events.timeZone,
      eventType: events.eventType,
      createdBy: events.createdBy,
    })
    .from(events)
    .where(and(gte(events.createdAt, since), gte(events.eventDate, now)))
    .orderBy(asc(events.eventDate))
    .limit(limit)
}
