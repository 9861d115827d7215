import { createECDH, randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq, sql } from 'drizzle-orm'
// @ts-expect-error http_ece ships no types: decrypt(buffer, params) → Buffer.
import ece from 'http_ece'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { deleteAccount } from '~/features/account/account-deletion.server'
import * as profileRoute from '~/features/account/profile.route'
import { profiles } from '~/features/account/schema'
import { publishVideo } from '~/features/ceo-sessions/video-state.server'
import { answerRequest, block, getConversationFor, markRead, sendMessage } from '~/features/messages/conversations.server'
import { MESSAGE_PUSH } from '~/features/messages/push.server'
import { toggleRegistration } from '~/features/events/events.server'
import { reminderJob } from '~/features/events/reminders.server'
import { TOPICS, type Channel, type Topic } from '~/features/notifications/preferences'
import { deliveryFor, getPreferences, savePreferences, unsubscribe } from '~/features/notifications/preferences.server'
import { notifications } from '~/features/notifications/schema'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { memberDataParts } from '~/platform/privacy/member-data'
import { concurrencyTest, type PlanNode, plansOf, useTestDatabase } from '../../../tests/setup/database'
import { announceEvent } from '../../../tests/setup/events'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { newSession } from '../../../tests/setup/sessions'
import { BASE_URL, formRequest, readToast, run, TEST_IP } from '../../../tests/setup/requests'
import { deliver, FAILING_FOR_MS, pushRetry, RetryLater } from './delivery.server'
import { MAX_PAYLOAD_BYTES, payloadOf, pushMessageOf } from './message'
import { pushData } from './member-data.server'
import { queuePush } from './queue.server'
import { pushTime } from './quiet-hours'
import { pushSubscriptions } from './schema'
import * as devicesRoute from './devices.route'
import * as subscribeRoute from './subscribe.route'
import { devicesQuery, listDevices, MAX_DEVICES, MAX_SUBSCRIPTION_BYTES, PUSH_MESSAGES, saveSubscription } from './subscriptions.server'

/**
 * Issue 42's push: a local HTTP server plays the push service, and what it receives is decrypted
 * with the subscription's own keys (RFC 8291, aes128gcm, by http_ece), as the browser would.
 */

useTestDatabase()

const context = { cspNonce: 'test' }
type Person = Awaited<ReturnType<typeof createPersona>>

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

/** The push service: 201 for /ok/…, and what each other path is told to answer. */
let service: Server
let serviceUrl = ''
const received: Received[] = []
const answers: Record<string, { status: number; headers?: Record<string, string> }> = {
  '/gone': { status: 410 },
  '/missing': { status: 404 },
  '/busy': { status: 429, headers: { 'Retry-After': '120' } },
  '/down': { status: 503 },
  '/bad': { status: 400 },
}

beforeAll(async () => {
  service = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      const answer = answers[(req.url ?? '').split('?')[0]!] ?? { status: 201 }
      res.writeHead(answer.status, answer.headers).end()
    })
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())))

/** A browser's subscription: its keys stay here to decrypt what the service receives. */
/** `answer`: the path whose answer the service gives ('/gone', '/down'…); each device its own endpoint. */
async function device(person: Person, answer = '/ok') {
  const path = `${answer}?${randomBytes(6).toString('hex')}`
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16).toString('base64url')
  const row = await saveSubscription(person.userId!, {
    endpoint: `${serviceUrl}${path}`,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth,
    deviceLabel: 'Chrome en Android',
  })
  return { id: row.id, path, ecdh, auth }
}
type Device = Awaited<ReturnType<typeof device>>

function decrypt(message: Received, keys: Device) {
  expect(message.headers['content-encoding']).toBe('aes128gcm')
  expect(message.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]{87}$/)
  expect(message.headers.ttl).toBe('86400')
  const plain = ece.decrypt(message.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }) as Buffer
  return JSON.parse(plain.toString('utf8')) as { title: string; body: string; url: string; tag: string }
}

const receivedAt = (keys: Device) => received.filter((message) => message.path === keys.path)

/** Every topic by push (and the bell), with no quiet hours: pushes go at once. */
async function wantsPush(person: Person, channel: Channel = 'push', quiet = { quietStart: 0, quietEnd: 0 }) {
  const topics = Object.fromEntries(TOPICS.map((topic) => [topic.key, channel])) as Record<Topic, Channel>
  await savePreferences(person.userId!, { ...topics, digest: 'never', timeZone: 'Europe/Madrid', ...quiet })
}

const runPushJobs = async () => {
  while ((await runDueJobs({ names: ['push.broadcast', 'push.deliver'] })) > 0);
}

let author: Person
let liker: Person
let second: Person
let admin: Person

