import { and, eq, ne, or, sql } from 'drizzle-orm'
import { profiles, recipientColumns } from '~/features/account/schema'
import { listPublishedSince } from '~/features/ceo-sessions/library.server'
import { listAnnouncedSince } from '~/features/events/events.server'
import { eventTimeInZone } from '~/features/events/format'
import { EVENT_TYPES } from '~/features/events/limits'
import { listMostActivePosts } from '~/features/feed/posts.server'
import { user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { DEFAULT_TIME_ZONE } from '~/platform/dates'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { enqueueRenderedMail, renderMail } from '~/platform/mail/mail.server'
import { DigestEmail } from './emails/digest'
import { postLinkOf } from './grouping'
import { notificationSettings } from './schema'
import { emailUnsubscribe } from './unsubscribe.server'

/** Issue 14: at 08:00 in the member's zone; a process that was down at 08:00 still sends until 11:59. */
export const DIGEST_HOUR = 8
const LAST_HOUR = 11
const PAGE = 50
const SHOWN = 5

const hourKey = (date: Date) => date.toISOString().slice(0, 13)

/**
 * Every hour, on the hour: the members whose digest is due get it. Every process schedules the
 * hour's run and the queue keeps one; the run schedules the next hour.
 */
export const digestJob = defineJob<Record<string, never>>({
  name: 'notifications.digest',
  label: 'Resumen diario y semanal',
  timeoutSeconds: 15 * 60,
  async run() {
    const sent = await sendDueDigests(new Date())
    if (sent > 0) logger.info({ sent }, 'Digests queued')
    await scheduleDigests(new Date(Math.floor(Date.now() / 3_600_000 + 1) * 3_600_000 + 30_000))
  },
})

export async function scheduleDigests(at = new Date()) {
  await enqueue(digestJob, {}, { runAt: at, dedupeKey: hourKey(at) })
}

/**
 * Queues the digest of every member for whom it is `now` between 08:00 and 11:59 on the period's
 * first day (any day for daily, Monday for weekly) and whose period is not settled yet. Each member's
 * period is settled by a conditional UPDATE in the same transaction as their e-mail: of two
 * processes running this at once, one settles it and the other's UPDATE then matches nothing. A
 * member with nothing new gets no e-mail, but the period is settled all the same. Returns how many
 * e-mails were queued.
 */
export async function sendDueDigests(now: Date) {
  const local = sql`(${now.toISOString()}::timestamptz at time zone coalesce(${notificationSettings.timeZone}, ${DEFAULT_TIME_ZONE}))`
  const period = sql<string>`case when ${notificationSettings.digest} = 'daily' then to_char(${local}, 'YYYY-MM-DD') else to_char(${local}, 'IYYY-"W"IW') end`
  const contents = new Map<string, Promise<DigestContent>>()
  let queued = 0
  for (;;) {
    const due = await getDb()
      .select({
        userId: notificationSettings.userId,
        period,
        digest: notificationSettings.digest,
        digestSentAt: notificationSettings.digestSentAt,
        timeZone: notificationSettings.timeZone,
        ...recipientColumns,
      })
      .from(notificationSettings)
      .innerJoin(profiles, eq(profiles.userId, notificationSettings.userId))
      .innerJoin(user, eq(user.id, notificationSettings.userId))
      .where(
        and(
          ne(notificationSettings.digest, 'never'),
          eq(profiles.emailNotifications, true),
          sql`extract(hour from ${local}) between ${DIGEST_HOUR} and ${LAST_HOUR}`,
          or(eq(notificationSettings.digest, 'daily'), sql`extract(isodow from ${local}) = 1`),
          sql`${notificationSettings.digestPeriod} is distinct from ${period}`,
        ),
      )
      .limit(PAGE)
    for (const member of due) {
      const periodDays = member.digest === 'daily' ? 1 : 7
      const since = member.digestSentAt ?? new Date(now.getTime() - periodDays * 24 * 60 * 60 * 1000)
      // Members settled at the same hour share one reading of what is new.
      const key = hourKey(since)
      if (!contents.has(key)) contents.set(key, readContent(new Date(`${key}:00:00Z`), now))
      const content = personal(await contents.get(key)!, member.userId)
      const empty = content.posts.length + content.sessions.length + content.events.length === 0
      // Rendered before the transaction: PGlite would run nothing else meanwhile.
      const mail = empty ? null : await renderMail(digestMail(member, content))
      const sent = await getDb().transaction(async (tx) => {
        // The claim: whoever settles the period first sends; another process finds it settled.
        const [claimed] = await tx
          .update(notificationSettings)
          .set({ digestPeriod: member.period, digestSentAt: now })
          .where(
            and(
              eq(notificationSettings.userId, member.userId),
              sql`${notificationSettings.digestPeriod} is distinct from ${member.period}`,
            ),
          )
          .returning({ userId: notificationSettings.userId })
        return claimed && mail ? enqueueRenderedMail(mail, tx) : false
      })
      if (sent) queued++
    }
    if (due.length < PAGE) return queued
  }
}

type DigestContent = Awaited<ReturnType<typeof readContent>>

async function readContent(since: Date, now: Date) {
  // One more than shown, so a member's own item can be left out.
  const [posts, sessions, events] = await Promise.all([
    listMostActivePosts(since, SHOWN + 1),
    listPublishedSince(since, SHOWN + 1),
    listAnnouncedSince(since, now, SHOWN + 1),
  ])
  return { posts, sessions, events }
}

/** Never about one's own doings: a member's own posts, sessions and events are not news to them. */
function personal(content: DigestContent, userId: string) {
  return {
    posts: content.posts.filter((post) => post.authorId !== userId).slice(0, SHOWN),
    sessions: content.sessions.filter((session) => session.createdBy !== userId).slice(0, SHOWN),
    events: content.events.filter((event) => event.createdBy !== userId).slice(0, SHOWN),
  }
}

function digestMail(
  member: {
    userId: string
    digest: 'daily' | 'weekly' | 'never'
    email: string
    firstName: string | null
    timeZone: string | null
    period: string
  },
  content: ReturnType<typeof personal>,
) {
  const appUrl = getEnv().APP_URL
  const { headers, footer } = emailUnsubscribe(member.userId, ['digest'])
  const daily = member.digest === 'daily'
  return {
    to: member.email,
    subject: daily ? 'Tu resumen diario de la comunidad' : 'Tu resumen semanal de la comunidad',
    dedupeKey: `digest:${member.userId}:${member.period}`,
    headers,
    email: DigestEmail({
      firstName: member.firstName,
      daily,
      posts: content.posts.map((post) => ({ title: post.title, comments: post.comments, url: `${appUrl}${postLinkOf(post.id)}` })),
      sessions: content.sessions.map((session) => ({
        title: session.title,
        ceo: `${session.ceoName} · ${session.ceoCompany}`,
        url: `${appUrl}/video/${session.id}`,
      })),
      events: content.events.map((event) => ({
        title: event.title,
        when: eventTimeInZone(event.eventDate, event.timeZone),
        type: EVENT_TYPES[event.eventType],
        url: `${appUrl}/comunidad/calendario/${event.id}`,
      })),
      communityUrl: `${appUrl}/comunidad`,
      unsubscribe: footer,
    }),
  }
}
