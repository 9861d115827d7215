import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { notifications } from '~/features/notifications/schema'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { createEvent, getEvent, toggleRegistration, updateEvent } from './events.server'
import type { EventFields } from './types'
import { EVENT_MESSAGES } from './limits'
import { eventAttendees, events } from './schema'

useTestDatabase()

const HOUR = 60 * 60 * 1000
let admin: Awaited<ReturnType<typeof createPersona>>

beforeAll(async () => {
  admin = await createPersona('admin')
})

function fields(overrides: Partial<EventFields> = {}): EventFields {
  return {
    title: 'Cena de directivos',
    description: 'Networking con CEOs del sector',
    content: null,
    eventDate: new Date(Date.now() + 10 * 24 * HOUR),
    timeZone: 'Europe/Madrid',
    durationMinutes: 120,
    location: 'Madrid',
    eventType: 'presencial',
    maxAttendees: null,
    externalLink: null,
    ...overrides,
  }
}

async function members(n: number) {
  const created = []
  for (let i = 0; i < n; i++) created.push(await createPersona('premium', { firstName: `Miembro${i}`, lastName: 'Prueba' }))
  return created.map((person) => person.userId!)
}

describe('registration with capacity', () => {
  concurrencyTest('fifty members registering at once for ten places: ten registered, forty queued in order, never more', async () => {
    const eventId = await createEvent(fields({ maxAttendees: 10 }), admin.userId!)
    const people = await members(50)
    const outcomes = await Promise.all(people.map((userId) => toggleRegistration(eventId, userId)))
    expect(outcomes.filter((outcome) => outcome.kind === 'registered')).toHaveLength(10)
    expect(outcomes.filter((outcome) => outcome.kind === 'waitlisted')).toHaveLength(40)
    const [row] = await getDb().select({ registeredCount: events.registeredCount }).from(events).where(eq(events.id, eventId))
    expect(row!.registeredCount).toBe(10)
    const [counted] = await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(eventAttendees)
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'registered')))
    expect(counted!.n).toBe(10)

    // A registered member cancels: the first in the queue takes the place and hears of it.
    const registered = people.filter((_, i) => outcomes[i]!.kind === 'registered')
    const queued = (
      await getDb()
        .select({ userId: eventAttendees.userId })
        .from(eventAttendees)
        .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.status, 'waitlisted')))
        .orderBy(eventAttendees.registeredAt, eventAttendees.userId)
    ).map((row) => row.userId)
    const cancelled = await toggleRegistration(eventId, registered[0]!)
    expect(cancelled).toEqual({ kind: 'cancelled', admitted: queued[0] })
    const view = await getEvent(eventId, queued[0]!)
    expect(view).toMatchObject({ myStatus: 'registered', registeredCount: 10, waitlistCount: 39 })
    expect((await getEvent(eventId, queued[1]!))!.myWaitlistPosition).toBe(1)
    const [told] = await getDb()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, queued[0]!), eq(notifications.relatedEventId, eventId)))
    expect(told).toMatchObject({ type: 'event_spot', title: 'Tienes plaza', actorUserId: null })

    // Two more places: the next two in the queue are in, in order.
    await updateEvent(eventId, fields({ maxAttendees: 12, eventDate: (await getEvent(eventId, admin.userId!))!.eventDate }))
    expect((await getEvent(eventId, queued[1]!))!.myStatus).toBe('registered')
    expect((await getEvent(eventId, queued[2]!))!.myStatus).toBe('registered')
    expect((await getEvent(eventId, queued[3]!))!.myWaitlistPosition).toBe(1)
  })

  test('an event without a limit takes everyone; a past event takes no one', async () => {
    const open = await createEvent(fields(), admin.userId!)
    const [userId] = await members(1)
    expect(await toggleRegistration(open, userId!)).toEqual({ kind: 'registered' })
    expect(await toggleRegistration(open, userId!)).toEqual({ kind: 'cancelled', admitted: null })
    const past = await createEvent(fields({ eventDate: new Date(Date.now() - HOUR) }), admin.userId!)
    expect(await toggleRegistration(past, userId!)).toEqual({ kind: 'past' })
    expect(await toggleRegistration(crypto.randomUUID(), userId!)).toEqual({ kind: 'not-found' })
  })
})