beforeAll(async () => {
  author = await createPersona('premium', { firstName: 'Paula', lastName: 'Pulsada' })
  liker = await createPersona('premium', { firstName: 'Marta', lastName: 'Gustos' })
  second = await createPersona('premium', { firstName: 'Luis', lastName: 'Segundo' })
  admin = await createPersona('admin', { firstName: 'Admin', lastName: 'Sesiones' })
})

describe('what a push says, decrypted with the subscription’s keys', () => {
  test('a like: its title and line, the post, grouped by a tag per post', async () => {
    await wantsPush(author)
    const phone = await device(author)
    const postId = await createPost(author.cookie!, { title: 'Ensayos de fase III' })
    await feedAction({ intent: 'like-post', postId }, liker.cookie)
    await feedAction({ intent: 'like-post', postId }, second.cookie)
    await runPushJobs()
    const pushes = receivedAt(phone).map((message) => decrypt(message, phone))
    expect(pushes).toEqual([
      {
        title: 'Nuevo like',
        body: 'A Marta Gustos le gusta tu post «Ensayos de fase III»',
        url: `/comunidad?comentarios=${postId}#post-${postId}`,
        tag: `like:${postId}`,
      },
      {
        title: 'Nuevo like',
        body: 'A Luis Segundo le gusta tu post «Ensayos de fase III»',
        url: `/comunidad?comentarios=${postId}#post-${postId}`,
        tag: `like:${postId}`,
      },
    ])
    const [row] = await getDb()
      .select({ lastSuccessAt: pushSubscriptions.lastSuccessAt, failures: pushSubscriptions.failures })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, phone.id))
    expect(row!.lastSuccessAt).not.toBeNull()
    expect(row!.failures).toBe(0)
  })

  test('a comment: opens the comment itself', async () => {
    await wantsPush(author)
    const phone = await device(author)
    const postId = await createPost(author.cookie!, { title: 'Precios de referencia' })
    await feedAction({ intent: 'add-comment', postId, content: '¿Y en Portugal?' }, liker.cookie)
    await runPushJobs()
    const [notification] = await getDb()
      .select({ commentId: notifications.relatedCommentId })
      .from(notifications)
      .where(and(eq(notifications.userId, author.userId!), eq(notifications.relatedPostId, postId), eq(notifications.type, 'comment')))
    expect(receivedAt(phone).map((message) => decrypt(message, phone))).toEqual([
      {
        title: 'Nuevo comentario',
        body: expect.stringContaining('Marta Gustos'),
        url: `/comunidad?comentarios=${postId}#comment-${notification!.commentId}`,
        tag: `comment:${postId}`,
      },
    ])
  })

  test('a new CEO session: for everyone who wants it by push, through one job', async () => {
    await wantsPush(author)
    await wantsPush(second, 'web')
    const phone = await device(author)
    const notWanted = await device(second)
    const { sessionId } = await newSession(admin.userId!)
    await publishVideo(sessionId, { videoKey: `sessions/${sessionId}/video.webm`, videoContentType: 'video/webm' })
    await runPushJobs()
    expect(receivedAt(phone).map((message) => decrypt(message, phone))).toEqual([
      {
        title: 'Nueva sesión',
        body: expect.stringMatching(/^Ya puedes ver «.+»$/),
        url: `/video/${sessionId}`,
        tag: `new_session:${sessionId}`,
      },
    ])
    expect(receivedAt(notWanted)).toEqual([])
  })

  test('an event reminder: opens the event', async () => {
    await wantsPush(author)
    const phone = await device(author)
    const eventDate = new Date(Date.now() + 25 * 60 * 60 * 1000)
    const eventId = await announceEvent('Cena de directivos', eventDate, admin.userId!)
    await runPushJobs()
    received.length = 0
    expect((await toggleRegistration(eventId, author.userId!)).kind).toBe('registered')
    await reminderJob.run({ eventId, userId: author.userId!, kind: '24h', eventDate: eventDate.toISOString() }, { attempts: 1, jobId: 0 })
    await runPushJobs()
    const pushes = receivedAt(phone).map((message) => decrypt(message, phone))
    expect(pushes).toEqual([
      {
        title: 'Recordatorio',
        body: expect.stringMatching(/^Mañana: «Cena de directivos», /),
        url: `/comunidad/calendario/${eventId}`,
        tag: `event_reminder:${eventId}`,
      },
    ])
  })

  test('the bell only, or e-mail only, sends no push; the e-mail switch off keeps push of "all three"', async () => {
    const phone = await device(author)
    const postId = await createPost(author.cookie!, { title: 'Sin push' })
    await wantsPush(author, 'email')
    await feedAction({ intent: 'like-post', postId }, liker.cookie)
    await runPushJobs()
    expect(receivedAt(phone)).toEqual([])
    await wantsPush(author, 'all')
    await getDb().update(profiles).set({ emailNotifications: false }).where(eq(profiles.userId, author.userId!))
    expect(await deliveryFor(getDb(), author.userId!, 'likes')).toBe('push')
    await feedAction({ intent: 'like-post', postId }, second.cookie)
    await runPushJobs()
    expect(receivedAt(phone)).toHaveLength(1)
    await getDb().update(profiles).set({ emailNotifications: true }).where(eq(profiles.userId, author.userId!))
  })

  test('a payload stays under 2 KB whatever the words', () => {
    const message = pushMessageOf({
      id: crypto.randomUUID(),
      type: 'comment',
      title: 'T'.repeat(500),
      message: 'ñ'.repeat(5000),
      relatedPostId: crypto.randomUUID(),
      relatedCommentId: crypto.randomUUID(),
      relatedSessionId: null,
      relatedEventId: null,
    })
    expect(message.title.length).toBeLessThanOrEqual(60)
    expect(message.body.length).toBeLessThanOrEqual(160)
    expect(Buffer.byteLength(payloadOf(message))).toBeLessThan(MAX_PAYLOAD_BYTES)
  })
})

