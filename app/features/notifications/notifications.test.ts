import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { notifications } from './schema'
import { notificationPage } from './notifications.server'
import { getCurrentUser } from '~/features/account/guards.server'
import * as notificationsRoute from './notifications.route'
import { MAX_STREAMS_PER_USER, MAX_STREAMS_TOTAL, notificationStream } from './stream.server'
import { openStreamCount, startRealtime, stopRealtime, subscribe, type RealtimeEvent } from '~/platform/realtime.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { formRequest, getRequest, run } from '../../../tests/setup/requests'

useTestDatabase()
beforeAll(() => startRealtime())
afterAll(() => stopRealtime())

const context = {}
const list = (cookie?: string) =>
  run(() => notificationsRoute.loader({ request: getRequest('/notificaciones', { cookie }), params: {}, context } as any))
const command = (fields: Record<string, string>, cookie?: string) =>
  run(() => notificationsRoute.action({ request: formRequest('/notificaciones', fields, { cookie }), params: {}, context } as any))

async function seedNotifications(count: number) {
  const author = await createPersona('premium', { firstName: 'Autor', lastName: 'Bell' })
  const postId = await createPost(author.cookie!, { title: 'Post con likes' })
  for (let index = 0; index < count; index++) {
    const fan = await createPersona('premium', { firstName: `Fan${index}`, lastName: 'X' })
    await feedAction({ intent: 'like-post', postId }, fan.cookie)
  }
  return { author, postId }
}

describe('notification bell data', () => {
  test('lists only my notifications, newest first, with the actor, limited to 50', async () => {
    const { author } = await seedNotifications(3)
    const outcome = await list(author.cookie)
    expect(outcome.data.unreadCount).toBe(3)
    expect(outcome.data.items).toHaveLength(3)
    expect(outcome.data.items[0]).toMatchObject({ type: 'like', title: 'Nuevo like', isRead: false, actor: { name: 'Fan2 X' } })
    const stranger = await createPersona('premium')
    expect((await list(stranger.cookie)).data.items).toEqual([])
    expect((await list()).status).toBe(302)

    await getDb()
      .insert(notifications)
      .values(
        Array.from({ length: 60 }, (_, index) => ({ userId: author.userId!, type: 'other' as const, title: `N${index}`, message: 'x' })),
      )
    expect((await list(author.cookie)).data.items).toHaveLength(50)
  })

  test('the bell’s count is kept with the notifications: a deleted post takes its unread ones with it', async () => {
    const { author, postId } = await seedNotifications(2)
    const other = await createPost(author.cookie!, { title: 'Otro post' })
    const fan = await createPersona('premium')
    await feedAction({ intent: 'like-post', postId: other }, fan.cookie)
    expect((await list(author.cookie)).data.unreadCount).toBe(3)
    await feedAction({ intent: 'delete-post', postId }, author.cookie)
    const remaining = await getDb().select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, author.userId!))
    expect(remaining).toHaveLength(1)
    expect((await list(author.cookie)).data.unreadCount).toBe(1)
  })

  test('the bell’s count is read with its list, not taken from the member as the request found them (a cached viewer lags a moment)', async () => {
    const { author } = await seedNotifications(2)
    const user = await getCurrentUser(getRequest('/notificaciones/campana', { cookie: author.cookie }))
    expect(user?.profile?.unreadNotifications).toBe(2)
    const stale = { ...user!, profile: { ...user!.profile!, unreadNotifications: 0 } }
    expect((await notificationPage(stale, new URLSearchParams())).unreadCount).toBe(2)
  })

  test('mark one read: mine only; the counter drops by one and never below 0', async () => {
    const { author } = await seedNotifications(2)
    const [first] = (await list(author.cookie)).data.items
    const intruder = await createPersona('premium')
    expect((await command({ intent: 'mark-read', notificationId: first.id }, intruder.cookie)).status).toBe(404)
    const [row] = await getDb().select().from(notifications).where(eq(notifications.id, first.id))
    expect(row!.isRead).toBe(false)

    expect((await command({ intent: 'mark-read', notificationId: first.id }, author.cookie)).data).toEqual({ ok: true, unreadCount: 1 })
    expect((await command({ intent: 'mark-read', notificationId: first.id }, author.cookie)).data.unreadCount).toBe(1)
    expect((await command({ intent: 'mark-all-read' }, author.cookie)).data).toEqual({
      ok: true,
      unreadCount: 0,
      message: { title: 'Todas las notificaciones están leídas' },
    })
    expect((await list(author.cookie)).data.unreadCount).toBe(0)
  })

  test('refuses malformed commands and anonymous callers', async () => {
    const { author } = await seedNotifications(0)
    expect((await command({ intent: 'mark-read', notificationId: 'nope' }, author.cookie)).status).toBe(400)
    expect((await command({ intent: 'delete-all' }, author.cookie)).status).toBe(400)
    expect((await command({ intent: 'mark-all-read' })).status).toBe(302)
  })
})

