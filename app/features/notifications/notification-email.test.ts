import { and, eq, inArray, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import { profiles } from '~/features/account/schema'
import { publishVideo } from '~/features/ceo-sessions/video-state.server'
import * as calendarRoute from '~/features/events/calendar.route'
import { toggleRegistration } from '~/features/events/events.server'
import { reminderJob } from '~/features/events/reminders.server'
import { fromWallTime, fullDateTime, toWallTime } from '~/platform/dates'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { announceEvent } from '../../../tests/setup/events'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { newSession } from '../../../tests/setup/sessions'
import { BASE_URL, formRequest, getRequest, type QueuedMail, readToast, run } from '../../../tests/setup/requests'
import { sendActivityEmail } from './activity-email.server'
import { scheduleDigests, sendDueDigests } from './digest.server'
import { type Channel, TOPICS, type Topic, topicsFor } from './preferences'

/**
 * What members set (an admin's own topic, new applications, is tested with admission). 'Mensajes
 * privados' has no notification: its e-mail is the messages feature's (messages.test.ts).
 */
type MemberTopic = Exclude<Topic, 'admissions' | 'reports' | 'messages'>
const MEMBER_TOPICS = topicsFor({ roles: [] }).filter((topic) => topic.key !== 'messages') as Array<{ key: MemberTopic }>
import { getPreferences, savePreferences } from './preferences.server'
import { notifications, notificationSettings } from './schema'
import * as unsubscribeRoute from './unsubscribe.route'
import { readUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribeUrl } from './unsubscribe.server'

useTestDatabase()

type Person = Awaited<ReturnType<typeof createPersona>>
const DAY = 24 * 60 * 60 * 1000

/** Every e-mail queued for `to`, oldest first. */
async function mailsTo(to: string) {
  const rows = await getDb()
    .select({ payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.name, 'mail.send'), sql`${jobs.payload}->>'to' = ${to}`))
    .orderBy(jobs.id)
  return rows.map((row) => row.payload as QueuedMail)
}

/** The fake clock of the batch: the window has passed for every activity e-mail waiting. */
async function afterBatchWindow() {
  await getDb()
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(and(eq(jobs.name, 'notifications.activity-email'), eq(jobs.status, 'queued')))
  await getDb()
    .update(notifications)
    .set({ createdAt: sql`${notifications.createdAt} - interval '11 minutes'` })
    .where(eq(notifications.emailPending, true))
  while ((await runDueJobs({ names: ['notifications.activity-email'] })) > 0);
}

async function setAll(person: Person, channel: Channel, extra: Partial<Awaited<ReturnType<typeof getPreferences>>> = {}) {
  const topics = Object.fromEntries(TOPICS.map((topic) => [topic.key, channel])) as Record<Topic, Channel>
  await savePreferences(person.userId!, { ...topics, digest: 'never', timeZone: null, ...extra })
}

/** The lists a notification e-mail's one-click header stops. */
function listsOf(mail: QueuedMail) {
  const header = mail.headers!['List-Unsubscribe']!
  const token = readUnsubscribeToken(header.slice(header.lastIndexOf('/') + 1, -1))
  return token.status === 'valid' ? token.lists : []
}

const bell = (userId: string) =>
  getDb()
    .select({ type: notifications.type, emailPending: notifications.emailPending, isRead: notifications.isRead })
    .from(notifications)
    .where(eq(notifications.userId, userId))

/** An event `admin` announces, in Madrid's time. */
const announce = (title: string, eventDate: Date) => announceEvent(title, eventDate, admin.userId!)

const calendarAction = (fields: Record<string, string>, cookie?: string) =>
  run(() => calendarRoute.action({ request: formRequest('/comunidad/calendario', fields, { cookie }), params: {}, context: {} } as never))

async function publishSession(adminId: string) {
  const { sessionId } = await newSession(adminId)
  await publishVideo(sessionId, { videoKey: `sessions/${sessionId}/video.webm`, videoContentType: 'video/webm' })
  return sessionId
}

let admin: Person
let actor: Person

beforeAll(async () => {
  admin = await createPersona('admin', { firstName: 'Admin', lastName: 'Eventos' })
  actor = await createPersona('premium', { firstName: 'Bruno', lastName: 'Díaz' })
})