describe('a private message by push: who wrote, never what', () => {
  let reader: Person
  let writer: Person
  let key = 0
  const write = (from: Person, to: Person, body: string) =>
    sendMessage({ senderId: from.userId!, recipientId: to.userId!, body, key: `push-${Date.now().toString(36)}-${key++}` })
  /** The push.deliver jobs queued for a device. */
  const jobsFor = (keys: Device) =>
    getDb()
      .select({ id: jobs.id, payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.name, 'push.deliver'), sql`${jobs.payload}->>'subscriptionId' = ${keys.id}`))

  beforeAll(async () => {
    writer = await createPersona('premium', { firstName: 'Rosa', lastName: 'Remitente' })
  })

  test('a request says only who wants to write, and opens it; an accepted conversation’s messages group under one tag, without their words', async () => {
    reader = await createPersona('premium', { firstName: 'Diego', lastName: 'Lector' })
    await wantsPush(reader)
    const phone = await device(reader)
    const secret = 'Mi número de cuenta es ES91 2100 0418 4502 0005 1332'
    const first = await write(writer, reader, secret)
    await runPushJobs()
    const request = receivedAt(phone).map((message) => decrypt(message, phone))
    expect(request).toEqual([
      {
        title: 'Nueva solicitud de mensaje',
        body: 'Rosa Remitente quiere escribirte. Abre la solicitud para leerla y decidir si la aceptas.',
        url: `/mensajes/${first.conversationId}`,
        tag: `message:${first.conversationId}`,
      },
    ])

    // Accepted: each message a push, the same tag (the device shows one), the count in its line.
    await answerRequest(first.conversationId, reader.userId!, 'accepted')
    await markRead(await getConversationFor(first.conversationId, reader.userId!), reader.userId!)
    received.length = 0
    await write(writer, reader, 'La contraseña del banco es «girasol-77»')
    await runPushJobs()
    await write(writer, reader, 'Y el PIN, 4321')
    await runPushJobs()
    const accepted = receivedAt(phone).map((message) => decrypt(message, phone))
    expect(accepted).toEqual([
      {
        title: 'Nuevo mensaje de Rosa Remitente',
        body: 'Abre la conversación para leerlo.',
        url: `/mensajes/${first.conversationId}`,
        tag: `message:${first.conversationId}`,
      },
      {
        title: 'Nuevo mensaje de Rosa Remitente',
        body: 'Tienes 2 mensajes sin leer. Abre la conversación para leerlos.',
        url: `/mensajes/${first.conversationId}`,
        tag: `message:${first.conversationId}`,
      },
    ])
    expect(MESSAGE_PUSH.title('Rosa Remitente')).toBe(accepted[0]!.title)
    // No word of any message, in any push (decrypted) or in the bytes on the wire.
    for (const push of [...request, ...accepted]) {
      for (const word of ['ES91', 'cuenta', 'contraseña', 'girasol', 'PIN', '4321']) expect(JSON.stringify(push)).not.toContain(word)
    }
    for (const message of received) expect(message.body.toString('latin1')).not.toContain('girasol')
    // Never in the bell: a message is no notification.
    expect(await getDb().select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, reader.userId!))).toEqual([])
  })

  test('another conversation has a tag of its own', async () => {
    const other = await createPersona('premium', { firstName: 'Otra', lastName: 'Persona' })
    const target = await createPersona('premium', { firstName: 'Tomás', lastName: 'Dos' })
    await wantsPush(target)
    const phone = await device(target)
    const one = await write(writer, target, 'uno')
    const two = await write(other, target, 'dos')
    await runPushJobs()
    expect(receivedAt(phone).map((message) => decrypt(message, phone).tag)).toEqual([
      `message:${one.conversationId}`,
      `message:${two.conversationId}`,
    ])
  })

  test('a blocked sender queues no push (the message is refused); a block made before the push goes stops it', async () => {
    const blocker = await createPersona('premium', { firstName: 'Bea', lastName: 'Bloqueo' })
    const pest = await createPersona('premium', { firstName: 'Pedro', lastName: 'Pesado' })
    await wantsPush(blocker)
    const phone = await device(blocker)
    await block(blocker.userId!, pest.userId!)
    await expect(write(pest, blocker, 'hola')).rejects.toBeDefined()
    expect(await jobsFor(phone)).toEqual([])

    // Queued in quiet hours, then the sender blocked: nothing goes at the end of them.
    const later = await createPersona('premium', { firstName: 'Lola', lastName: 'Luego' })
    await write(later, blocker, 'Mensaje nocturno')
    expect(await jobsFor(phone)).toHaveLength(1)
    await block(blocker.userId!, later.userId!)
    await runPushJobs()
    expect(receivedAt(phone)).toEqual([])
  })

  test('an ignored request, a read message, the bell or e-mail only: no push', async () => {
    const member = await createPersona('premium', { firstName: 'Inés', lastName: 'Ignora' })
    const phone = await device(member)
    await wantsPush(member, 'email')
    await write(writer, member, 'por email')
    expect(await jobsFor(phone)).toEqual([])
    await wantsPush(member, 'all')
    const third = await createPersona('premium', { firstName: 'Tercero', lastName: 'Leído' })
    const read = await write(third, member, 'leído antes de que salga el push')
    await markRead(await getConversationFor(read.conversationId, member.userId!), member.userId!)
    await runPushJobs()
    expect(receivedAt(phone)).toEqual([])
    const fourth = await createPersona('premium', { firstName: 'Cuarto', lastName: 'Ignorado' })
    const ignored = await write(fourth, member, 'ignórame')
    await answerRequest(ignored.conversationId, member.userId!, 'ignored')
    await runPushJobs()
    expect(receivedAt(phone)).toEqual([])
  })

  test('quiet hours hold a message’s push till they end', async () => {
    const night = await createPersona('premium', { firstName: 'Nieves', lastName: 'Nocturna' })
    const nowMinute = new Date().getUTCHours() * 60 + new Date().getUTCMinutes()
    const end = (nowMinute + 2) % 1440
    await wantsPush(night, 'push', { quietStart: (end + 1) % 1440, quietEnd: end })
    await savePreferences(night.userId!, { ...(await getPreferences(night.userId!)), timeZone: 'UTC' })
    const phone = await device(night)
    await write(writer, night, 'de madrugada')
    const [job] = await getDb()
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(and(eq(jobs.name, 'push.deliver'), sql`${jobs.payload}->>'subscriptionId' = ${phone.id}`))
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now())
    await runPushJobs()
    expect(receivedAt(phone)).toEqual([])
  })
})

