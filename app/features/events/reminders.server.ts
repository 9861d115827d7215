import { and, eq } from 'drizzle-orm'
import { profiles, recipientColumns } from '~/features/account/schema'
import { user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob } from '~/platform/jobs/jobs.server'
import { renderMail } from '~/platform/mail/mail.server'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { emailUnsubscribe } from '~/features/notifications/unsubscribe.server'
import { EventReminderEmail } from './emails/reminder'
import { eventTimeInZone } from './format'
import { eventAttendees, events } from './schema'

/** Issue 13: a reminder a day before and an hour before. */
export const REMINDERS = [
  { kind: '24h', beforeMs: 24 * 60 * 60 * 1000, subject: 'Mañana' },
  { kind: '1h', beforeMs: 60 * 60 * 1000, subject: 'En una hora' },
] as const

type ReminderKind = (typeof REMINDERS)[number]['kind']

/**
 * One reminder of one registration. It checks again when it runs: a member who cancelled, or an
 * event moved to another date (whose new reminders were queued with the move), gets nothing from
 * this job. It goes where the member's 'Mis eventos' preference says (the notifications feature
 * decides): the bell, and its own e-mail, rendered before the transaction, unless they chose 'Solo
 * en la web'. The e-mail carries the same key as the job, so it is queued once.
 */
export const reminderJob = defineJob<{ eventId: string; userId: string; kind: ReminderKind; eventDate: string }>({
  name: 'events.reminder',
  label: 'Recordatorio de evento',
  async run({ eventId, userId, kind, eventDate }) {
    const [row] = await getDb()
      .select({
        ...recipientColumns,
        status: eventAttendees.status,
        title: events.title,
        eventDate: events.eventDate,
        timeZone: events.timeZone,
        location: events.location,
        externalLink: events.externalLink,
      })
      .from(eventAttendees)
      .innerJoin(events, eq(events.id, eventAttendees.eventId))
      .innerJoin(user, eq(user.id, eventAttendees.userId))
      .leftJoin(profiles, eq(profiles.userId, eventAttendees.userId))
      .where(and(eq(eventAttendees.eventId, eventId), eq(eventAttendees.userId, userId)))
    if (!row || row.status !== 'registered' || row.eventDate.toISOString() !== eventDate) return
    const reminder = REMINDERS.find((r) => r.kind === kind)!
    const when = eventTimeInZone(row.eventDate, row.timeZone)
    const appUrl = getEnv().APP_URL
    const { headers, footer } = emailUnsubscribe(userId, ['myEvents'])
    const email = await renderMail({
      to: row.email,
      subject: `${reminder.subject}: ${row.title}`,
      dedupeKey: `event-reminder:${eventId}:${userId}:${kind}:${eventDate}`,
      headers,
      email: EventReminderEmail({
        firstName: row.firstName,
        title: row.title,
        when,
        location: row.location,
        eventUrl: `${appUrl}/comunidad/calendario/${eventId}`,
        joinUrl: row.externalLink,
        unsubscribe: footer,
      }),
    })
    await getDb().transaction((tx) =>
      notifyInTransaction(tx, {
        recipientId: userId,
        actorId: null,
        type: 'event_reminder',
        title: 'Recordatorio',
        message: `${reminder.subject}: «${row.title}», ${when}`,
        eventId,
        email,
      }),
    )
  },
})