describe('preference matrix: each topic × each setting', () => {
  const CHANNELS: Channel[] = ['email', 'web', 'off']
  // Recipient i sets topic t to CHANNELS[(i + t) % 3]: each topic takes each setting, and a topic
  // read from its neighbour's column shows. Topics three apart would still agree for every one of
  // them, so a fourth recipient shifts the last three by one more.
  const channelOf = (i: number, t: number) => CHANNELS[(i + t + (i === 3 && t >= 3 ? 1 : 0)) % 3]!

  test('every topic in each setting, each from its own column, and e-mail switched off as a whole', async () => {
    const rotated: Person[] = []
    for (let i = 0; i < 4; i++) {
      const person = await createPersona('premium', { firstName: `Rota${i}`, lastName: 'Canales' })
      const topics = Object.fromEntries(MEMBER_TOPICS.map((topic, t) => [topic.key, channelOf(i, t)])) as Record<Topic, Channel>
      await savePreferences(person.userId!, { ...topics, digest: 'never', timeZone: null })
      rotated.push(person)
    }
    const paused = await createPersona('premium', { firstName: 'Pablo', lastName: 'Pausa' })
    await setAll(paused, 'email')
    await getDb().update(profiles).set({ emailNotifications: false }).where(eq(profiles.userId, paused.userId!))
    const recipients = [...rotated, paused]

    // Each topic, through the feature that causes it, for every recipient.
    const eventId = await announce('Cena de directivos', new Date(Date.now() + 2 * DAY))
    for (const person of recipients) {
      const postId = await createPost(person.cookie!, { title: `Post de ${person.email}` })
      await feedAction({ intent: 'add-comment', postId, content: 'Mi propio comentario' }, person.cookie)
      const [own] = await getDb()
        .select({ id: sql<string>`id` })
        .from(sql`community_comments`)
        .where(sql`post_id = ${postId}`)
      await feedAction({ intent: 'add-comment', postId, content: 'Un comentario de Bruno' }, actor.cookie) // comments
      await feedAction({ intent: 'add-comment', postId, parentCommentId: own!.id, content: 'Una respuesta' }, actor.cookie) // replies
      await feedAction({ intent: 'like-post', postId }, actor.cookie) // likes
      expect((await toggleRegistration(eventId, person.userId!)).kind).toBe('registered')
    }
    await publishSession(admin.userId!) // sessions
    const created = await calendarAction(
      {
        intent: 'create-event',
        title: 'Webinar de regulación',
        description: 'Novedades EMA',
        eventDate: '2027-01-20T19:00',
        timeZone: 'Europe/Madrid',
        eventType: 'virtual',
      },
      admin.cookie,
    ) // events
    expect(created.status).toBe(200)
    // myEvents: the 24 h reminder.
    const [event] = await getDb()
      .select({ eventDate: sql<Date>`event_date` })
      .from(sql`events`)
      .where(sql`id = ${eventId}`)
    for (const person of recipients)
      await reminderJob.run(
        { eventId, userId: person.userId!, kind: '24h', eventDate: new Date(event!.eventDate).toISOString() },
        { attempts: 1, jobId: 0 },
      )

    await afterBatchWindow()

    const typeOfTopic: Record<MemberTopic, string> = {
      comments: 'comment',
      replies: 'comment_reply',
      likes: 'like',
      sessions: 'new_session',
      events: 'new_event',
      myEvents: 'event_reminder',
    }
    // What each topic's item looks like in the activity e-mail (or the reminder's own e-mail).
    const inMail: Record<MemberTopic, (mails: QueuedMail[]) => boolean> = {
      comments: (mails) => mails.some((mail) => mail.text.includes('ha comentado en tu post')),
      replies: (mails) => mails.some((mail) => mail.text.includes('ha respondido a tu comentario')),
      likes: (mails) => mails.some((mail) => /Nuevo like/i.test(mail.text)),
      sessions: (mails) => mails.some((mail) => mail.text.includes('Ya puedes ver «Liderar una biotech en crecimiento»')),
      events: (mails) => mails.some((mail) => mail.text.includes('«Webinar de regulación»')),
      myEvents: (mails) => mails.some((mail) => mail.subject === 'Mañana: Cena de directivos'),
    }
    for (const [i, person] of recipients.entries()) {
      const rows = await bell(person.userId!)
      const mails = await mailsTo(person.email!)
      const channels = MEMBER_TOPICS.map((topic, t) => (person === paused ? 'email' : channelOf(i, t)))
      for (const [t, topic] of MEMBER_TOPICS.entries()) {
        const label = `${person.email} × ${topic.key} (${channels[t]})`
        expect(
          rows.some((row) => row.type === typeOfTopic[topic.key]),
          `${label}: bell`,
        ).toBe(channels[t] !== 'off')
        expect(inMail[topic.key](mails), `${label}: e-mail`).toBe(channels[t] === 'email' && person !== paused)
      }
      // Nothing is left waiting once the batch has gone.
      expect(rows.filter((row) => row.emailPending)).toEqual([])
      // The burst's topics wanted by e-mail in one e-mail, whose header stops each; the reminder apart.
      const batched = MEMBER_TOPICS.map((topic) => topic.key).filter(
        (key, t) => key !== 'myEvents' && channels[t] === 'email' && person !== paused,
      )
      const batches = mails.filter((mail) => mail.headers?.['List-Unsubscribe'] && !mail.subject.startsWith('Mañana'))
      expect(batches.map((mail) => listsOf(mail).sort())).toEqual(batched.length > 0 ? [batched.sort()] : [])
    }
  })
})