describe('what the push service answers', () => {
  let owner: Person
  beforeAll(async () => {
    owner = await createPersona('premium', { firstName: 'Olga', lastName: 'Servicio' })
    await wantsPush(owner)
  })
  /** A notification of the owner's, straight in the table. */
  async function notification() {
    const [row] = await getDb()
      .insert(notifications)
      .values({ userId: owner.userId!, type: 'other', title: 'Aviso', message: 'Hola' })
      .returning({ id: notifications.id })
    return row!.id
  }
  const subscription = (id: string) =>
    getDb()
      .select({ failures: pushSubscriptions.failures, failingSince: pushSubscriptions.failingSince })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, id))

  test.each(['/gone', '/missing'])('%s (410, 404): the subscription is deleted, no retry', async (path) => {
    const gone = await device(owner, path)
    await expect(deliver(gone.id, await notification())).resolves.toBeUndefined()
    expect(await subscription(gone.id)).toEqual([])
  })

  test('a 5xx is retried with backoff through the queue; the failure is counted', async () => {
    const down = await device(owner, '/down')
    const { queued } = await enqueueFor(down.id, await notification())
    await runDueJobs({ names: ['push.deliver'] })
    const [job] = await getDb()
      .select({ status: jobs.status, attempts: jobs.attempts, delay: sql<number>`extract(epoch from ${jobs.runAt} - now())::int` })
      .from(jobs)
      .where(eq(jobs.id, queued))
    expect(job!.status).toBe('queued')
    expect(job!.attempts).toBe(1)
    expect(job!.delay).toBeGreaterThan(20)
    expect(job!.delay).toBeLessThanOrEqual(30)
    expect((await subscription(down.id))[0]!.failures).toBe(1)
    expect([pushRetry(2, new Error('x')), pushRetry(8, new Error('x')), pushRetry(10, new Error('x'))]).toEqual([60, 3600, null])
  })

  test('429 waits as long as Retry-After says', async () => {
    const busy = await device(owner, '/busy')
    const { queued } = await enqueueFor(busy.id, await notification())
    await runDueJobs({ names: ['push.deliver'] })
    const [job] = await getDb()
      .select({ status: jobs.status, delay: sql<number>`extract(epoch from ${jobs.runAt} - now())::int`, lastError: jobs.lastError })
      .from(jobs)
      .where(eq(jobs.id, queued))
    expect(job!.status).toBe('queued')
    expect(job!.delay).toBeGreaterThan(110)
    expect(job!.delay).toBeLessThanOrEqual(120)
    expect(pushRetry(1, new RetryLater(7200, 'x'))).toBe(7200)
  })

  test('failing for 3 days: the subscription is removed at the next failure', async () => {
    const down = await device(owner, '/down')
    await getDb()
      .update(pushSubscriptions)
      .set({ failingSince: new Date(Date.now() - FAILING_FOR_MS - 60_000), failures: 40 })
      .where(eq(pushSubscriptions.id, down.id))
    await expect(deliver(down.id, await notification())).resolves.toBeUndefined()
    expect(await subscription(down.id)).toEqual([])
  })

  test('another 4xx is not retried (it would fail again); a read notification is not pushed', async () => {
    const bad = await device(owner, '/bad')
    await expect(deliver(bad.id, await notification())).resolves.toBeUndefined()
    const phone = await device(owner)
    const read = await notification()
    await getDb().update(notifications).set({ isRead: true }).where(eq(notifications.id, read))
    await deliver(phone.id, read)
    expect(receivedAt(phone)).toEqual([])
  })

  async function enqueueFor(subscriptionId: string, notificationId: string) {
    await getDb().transaction((tx) => queuePush(tx, owner.userId!, notificationId))
    const [job] = await getDb()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.name, 'push.deliver'), sql`${jobs.payload}->>'subscriptionId' = ${subscriptionId}`))
    return { queued: job!.id }
  }
})