describe('an event deleted while it was being edited', () => {
  test('is refused (404) inside the edit, not answered as updated', async () => {
    const eventId = await createEvent(fields(), admin.userId!)
    await getDb().delete(events).where(eq(events.id, eventId))
    const refused = await updateEvent(eventId, fields({ title: 'Cena movida' })).then(
      () => null,
      (thrown: unknown) => thrown,
    )
    expect(refused).toBeInstanceOf(Response)
    expect((refused as Response).status).toBe(404)
    expect(((await (refused as Response).json()) as { message: { title: string } }).message.title).toBe(EVENT_MESSAGES.updateFailed)
  })
})

describe('reminders', () => {
  /** The queue's clock moved forward: every reminder job becomes due `ms` sooner. */
  async function advance(ms: number) {
    await getDb()
      .update(jobs)
      .set({ runAt: sql`${jobs.runAt} - make_interval(secs => ${ms / 1000}::double precision)` })
      .where(and(eq(jobs.status, 'queued'), sql`${jobs.name} in ('events.reminder', 'mail.send')`))
  }
  const mailsTo = async (subjectStart: string) =>
    (await getDb().select({ payload: jobs.payload }).from(jobs).where(eq(jobs.name, 'mail.send'))).filter((row) =>
      (row.payload as { subject: string }).subject.startsWith(subjectStart),
    )

  test('each registered member gets the 24 h and the 1 h reminder exactly once; one who cancelled gets none', async () => {
    const eventId = await createEvent(
      fields({ title: 'Desayuno de consejeras', eventDate: new Date(Date.now() + 25 * HOUR) }),
      admin.userId!,
    )
    const [stays, leaves] = await members(2)
    await toggleRegistration(eventId, stays!)
    await toggleRegistration(eventId, leaves!)
    // Cancelling and registering again does not queue a second reminder for the same moment.
    await toggleRegistration(eventId, stays!)
    await toggleRegistration(eventId, stays!)
    await toggleRegistration(eventId, leaves!)

    await advance(HOUR + 60_000)
    // Two workers at once, as two app processes would.
    await Promise.all([runDueJobs({ names: ['events.reminder'] }), runDueJobs({ names: ['events.reminder'] })])
    expect(await mailsTo('Mañana: Desayuno de consejeras')).toHaveLength(1)
    await runDueJobs({ names: ['events.reminder'] })
    expect(await mailsTo('Mañana: Desayuno de consejeras')).toHaveLength(1)
    expect(await mailsTo('En una hora: Desayuno de consejeras')).toHaveLength(0)

    await advance(23 * HOUR)
    await Promise.all([runDueJobs({ names: ['events.reminder'] }), runDueJobs({ names: ['events.reminder'] })])
    const lastHour = await mailsTo('En una hora: Desayuno de consejeras')
    expect(lastHour).toHaveLength(1)
    expect(await mailsTo('Mañana: Desayuno de consejeras')).toHaveLength(1)
    const sent = lastHour[0]!.payload as { to: string; text: string }
    expect(sent.text).toContain(`/comunidad/calendario/${eventId}`)
  })

  test('a moved event reminds at its new time, not the old one', async () => {
    const eventId = await createEvent(fields({ title: 'Mesa redonda movida', eventDate: new Date(Date.now() + 30 * HOUR) }), admin.userId!)
    const [userId] = await members(1)
    await toggleRegistration(eventId, userId!)
    await updateEvent(eventId, fields({ title: 'Mesa redonda movida', eventDate: new Date(Date.now() + 50 * HOUR) }))
    await advance(6 * HOUR + 60_000)
    await runDueJobs({ names: ['events.reminder'] })
    expect(await mailsTo('Mañana: Mesa redonda movida')).toHaveLength(0)
    await advance(20 * HOUR)
    await runDueJobs({ names: ['events.reminder'] })
    expect(await mailsTo('Mañana: Mesa redonda movida')).toHaveLength(1)
  })
})