describe('never about my own actions', () => {
  test('my comment and reply on my own post, my like, the event and the session I create reach neither my bell nor my e-mail (only the word that my session is published)', async () => {
    const me = await createPersona('admin', { firstName: 'Olga', lastName: 'Propia' })
    await setAll(me, 'email')
    const postId = await createPost(me.cookie!, { title: 'Mi post' })
    await feedAction({ intent: 'add-comment', postId, content: 'Comento lo mío' }, me.cookie)
    const [own] = await getDb()
      .select({ id: sql<string>`id` })
      .from(sql`community_comments`)
      .where(sql`post_id = ${postId}`)
    await feedAction({ intent: 'add-comment', postId, parentCommentId: own!.id, content: 'Me respondo' }, me.cookie)
    await feedAction({ intent: 'like-post', postId }, me.cookie)
    await feedAction({ intent: 'like-comment', commentId: own!.id }, me.cookie)
    const created = await calendarAction(
      {
        intent: 'create-event',
        title: 'Mi evento',
        description: 'Lo organizo yo',
        eventDate: '2027-02-01T19:00',
        timeZone: 'Europe/Madrid',
        eventType: 'virtual',
      },
      me.cookie,
    )
    expect(created.status).toBe(200)
    await publishSession(me.userId!)
    await afterBatchWindow()
    // 'Sesión creada' promised it: not an echo of my own action, but the processing's outcome.
    expect(await bell(me.userId!)).toEqual([{ type: 'session_published', emailPending: false, isRead: false }])
    // Notification e-mails all carry List-Unsubscribe (the account's own e-mails do not).
    expect((await mailsTo(me.email!)).filter((mail) => mail.headers?.['List-Unsubscribe'])).toEqual([])
  })
})

describe('batching', () => {
  test('twenty comments within ten minutes make one e-mail; it waits for the window; the next burst makes another', async () => {
    const author = await createPersona('premium', { firstName: 'Clara', lastName: 'Autora' })
    const postId = await createPost(author.cookie!, { title: 'Estrategia de acceso al mercado' })
    const commenters: Person[] = []
    for (let i = 0; i < 4; i++) commenters.push(await createPersona('premium', { firstName: `Comentarista${i}`, lastName: 'X' }))
    for (let i = 0; i < 20; i++) await feedAction({ intent: 'add-comment', postId, content: `Comentario ${i}` }, commenters[i % 4]!.cookie)

    // Within the window nothing is sent, and only one job waits for the whole burst.
    expect(await runDueJobs({ names: ['notifications.activity-email'] })).toBe(0)
    const waiting = await getDb()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.name, 'notifications.activity-email'), sql`${jobs.payload}->>'userId' = ${author.userId}`))
    expect(waiting).toHaveLength(1)

    await afterBatchWindow()
    let mails = (await mailsTo(author.email!)).filter((mail) => mail.subject.startsWith('Nuevo comentario'))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe('Nuevo comentario: Comentarista3 X, Comentarista2 X y 2 más comentaron tu publicación')
    // The link goes to the exact comment (the newest).
    const [newest] = await getDb()
      .select({ id: sql<string>`id` })
      .from(sql`community_comments`)
      .where(sql`post_id = ${postId} and content = 'Comentario 19'`)
    expect(mails[0]!.text).toContain(`${BASE_URL}/comunidad?comentarios=${postId}#comment-${newest!.id}`)

    // A comment after the e-mail went starts a new burst.
    await feedAction({ intent: 'add-comment', postId, content: 'Uno más' }, commenters[0]!.cookie)
    await afterBatchWindow()
    mails = (await mailsTo(author.email!)).filter((mail) => mail.subject.startsWith('Nuevo comentario'))
    expect(mails).toHaveLength(2)
    expect(mails[1]!.subject).toBe('Nuevo comentario: Comentarista0 X ha comentado en tu post «Estrategia de acceso al mercado»')
  })

  test('a notification already read on the site is not e-mailed; nothing read, nothing sent', async () => {
    const author = await createPersona('premium', { firstName: 'Lidia', lastName: 'Leída' })
    const postId = await createPost(author.cookie!, { title: 'Leído en la web' })
    await feedAction({ intent: 'add-comment', postId, content: 'Hola' }, actor.cookie)
    await getDb().update(notifications).set({ isRead: true }).where(eq(notifications.userId, author.userId!))
    await afterBatchWindow()
    expect((await mailsTo(author.email!)).filter((mail) => mail.subject.startsWith('Nuevo comentario'))).toEqual([])
    expect((await bell(author.userId!)).filter((row) => row.emailPending)).toEqual([])
  })

  test('a topic switched to "Solo en la web" before the batch goes is left out of it', async () => {
    const author = await createPersona('premium', { firstName: 'Marta', lastName: 'Cambia' })
    const postId = await createPost(author.cookie!, { title: 'Cambio de opinión' })
    await feedAction({ intent: 'add-comment', postId, content: 'Hola' }, actor.cookie)
    await savePreferences(author.userId!, { ...(await getPreferences(author.userId!)), comments: 'web' })
    await afterBatchWindow()
    expect((await mailsTo(author.email!)).filter((mail) => mail.subject.startsWith('Nuevo comentario'))).toEqual([])
  })

  concurrencyTest('two workers sending one member’s batch at once queue one e-mail', async () => {
    const author = await createPersona('premium', { firstName: 'Dora', lastName: 'Doble' })
    const postId = await createPost(author.cookie!, { title: 'Dos a la vez' })
    await feedAction({ intent: 'add-comment', postId, content: 'Hola' }, actor.cookie)
    const sent = await Promise.all([sendActivityEmail(author.userId!), sendActivityEmail(author.userId!)])
    expect(sent.filter(Boolean)).toHaveLength(1)
    expect((await mailsTo(author.email!)).filter((mail) => mail.subject.startsWith('Nuevo comentario'))).toHaveLength(1)
  })
})