describe('quiet hours', () => {
  const madrid = { start: 22 * 60, end: 8 * 60, timeZone: 'Europe/Madrid' }
  test.each([
    // Outside the window: now.
    ['2026-06-01T10:00:00Z', madrid, '2026-06-01T10:00:00.000Z'],
    // 23:30 in summer (UTC+2): 08:00 the next morning.
    ['2026-06-01T21:30:00Z', madrid, '2026-06-02T06:00:00.000Z'],
    // 03:00 after midnight: 08:00 the same day.
    ['2026-01-15T02:00:00Z', madrid, '2026-01-15T07:00:00.000Z'],
    // The night clocks go forward (2026-03-29, 02:00 → 03:00): 23:30 CET → 08:00 CEST, 6 h 30 later.
    ['2026-03-28T22:30:00Z', madrid, '2026-03-29T06:00:00.000Z'],
    ['2026-03-29T01:30:00Z', madrid, '2026-03-29T06:00:00.000Z'],
    // The night clocks go back (2026-10-25, 03:00 → 02:00): 23:30 CEST → 08:00 CET, 9 h 30 later.
    ['2026-10-24T21:30:00Z', madrid, '2026-10-25T07:00:00.000Z'],
    ['2026-10-25T00:30:00Z', madrid, '2026-10-25T07:00:00.000Z'],
    ['2026-10-25T01:30:00Z', madrid, '2026-10-25T07:00:00.000Z'],
    // 07:59 is still quiet, 08:00 is not, 22:00 is.
    ['2026-10-25T06:59:00Z', madrid, '2026-10-25T07:00:00.000Z'],
    ['2026-10-25T07:00:00Z', madrid, '2026-10-25T07:00:00.000Z'],
    ['2026-10-25T21:00:00Z', madrid, '2026-10-26T07:00:00.000Z'],
    // A window within one day (13:00–15:00), another zone, none at all (start = end).
    ['2026-06-01T11:30:00Z', { ...madrid, start: 13 * 60, end: 15 * 60 }, '2026-06-01T13:00:00.000Z'],
    ['2026-06-01T14:00:00Z', { ...madrid, start: 13 * 60, end: 15 * 60 }, '2026-06-01T14:00:00.000Z'],
    ['2026-03-08T05:00:00Z', { ...madrid, timeZone: 'America/New_York' }, '2026-03-08T12:00:00.000Z'],
    ['2026-06-01T21:30:00Z', { ...madrid, start: 0, end: 0 }, '2026-06-01T21:30:00.000Z'],
    // No zone known yet: Madrid's.
    ['2026-06-01T21:30:00Z', { ...madrid, timeZone: null }, '2026-06-02T06:00:00.000Z'],
    // An end inside the hour skipped in spring (02:30 on 2026-03-29) moves forward by the gap.
    ['2026-03-29T00:30:00Z', { ...madrid, start: 0, end: 2 * 60 + 30 }, '2026-03-29T01:30:00.000Z'],
  ] as const)('%s → %s', (now, quiet, expected) => {
    expect(pushTime(new Date(now), quiet).toISOString()).toBe(expected)
  })

  test('a push in quiet hours is queued for their end; the bell rings at once', async () => {
    const night = await createPersona('premium', { firstName: 'Noche', lastName: 'Quieta' })
    // The whole day is quiet but one minute: whatever the time of the test, it is inside.
    const nowMinute = new Date().getUTCHours() * 60 + new Date().getUTCMinutes()
    const end = (nowMinute + 2) % 1440
    await wantsPush(night, 'push', { quietStart: (end + 1) % 1440, quietEnd: end })
    await savePreferences(night.userId!, { ...(await getPreferences(night.userId!)), timeZone: 'UTC' })
    const phone = await device(night)
    const postId = await createPost(night.cookie!, { title: 'De noche' })
    await feedAction({ intent: 'like-post', postId }, liker.cookie)
    const [job] = await getDb()
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(and(eq(jobs.name, 'push.deliver'), sql`${jobs.payload}->>'subscriptionId' = ${phone.id}`))
    const expected = pushTime(new Date(), { start: (end + 1) % 1440, end, timeZone: 'UTC' })
    expect(Math.abs(job!.runAt.getTime() - expected.getTime())).toBeLessThan(60_000)
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now())
    await runPushJobs()
    expect(receivedAt(phone)).toEqual([])
    const bell = await getDb().select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, night.userId!))
    expect(bell).toHaveLength(1)
  })
})