describe('real time', () => {
  test('a committed notification reaches the recipient’s listeners only (LISTEN/NOTIFY)', async () => {
    const author = await createPersona('premium')
    const fan = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    const mine: RealtimeEvent[] = []
    const theirs: RealtimeEvent[] = []
    const stopMine = subscribe(author.userId!, (event) => mine.push(event))
    const stopTheirs = subscribe(fan.userId!, (event) => theirs.push(event))
    await feedAction({ intent: 'like-post', postId }, fan.cookie)
    const notificationsOf = (events: RealtimeEvent[]) => events.filter((event) => event.type === 'notification')
    await expect.poll(() => notificationsOf(mine).length, { timeout: 5000 }).toBe(1)
    expect(notificationsOf(mine)[0]).toMatchObject({ type: 'notification', userId: author.userId })
    expect(notificationsOf(theirs)).toEqual([])
    // The post's new counters go to every open page (members watching the feed see them move).
    await expect.poll(() => theirs.filter((event) => event.type === 'post-stats').length, { timeout: 5000 }).toBe(1)
    expect(theirs[0]).toEqual({ type: 'post-stats', postId, likeCount: 1, commentCount: 0 })
    stopMine()
    stopTheirs()
  })

  test('the SSE stream is per user, authenticated, and carries the event', async () => {
    expect((await run(() => notificationStream(getRequest('/notificaciones/stream')))).status).toBe(401)

    const author = await createPersona('premium')
    const fan = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    const abort = new AbortController()
    const request = new Request('http://localhost:3000/notificaciones/stream', {
      headers: { Cookie: author.cookie! },
      signal: abort.signal,
    })
    const response = await notificationStream(request)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    const first = decoder.decode((await reader.read()).value)
    expect(first).toContain('retry: 1000')

    await feedAction({ intent: 'add-comment', postId, content: '¡Hola!' }, fan.cookie)
    let received = ''
    while (!received.includes('event: notification') || !received.includes('event: post-stats'))
      received += decoder.decode((await reader.read()).value)
    expect(received).toMatch(/event: notification\ndata: \{"id":"[0-9a-f-]{36}"\}\n\n/)
    expect(received).toContain(`event: post-stats\ndata: {"postId":"${postId}","likeCount":0,"commentCount":1}\n\n`)
    abort.abort()
    await expect.poll(async () => (await reader.read()).done, { timeout: 2000 }).toBe(true)
  })

  test('one member cannot hold more than 8 streams open: the next is a 429 in Spanish', async () => {
    const { open, aborts } = streamsOf(await createPersona('premium'))
    try {
      for (let index = 0; index < MAX_STREAMS_PER_USER; index++) expect((await open()).status).toBe(200)
      const refused = await open()
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('30')
      expect((await refused.json()).message.title).toBe('Demasiadas conexiones abiertas: cierra alguna pestaña y vuelve a intentarlo')
    } finally {
      for (const abort of aborts) abort.abort()
    }
    // Closed streams free their places.
    await expect.poll(async () => (await open()).status, { timeout: 2000 }).toBe(200)
    for (const abort of aborts) abort.abort()
  })
})

/**
 * Opens a member's streams; a stream never ends, so only its answer's status is read (or the
 * refusal, which the handler throws and `fetchRoute` answers: server/fetch-route.ts).
 */
function streamsOf(member: { cookie?: string }) {
  const aborts: AbortController[] = []
  const open = () => {
    const abort = new AbortController()
    aborts.push(abort)
    return notificationStream(
      new Request('http://localhost:3000/notificaciones/stream', { headers: { Cookie: member.cookie! }, signal: abort.signal }),
    ).catch((thrown: unknown) => {
      if (thrown instanceof Response) return thrown
      throw thrown
    })
  }
  return { open, aborts }
}

describe('the total cap on open streams', () => {
  test('once the process holds MAX_STREAMS_TOTAL streams, the next member gets a 429 in Spanish; a freed place is served', async () => {
    const member = await createPersona('premium')
    const { open, aborts } = streamsOf(member)
    // The other streams of the process: each open stream is one subscription, whoever it is for
    // (at most MAX_STREAMS_PER_USER each, as the loader allows).
    const others: Array<() => void> = []
    try {
      for (let index = 0; openStreamCount() < MAX_STREAMS_TOTAL; index++) {
        others.push(subscribe(`otro-${Math.floor(index / MAX_STREAMS_PER_USER)}`, () => {}))
      }
      expect(openStreamCount()).toBe(MAX_STREAMS_TOTAL)
      expect(openStreamCount(member.userId!)).toBe(0)

      const refused = await open()
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('30')
      expect((await refused.json()).message.title).toBe('Demasiadas conexiones abiertas: cierra alguna pestaña y vuelve a intentarlo')
      expect(openStreamCount()).toBe(MAX_STREAMS_TOTAL)

      others.pop()!()
      expect((await open()).status).toBe(200)
      expect(openStreamCount(member.userId!)).toBe(1)
    } finally {
      for (const unsubscribe of others) unsubscribe()
      for (const abort of aborts) abort.abort()
    }
    await expect.poll(() => openStreamCount(member.userId!), { timeout: 2000 }).toBe(0)
  })
})