concurrencyTest('comments arriving while batches are being sent: each is e-mailed exactly once, none left waiting', async () => {
  const author = await createPersona('premium', { firstName: 'Carla', lastName: 'Carrera' })
  const posts: Array<{ id: string; title: string }> = []
  for (let i = 0; i < 8; i++)
    posts.push({ id: await createPost(author.cookie!, { title: `Tema concurrente ${i}` }), title: `Tema concurrente ${i}` })
  // Comments (each on its own post, so each is its own line in an e-mail) and three senders, all at once.
  await Promise.all([
    ...posts.map((post) => feedAction({ intent: 'add-comment', postId: post.id, content: 'A la vez' }, actor.cookie)),
    sendActivityEmail(author.userId!),
    sendActivityEmail(author.userId!),
    sendActivityEmail(author.userId!),
  ])
  await afterBatchWindow()
  const mails = (await mailsTo(author.email!)).filter((mail) => mail.headers?.['List-Unsubscribe'])
  for (const post of posts) {
    const mentions = mails.filter((mail) => mail.text.includes(`«${post.title}»`))
    expect(mentions, post.title).toHaveLength(1)
  }
  expect((await bell(author.userId!)).filter((row) => row.emailPending)).toEqual([])
})

describe('the activity e-mail, rendered with no transaction open', () => {
  /** Runs `meanwhile` once the sender has read and rendered its batch, just before it claims it. */
  async function whileRendered<T>(meanwhile: () => Promise<unknown>, send: () => Promise<T>) {
    const db = getDb()
    const transaction = db.transaction.bind(db)
    let due = true
    const spy = vi.spyOn(db, 'transaction').mockImplementation(async (...args) => {
      if (due) {
        due = false
        await meanwhile()
      }
      return transaction(...args)
    })
    try {
      return await send()
    } finally {
      spy.mockRestore()
    }
  }
  const batchesTo = async (person: Person) => (await mailsTo(person.email!)).filter((mail) => mail.headers?.['List-Unsubscribe'])

  test('a comment that comes while its job renders the batch is in the next e-mail: once, not lost', async () => {
    const author = await createPersona('premium', { firstName: 'Rosa', lastName: 'Rezagada' })
    const first = await createPost(author.cookie!, { title: 'Primero en el lote' })
    const second = await createPost(author.cookie!, { title: 'Llegó mientras tanto' })
    await feedAction({ intent: 'add-comment', postId: first, content: 'Hola' }, actor.cookie)
    await whileRendered(() => feedAction({ intent: 'add-comment', postId: second, content: 'Yo también' }, actor.cookie), afterBatchWindow)
    expect((await batchesTo(author)).map((mail) => mail.subject)).toEqual([
      'Nuevo comentario: Bruno Díaz ha comentado en tu post «Primero en el lote»',
    ])
    // The late one waits for a job of its own.
    expect((await bell(author.userId!)).filter((row) => row.emailPending)).toHaveLength(1)
    await afterBatchWindow()
    expect((await batchesTo(author)).map((mail) => mail.subject)).toEqual([
      'Nuevo comentario: Bruno Díaz ha comentado en tu post «Primero en el lote»',
      'Nuevo comentario: Bruno Díaz ha comentado en tu post «Llegó mientras tanto»',
    ])
    expect((await bell(author.userId!)).filter((row) => row.emailPending)).toEqual([])
  })

  test('a notification read, or a topic switched to "Solo en la web", while the batch renders is left out of it', async () => {
    const author = await createPersona('premium', { firstName: 'Lola', lastName: 'Lectora' })
    const read = await createPost(author.cookie!, { title: 'Leído a tiempo' })
    const kept = await createPost(author.cookie!, { title: 'Sigue sin leer' })
    await feedAction({ intent: 'add-comment', postId: read, content: 'Hola' }, actor.cookie)
    await feedAction({ intent: 'add-comment', postId: kept, content: 'Hola' }, actor.cookie)
    const markRead = () =>
      getDb()
        .update(notifications)
        .set({ isRead: true })
        .where(and(eq(notifications.userId, author.userId!), eq(notifications.relatedPostId, read)))
    expect(await whileRendered(markRead, () => sendActivityEmail(author.userId!))).toBe(true)
    expect((await batchesTo(author)).map((mail) => mail.subject)).toEqual([
      'Nuevo comentario: Bruno Díaz ha comentado en tu post «Sigue sin leer»',
    ])

    const switched = await createPersona('premium', { firstName: 'Teo', lastName: 'Cambia' })
    await feedAction(
      { intent: 'add-comment', postId: await createPost(switched.cookie!, { title: 'Ya no' }), content: 'Hola' },
      actor.cookie,
    )
    const webOnly = async () => savePreferences(switched.userId!, { ...(await getPreferences(switched.userId!)), comments: 'web' })
    expect(await whileRendered(webOnly, () => sendActivityEmail(switched.userId!))).toBe(false)
    expect(await batchesTo(switched)).toEqual([])
    expect((await bell(switched.userId!)).filter((row) => row.emailPending)).toEqual([])
  })

  test('another sender that claims the batch while this one renders it: one e-mail', async () => {
    const author = await createPersona('premium', { firstName: 'Gema', lastName: 'Gemela' })
    await feedAction(
      { intent: 'add-comment', postId: await createPost(author.cookie!, { title: 'Dos envíos' }), content: 'Hola' },
      actor.cookie,
    )
    let other: boolean | undefined
    const sent = await whileRendered(
      async () => (other = await sendActivityEmail(author.userId!)),
      () => sendActivityEmail(author.userId!),
    )
    expect([other, sent]).toEqual([true, false])
    expect(await batchesTo(author)).toHaveLength(1)
  })
})