describe('subscribing and turning off, by who and with what', () => {
  const endpoint = (id = randomBytes(8).toString('hex')) => `https://fcm.googleapis.com/fcm/send/${id}`
  const keys = () => {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') }
  }
  const valid = () => ({ endpoint: endpoint(), expirationTime: null, keys: keys() })

  function subscribe(
    body: string | object,
    { cookie, type = 'application/json', length }: { cookie?: string; type?: string; length?: string } = {},
  ) {
    const headers = new Headers({
      Origin: BASE_URL,
      'x-app-client-ip': TEST_IP,
      'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
    })
    if (type) headers.set('Content-Type', type)
    if (cookie) headers.set('Cookie', cookie)
    if (length) headers.set('Content-Length', length)
    const request = new Request(`${BASE_URL}/notificaciones/push`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return run(() => subscribeRoute.action({ request, params: {}, context } as never))
  }
  const disable = (fields: Record<string, string>, cookie?: string) =>
    run(() =>
      devicesRoute.action({ request: formRequest('/notificaciones/push/dispositivos', fields, { cookie }), params: {}, context } as never),
    )

  test.each(['member', 'premium', 'moderator', 'admin'] as const)('%s subscribes a device, named from its browser', async (persona) => {
    const person = await createPersona(persona)
    const outcome = await subscribe(valid(), { cookie: person.cookie })
    expect(outcome.status).toBe(200)
    expect(outcome.data).toMatchObject({
      ok: true,
      message: { title: PUSH_MESSAGES.subscribed },
      device: { deviceLabel: 'Chrome en Android' },
    })
    expect((await listDevices(person.userId!)).map((row) => row.deviceLabel)).toEqual(['Chrome en Android'])
  })

  test('anonymous is sent to sign in, for both', async () => {
    const outcome = await subscribe(valid())
    expect(outcome.status).toBe(302)
    expect(outcome.location).toMatch(/^\/auth/)
    const off = await disable({ intent: 'disable', subscriptionId: crypto.randomUUID() })
    expect(off.status).toBe(302)
    expect(off.location).toMatch(/^\/auth/)
  })

  test('a suspended member may still turn push on and off (reading is no participation)', async () => {
    const person = await createPersona('premium')
    await getDb()
      .update(profiles)
      .set({ suspendedUntil: new Date(Date.now() + 86_400_000) })
      .where(eq(profiles.userId, person.userId!))
    expect((await subscribe(valid(), { cookie: person.cookie })).status).toBe(200)
    const [row] = await listDevices(person.userId!)
    expect((await disable({ intent: 'disable', subscriptionId: row!.id }, person.cookie)).status).toBe(302)
  })

  test.each([
    ['a form', 'application/x-www-form-urlencoded', 'endpoint=x', 415, PUSH_MESSAGES.wrongType],
    ['plain text', 'text/plain', '{}', 415, PUSH_MESSAGES.wrongType],
    ['no type', '', '{}', 415, PUSH_MESSAGES.wrongType],
    ['truncated JSON', 'application/json', '{"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {', 400, PUSH_MESSAGES.malformed],
    ['an array', 'application/json', '[]', 400, PUSH_MESSAGES.malformed],
    ['an empty body', 'application/json', '', 400, PUSH_MESSAGES.malformed],
  ])('%s: refused', async (_name, type, body, status, message) => {
    const person = await createPersona('member')
    const outcome = await subscribe(body, { cookie: person.cookie, type })
    expect(outcome.status).toBe(status)
    expect(outcome.data).toEqual({ ok: false, message: { title: message } })
  })

  test.each([
    ['http, not https', (body: ReturnType<typeof valid>) => ({ ...body, endpoint: body.endpoint.replace('https:', 'http:') })],
    ['a host of our network', (body: ReturnType<typeof valid>) => ({ ...body, endpoint: 'https://127.0.0.1/push' })],
    ['a look-alike host', (body: ReturnType<typeof valid>) => ({ ...body, endpoint: 'https://fcm.googleapis.com.evil.example/x' })],
    ['credentials in the URL', (body: ReturnType<typeof valid>) => ({ ...body, endpoint: 'https://a:b@fcm.googleapis.com/fcm/send/x' })],
    ['not a URL', (body: ReturnType<typeof valid>) => ({ ...body, endpoint: 'fcm' })],
    ['a long endpoint', (body: ReturnType<typeof valid>) => ({ ...body, endpoint: endpoint('x'.repeat(1100)) })],
    ['a short key', (body: ReturnType<typeof valid>) => ({ ...body, keys: { ...body.keys, p256dh: body.keys.p256dh.slice(0, 40) } })],
    [
      'a compressed point',
      (body: ReturnType<typeof valid>) => ({ ...body, keys: { ...body.keys, p256dh: Buffer.alloc(65, 2).toString('base64url') } }),
    ],
    [
      'a long auth secret',
      (body: ReturnType<typeof valid>) => ({ ...body, keys: { ...body.keys, auth: randomBytes(32).toString('base64url') } }),
    ],
    ['no keys', (body: ReturnType<typeof valid>) => ({ endpoint: body.endpoint })],
    ['keys of the wrong type', (body: ReturnType<typeof valid>) => ({ ...body, keys: { p256dh: 1, auth: [] } })],
  ])('%s: 400, nothing saved', async (_name, change) => {
    const person = await createPersona('member')
    const outcome = await subscribe(change(valid()), { cookie: person.cookie })
    expect(outcome.status).toBe(400)
    expect(outcome.data).toEqual({ ok: false, message: { title: PUSH_MESSAGES.malformed } })
    expect(await listDevices(person.userId!)).toEqual([])
  })

  test('an oversized body: 413, by its declared length or by what it sends', async () => {
    const person = await createPersona('member')
    const big = JSON.stringify({ ...valid(), padding: 'x'.repeat(MAX_SUBSCRIPTION_BYTES) })
    const declared = await subscribe(big, { cookie: person.cookie })
    expect(declared.status).toBe(413)
    expect(declared.data).toEqual({ ok: false, message: { title: PUSH_MESSAGES.tooLarge } })
    // A body that says it is small and is not (no Content-Length honesty assumed).
    const undeclared = await subscribe(big, { cookie: person.cookie, length: '10' })
    expect(undeclared.status).toBe(413)
  })

  concurrencyTest('the same browser subscribing twice at once is one device; another member signing in on it takes it', async () => {
    const first = await createPersona('member')
    const other = await createPersona('member')
    const body = valid()
    const outcomes = await Promise.all([subscribe(body, { cookie: first.cookie }), subscribe(body, { cookie: first.cookie })])
    expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200])
    expect(await listDevices(first.userId!)).toHaveLength(1)
    expect((await subscribe(body, { cookie: other.cookie })).status).toBe(200)
    expect(await listDevices(first.userId!)).toEqual([])
    expect(await listDevices(other.userId!)).toHaveLength(1)
  })

  test(`a member keeps at most ${MAX_DEVICES} devices, the newest`, async () => {
    const person = await createPersona('member')
    for (let i = 0; i <= MAX_DEVICES; i++) expect((await subscribe(valid(), { cookie: person.cookie })).status).toBe(200)
    expect(await listDevices(person.userId!)).toHaveLength(MAX_DEVICES)
  })

  test("'Desactivar': one's own device goes; another member's or an unknown id is not found", async () => {
    const owner = await createPersona('member')
    const other = await createPersona('member')
    await subscribe(valid(), { cookie: owner.cookie })
    const [row] = await listDevices(owner.userId!)
    const stolen = await disable({ intent: 'disable', subscriptionId: row!.id }, other.cookie)
    expect(stolen.status).toBe(404)
    expect(stolen.data).toMatchObject({ ok: false, message: { title: PUSH_MESSAGES.unknownDevice } })
    expect((await disable({ intent: 'disable', subscriptionId: crypto.randomUUID() }, owner.cookie)).status).toBe(404)
    expect((await disable({ intent: 'disable', subscriptionId: 'not-a-uuid' }, owner.cookie)).status).toBe(400)
    expect((await disable({ intent: 'drop-table' }, owner.cookie)).status).toBe(400)
    const done = await disable({ intent: 'disable', subscriptionId: row!.id }, owner.cookie)
    expect(done.status).toBe(302)
    expect(done.location).toBe('/perfil#notificaciones')
    expect(await readToast(done.headers)).toMatchObject({ title: PUSH_MESSAGES.disabled })
    expect(await listDevices(owner.userId!)).toEqual([])
  })

  test('GET on either address goes to /perfil', async () => {
    const outcome = await run(() => subscribeRoute.loader())
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/perfil#notificaciones')
    expect((await run(() => devicesRoute.loader())).location).toBe('/perfil#notificaciones')
  })
})