test('a reminder run by its job from the queue tells the event’s time in its zone, by e-mail and in the bell', async () => {
  const member = await createPersona('premium', { firstName: 'Irene', lastName: 'Recordada' })
  const eventDate = new Date(Date.now() + 25 * 60 * 60 * 1000)
  const eventId = await announce('Comida de consejeras', eventDate)
  expect((await toggleRegistration(eventId, member.userId!)).kind).toBe('registered')
  // The 24 h reminder's moment has come.
  await getDb()
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(and(eq(jobs.name, reminderJob.name), sql`${jobs.payload}->>'eventId' = ${eventId} and ${jobs.payload}->>'kind' = '24h'`))
  expect(await runDueJobs({ names: [reminderJob.name] })).toBe(1)
  const when = `${fullDateTime(eventDate, 'Europe/Madrid')} (hora de Madrid)`
  const [mail] = (await mailsTo(member.email!)).filter((item) => item.subject === 'Mañana: Comida de consejeras')
  expect(mail!.text).toContain(`Cuándo: ${when}`)
  const reminders = await getDb()
    .select({ message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.userId, member.userId!), eq(notifications.type, 'event_reminder')))
  expect(reminders).toEqual([{ message: `Mañana: «Comida de consejeras», ${when}` }])
})

describe('digest', () => {
  const digestsTo = async (person: Person) => (await mailsTo(person.email!)).filter((mail) => mail.subject.startsWith('Tu resumen'))
  /** The fake clock: `time` on the local date `days` after today in `zone` (content is written now, really). */
  const localAt = (zone: string, days: number, time: string) => {
    const today = toWallTime(Date.now(), zone).slice(0, 10)
    const date = new Date(Date.parse(`${today}T12:00:00Z`) + days * DAY).toISOString().slice(0, 10)
    return fromWallTime(`${date}T${time}`, zone)!
  }
  /** The next Monday (at least a day ahead) in Madrid, `weeks` later, at `time`. */
  const monday = (weeks: number, time: string) => {
    const today = new Date(`${toWallTime(Date.now(), 'Europe/Madrid').slice(0, 10)}T12:00:00Z`)
    const ahead = ((8 - today.getUTCDay()) % 7 || 7) + weeks * 7
    return localAt('Europe/Madrid', ahead, time)
  }
  /** As if the last digest had gone an hour ago: what is written now is new to them. */
  const lastDigestAnHourAgo = (people: Person[]) =>
    getDb()
      .update(notificationSettings)
      .set({ digestSentAt: new Date(Date.now() - 60 * 60 * 1000), digestPeriod: null })
      .where(
        inArray(
          notificationSettings.userId,
          people.map((person) => person.userId!),
        ),
      )

  test('weekly at 08:00 Madrid on Monday, daily at 08:00 in the member’s zone, once per period, nothing when nothing is new', async () => {
    const weekly = await createPersona('premium', { firstName: 'Sara', lastName: 'Semanal' })
    const daily = await createPersona('premium', { firstName: 'Diego', lastName: 'Diario' })
    const never = await createPersona('premium', { firstName: 'Nico', lastName: 'Nunca' })
    // Defaults: weekly, in Madrid's time.
    expect((await getPreferences(weekly.userId!)).digest).toBe('weekly')
    await savePreferences(daily.userId!, { ...(await getPreferences(daily.userId!)), digest: 'daily', timeZone: 'America/Mexico_City' })
    await savePreferences(never.userId!, { ...(await getPreferences(never.userId!)), digest: 'never' })
    await lastDigestAnHourAgo([weekly, daily, never])
    // The most commented post of the day (other tests' posts have fewer comments).
    const postId = await createPost(actor.cookie!, { title: 'Biosimilares en 2027' })
    for (let i = 0; i < 25; i++) await feedAction({ intent: 'add-comment', postId, content: `Muy interesante ${i}` }, admin.cookie)
    const ownPost = await createPost(weekly.cookie!, { title: 'El post de Sara' })
    for (let i = 0; i < 30; i++) await feedAction({ intent: 'add-comment', postId: ownPost, content: `Hola Sara ${i}` }, admin.cookie)
    const dinner = monday(0, '19:30')
    await announce('Cena del lunes', dinner)

    await sendDueDigests(monday(0, '07:59'))
    expect(await digestsTo(weekly)).toHaveLength(0)

    await sendDueDigests(monday(0, '08:00'))
    const [first] = await digestsTo(weekly)
    expect(first?.subject).toBe('Tu resumen semanal de la comunidad')
    expect(first!.text).toContain('Biosimilares en 2027')
    expect(first!.text).toContain(`${BASE_URL}/comunidad?comentarios=${postId}#post-${postId}`)
    // An event's time in its own zone, named.
    expect(first!.text).toContain(`Cena del lunes ${BASE_URL}/comunidad/calendario/`)
    expect(first!.text).toContain(`Presencial · ${fullDateTime(dinner, 'Europe/Madrid')} (hora de Madrid)`)
    // Never about one's own doings: Sara's own post, the most commented, is not news to her.
    expect(first!.text).not.toContain('El post de Sara')
    expect(first!.headers?.['List-Unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/correo\/baja\/[\w-]+\.[\w-]+>$/)
    expect(first!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(await digestsTo(never)).toHaveLength(0)

    // The same period again, hours later: nothing more.
    await sendDueDigests(monday(0, '09:30'))
    await sendDueDigests(monday(0, '11:59'))
    expect(await digestsTo(weekly)).toHaveLength(1)

    // Daily, in Mexico City: not at 07:00 there, at 08:00 there, once.
    expect(await digestsTo(daily)).toHaveLength(0)
    await sendDueDigests(localAt('America/Mexico_City', 1, '07:00'))
    expect(await digestsTo(daily)).toHaveLength(0)
    await sendDueDigests(localAt('America/Mexico_City', 1, '08:00'))
    await sendDueDigests(localAt('America/Mexico_City', 1, '08:00'))
    expect((await digestsTo(daily)).map((mail) => mail.subject)).toEqual(['Tu resumen diario de la comunidad'])
    expect((await digestsTo(daily))[0]!.text).toContain('Biosimilares en 2027')

    // A Tuesday brings no weekly digest; the next day nothing is new for the daily one: no e-mail.
    await sendDueDigests(new Date(monday(0, '08:00').getTime() + DAY))
    await sendDueDigests(localAt('America/Mexico_City', 2, '08:00'))
    expect(await digestsTo(weekly)).toHaveLength(1)
    expect(await digestsTo(daily)).toHaveLength(1)

    // The next Monday: nothing published since the last one, so no e-mail, but the week is settled.
    await sendDueDigests(monday(1, '08:00'))
    expect(await digestsTo(weekly)).toHaveLength(1)
    const [settled] = await getDb()
      .select({ period: notificationSettings.digestPeriod, sentAt: notificationSettings.digestSentAt })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, weekly.userId!))
    expect(settled!.period).toMatch(/^\d{4}-W\d{2}$/)
    expect(settled!.sentAt).toEqual(monday(1, '08:00'))
  })

  concurrencyTest('exactly once with two workers at once, and the hourly run is scheduled once by every process', async () => {
    const people: Person[] = []
    for (let i = 0; i < 6; i++) people.push(await createPersona('premium', { firstName: `Doble${i}`, lastName: 'Resumen' }))
    await lastDigestAnHourAgo(people)
    const postId = await createPost(actor.cookie!, { title: 'Novedad para el resumen doble' })
    for (let i = 0; i < 40; i++) await feedAction({ intent: 'add-comment', postId, content: `Comentario ${i}` }, admin.cookie)
    const when = monday(2, '08:00')
    await Promise.all([sendDueDigests(when), sendDueDigests(when)])
    for (const person of people) {
      const mails = await digestsTo(person)
      expect(mails).toHaveLength(1)
      expect(mails[0]!.text).toContain('Novedad para el resumen doble')
    }

    const hour = monday(3, '08:00')
    await Promise.all([scheduleDigests(hour), scheduleDigests(hour)])
    const scheduled = await getDb()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.name, 'notifications.digest'), eq(jobs.dedupeKey, `notifications.digest:${hour.toISOString().slice(0, 13)}`)))
    expect(scheduled).toHaveLength(1)
  })
})