describe('per-topic channels', () => {
  const savePreferencesForm = (cookie: string | undefined, fields: Record<string, string>) =>
    run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as never))
  const everyTopic = (channel: string) => ({
    intent: 'preferences',
    comments: channel,
    replies: channel,
    likes: channel,
    sessions: channel,
    events: channel,
    myEvents: channel,
    messages: channel,
    digest: 'weekly',
  })

  test('/perfil saves push and all three per topic, private messages too, and quiet hours', async () => {
    const person = await createPersona('member')
    const saved = await savePreferencesForm(person.cookie, {
      ...everyTopic('all'),
      likes: 'push',
      messages: 'push',
      quietStart: '23:15',
      quietEnd: '07:00',
    })
    expect(saved.status).toBe(302)
    expect(await readToast(saved.headers)).toMatchObject({ title: 'Preferencias de notificación guardadas' })
    const preferences = await getPreferences(person.userId!)
    expect([preferences.comments, preferences.likes, preferences.messages]).toEqual(['all', 'push', 'push'])
    expect([preferences.quietStart, preferences.quietEnd]).toEqual([23 * 60 + 15, 7 * 60])
    // Without the fields (an older page), the quiet hours stay.
    expect((await savePreferencesForm(person.cookie, everyTopic('web'))).status).toBe(302)
    expect((await getPreferences(person.userId!)).quietStart).toBe(23 * 60 + 15)
    for (const fields of [
      { ...everyTopic('web'), quietStart: '25:00' },
      { ...everyTopic('web'), quietEnd: '8' },
      { ...everyTopic('web'), messages: 'loud' },
      { ...everyTopic('loud') },
    ]) {
      const refused = await savePreferencesForm(person.cookie, fields)
      expect(refused.status).toBe(400)
      expect(refused.data).toMatchObject({ ok: false, message: { title: 'Elige una opción para cada tema' } })
      if ('quietStart' in fields || 'quietEnd' in fields) expect(JSON.stringify(refused.data)).toContain('Escribe una hora válida')
    }
    expect((await getPreferences(person.userId!)).likes).toBe('web')
  })

  test("an unsubscribe link stops e-mail and keeps push: 'all' becomes 'push', 'email' becomes 'web'", async () => {
    const person = await createPersona('member')
    await wantsPush(person, 'all')
    await savePreferences(person.userId!, { ...(await getPreferences(person.userId!)), likes: 'email' })
    await unsubscribe(person.userId!, ['comments', 'likes'])
    const preferences = await getPreferences(person.userId!)
    expect([preferences.comments, preferences.likes, preferences.replies]).toEqual(['push', 'web', 'all'])
  })
})

describe('the member’s data', () => {
  test('the export has each device and when, never its endpoint or keys; the account’s deletion takes them', async () => {
    const person = await createPersona('member')
    await device(person)
    expect(memberDataParts().some((part) => 'push_subscriptions' in part.tables)).toBe(true)
    const result = (await getDb().execute(pushData.sections!.notificaciones_push!(person.userId!))) as unknown as {
      rows: Array<Record<string, unknown>>
    }
    expect(result.rows).toHaveLength(1)
    expect(Object.keys(result.rows[0]!).sort()).toEqual(['created_at', 'device_label', 'failing_since', 'failures', 'last_success_at'])
    expect(result.rows[0]!.device_label).toBe('Chrome en Android')
    await deleteAccount({ userId: person.userId!, actorId: person.userId!, writing: 'keep' })
    expect(
      await getDb().select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, person.userId!)),
    ).toEqual([])
  })
})

test('the devices list and a recipient’s devices are read by the index', async () => {
  const scans = (node: PlanNode): Array<[string, string]> => [
    ...(node['Relation Name']
      ? [[String(node['Relation Name']), String(node['Index Name'] ?? node['Node Type'])] as [string, string]]
      : []),
    ...(node.Plans ?? []).flatMap(scans),
  ]
  const userId = author.userId!
  const plans = await plansOf([devicesQuery(userId).getSQL()], { sorts: false })
  expect(plans.flatMap(scans)).toEqual([['push_subscriptions', 'push_subscriptions_user_idx']])
})