describe('one-click unsubscribe without signing in', () => {
  const load = (token: string) =>
    run(() => unsubscribeRoute.loader({ request: getRequest(`/correo/baja/${token}`), params: { token }, context: {} } as never))
  // What a mail client sends (RFC 8058): no cookie, no Origin, this one field.
  const oneClick = (token: string) =>
    run(() =>
      unsubscribeRoute.action({
        request: new Request(`${BASE_URL}/correo/baja/${token}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        }),
        params: { token },
        context: {},
      } as never),
    )
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1)

  concurrencyTest('a valid link: opening it changes nothing, posting turns that topic to "Solo en la web", twice is harmless', async () => {
    const member = await createPersona('premium', { firstName: 'Iris', lastName: 'Baja' })
    const token = tokenOf(unsubscribeUrl(member.userId!, ['comments']))
    const page = await load(token)
    expect(page.status).toBe(200)
    expect(page.data.labels).toEqual(['Comentarios en mis publicaciones y sesiones'])
    expect((await getPreferences(member.userId!)).comments).toBe('email')

    const done = await oneClick(token)
    expect(done.status).toBe(200)
    expect(done.data).toMatchObject({ ok: true, message: { title: 'Listo: ya no recibirás estos emails' } })
    expect(await getPreferences(member.userId!)).toMatchObject({ comments: 'web', replies: 'email', digest: 'weekly' })
    // A mail client retrying, or several at once: the same answer, the same state.
    const again = await Promise.all(Array.from({ length: 10 }, () => oneClick(token)))
    expect(again.map((outcome) => outcome.status)).toEqual(Array(10).fill(200))
    expect((await getPreferences(member.userId!)).comments).toBe('web')

    // The digest's link stops the digest; a topic set to 'Nada' is not turned back on.
    await savePreferences(member.userId!, { ...(await getPreferences(member.userId!)), likes: 'off' })
    await oneClick(tokenOf(unsubscribeUrl(member.userId!, ['digest', 'likes'])))
    expect(await getPreferences(member.userId!)).toMatchObject({ digest: 'never', likes: 'off' })
  })

  test('an expired link says so (410) and changes nothing; a tampered or malformed one is refused (400)', async () => {
    const member = await createPersona('premium', { firstName: 'Tomás', lastName: 'Trampa' })
    const old = tokenOf(unsubscribeUrl(member.userId!, ['replies'], Date.now() - (UNSUBSCRIBE_LINK_DAYS + 1) * DAY))
    expect(readUnsubscribeToken(old).status).toBe('expired')
    const expired = await oneClick(old)
    expect(expired.status).toBe(410)
    expect(expired.data.message.title).toBe('Este enlace ha caducado')
    expect((await load(old)).status).toBe(410)

    const valid = tokenOf(unsubscribeUrl(member.userId!, ['replies']))
    const [payload, signature] = valid.split('.') as [string, string]
    // Someone else's account in a genuine link's signature; another list; a cut signature; garbage.
    const otherUser = Buffer.from(JSON.stringify([admin.userId, 'replies', Math.floor(Date.now() / 1000) + 3600])).toString('base64url')
    const otherList = Buffer.from(
      JSON.stringify([member.userId, 'digest', JSON.parse(Buffer.from(payload, 'base64url').toString())[2]]),
    ).toString('base64url')
    const hostile = [
      `${otherUser}.${signature}`,
      `${otherList}.${signature}`,
      `${payload}.${signature.slice(0, -2)}`,
      `${payload}.${signature}.extra`,
      'no-es-un-token',
      `${Buffer.from('{"a":1}').toString('base64url')}.${signature}`,
      `${Buffer.from(JSON.stringify([member.userId, 'sms', 9999999999])).toString('base64url')}.${signature}`,
      `${'a'.repeat(4000)}.${signature}`,
      '%00.%ff',
    ]
    for (const token of hostile) {
      const outcome = await oneClick(token)
      expect(outcome.status, token.slice(0, 40)).toBe(400)
      expect(outcome.data.message.title).toBe('Enlace no válido')
    }
    expect((await getPreferences(member.userId!)).replies).toBe('email')
    expect((await getPreferences(admin.userId!)).replies).toBe('email')
  })

  test('every notification e-mail carries the headers and a link per topic; account e-mails do not', async () => {
    const author = await createPersona('premium', { firstName: 'Hugo', lastName: 'Cabeceras' })
    const postId = await createPost(author.cookie!, { title: 'Con cabeceras' })
    await feedAction({ intent: 'add-comment', postId, content: 'Hola' }, actor.cookie)
    await afterBatchWindow()
    const [mail] = (await mailsTo(author.email!)).filter((item) => item.subject.startsWith('Nuevo comentario'))
    const header = mail!.headers!['List-Unsubscribe']!
    expect(mail!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    const token = header.slice(header.lastIndexOf('/') + 1, -1)
    expect(readUnsubscribeToken(token)).toEqual({ status: 'valid', userId: author.userId, lists: ['comments'] })
    expect(mail!.text).toContain('Dejar de recibir: Comentarios en mis publicaciones y sesiones')
    expect(mail!.text).toContain(`${BASE_URL}/perfil#notificaciones`)
    const account = (await mailsTo(author.email!)).filter((item) => item.subject === 'Confirma tu email')
    expect(account.length).toBeGreaterThan(0)
    for (const item of account) expect(item.headers?.['List-Unsubscribe']).toBeUndefined()
  })
})

describe('preferences in /perfil', () => {
  const post = (fields: Record<string, string>, cookie?: string) =>
    run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context: {} } as never))
  const choices = {
    comments: 'web',
    replies: 'email',
    likes: 'off',
    sessions: 'email',
    events: 'web',
    myEvents: 'email',
    messages: 'web',
    digest: 'daily',
  }
  const shown = async (cookie?: string) =>
    (await run(() => profileRoute.loader({ request: getRequest('/perfil', { cookie }), params: {}, context: {} } as never))).data
      .preferences
  const DEFAULTS = {
    topics: { comments: 'email', replies: 'email', likes: 'web', sessions: 'web', events: 'web', myEvents: 'email', messages: 'email' },
    digest: 'weekly',
    timeZone: null,
    // Quiet hours for push (issue 42).
    quietStart: '22:00',
    quietEnd: '08:00',
  }

  test('the defaults a member expects, saved with a toast; the zone the browser sends is kept', async () => {
    const member = await createPersona('member', { firstName: 'Pepa', lastName: 'Perfil' })
    expect(await shown(member.cookie)).toEqual(DEFAULTS)
    const saved = await post({ intent: 'preferences', ...choices, timeZone: 'America/Bogota' }, member.cookie)
    expect(saved.status).toBe(302)
    expect(saved.location).toBe('/perfil#notificaciones')
    expect(await readToast(saved.headers)).toMatchObject({ title: 'Preferencias de notificación guardadas' })
    // The staff's own topics keep their defaults for a member (never shown to them).
    expect(await getPreferences(member.userId!)).toEqual({
      ...choices,
      admissions: 'email',
      reports: 'email',
      timeZone: 'America/Bogota',
      quietStart: 22 * 60,
      quietEnd: 8 * 60,
    })
    // Without the page's script no zone comes: the known one stays.
    await post({ intent: 'preferences', ...choices, digest: 'weekly' }, member.cookie)
    expect(await getPreferences(member.userId!)).toMatchObject({ digest: 'weekly', timeZone: 'America/Bogota' })
  })

  test('the page reads without writing: a member without a preferences row sees the defaults and still has none', async () => {
    const member = await createPersona('member', { firstName: 'Lea', lastName: 'Lectura' })
    await getDb().delete(notificationSettings).where(eq(notificationSettings.userId, member.userId!))
    expect(await shown(member.cookie)).toEqual(DEFAULTS)
    expect(await getDb().select().from(notificationSettings).where(eq(notificationSettings.userId, member.userId!))).toEqual([])
  })

  test('a value outside the choices, a missing topic or an unknown zone is refused with the form’s message; anonymous goes to sign in', async () => {
    const member = await createPersona('member', { firstName: 'Rita', lastName: 'Rechazo' })
    for (const fields of [
      { ...choices, comments: 'sms' },
      { ...choices, digest: 'hourly' },
      { ...choices, replies: undefined },
      { ...choices, timeZone: 'Marte/Base_Alfa' },
      { ...choices, timeZone: 'x'.repeat(500) },
    ]) {
      const outcome = await post(
        { intent: 'preferences', ...(JSON.parse(JSON.stringify(fields)) as Record<string, string>) },
        member.cookie,
      )
      expect(outcome.status).toBe(400)
      expect(outcome.data.message.title).toBe('Elige una opción para cada tema')
    }
    expect((await getPreferences(member.userId!)).comments).toBe('email')
    const anonymous = await post({ intent: 'preferences', ...choices })
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toMatch(/^\/auth\?/)
  })
})

test('every profile gets its preferences row (the trigger), and deleting the account takes it away', async () => {
  const member = await createPersona('member', { firstName: 'Fila', lastName: 'Nueva' })
  const rows = await getDb()
    .select({ userId: notificationSettings.userId })
    .from(notificationSettings)
    .where(inArray(notificationSettings.userId, [member.userId!]))
  expect(rows).toHaveLength(1)
  await getDb().execute(sql`delete from "user" where id = ${member.userId}`)
  expect(await getDb().select().from(notificationSettings).where(eq(notificationSettings.userId, member.userId!))).toEqual([])
})
