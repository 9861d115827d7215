import sharp from 'sharp'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import * as inProcessRoute from '~/features/ceo-sessions/in-process.route'
import * as sessionsRoute from '~/features/ceo-sessions/ceo-sessions.route'
import * as layoutRoute from '~/features/community/layout.route'
import * as commentsRoute from '~/features/feed/comments.route'
import * as feedPageRoute from '~/features/feed/page.route'
import * as sessionsPageRoute from '~/features/ceo-sessions/page.route'
import * as eventsPageRoute from '~/features/events/page.route'
import * as memberRoute from '~/features/members/member.route'
import * as bellRoute from '~/features/notifications/bell.route'
import { failStatements } from '~/platform/db/client.server'
import { getStorage } from '~/platform/storage/storage.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPost, feedAction, feedLoader } from '../../../tests/setup/feed'
import { createPeople, type People } from '../../../tests/setup/members'
import { getRequest, run } from '../../../tests/setup/requests'
import { newSession } from '../../../tests/setup/sessions'

// When something fails on the server, the member keeps the page and what they typed: an action
// answers its form with the spec's message (500, or 503 with Retry-After when the database is
// away), a part of a page shows empty or says so in place, and only a page's main content that
// cannot load reaches its own error boundary (inside the frame).

useTestDatabase()
let people: People
const disarms: Array<() => void> = []
const fail = (pattern: RegExp, kind: 'away' | 'bug' = 'bug') =>
  disarms.push(failStatements(pattern, kind === 'bug' ? { error: () => new Error('relation "x" does not exist') } : {}))
beforeAll(async () => {
  people = await createPeople()
})
afterEach(() => {
  for (const disarm of disarms.splice(0)) disarm()
  vi.restoreAllMocks()
})

const context = { cspNonce: 'n' }
const load = (route: { loader: (args: never) => unknown }, path: string, cookie?: string, params = {}) =>
  run(() => route.loader({ request: getRequest(path, { cookie }), params, context } as never))
/** A returned answer is the form's (or the part's); a thrown one would replace the page. */
async function answered(call: () => Promise<unknown>) {
  const value = (await call()) as { type?: string; init?: ResponseInit | null; data?: any }
  expect(value.type).toBe('DataWithResponseInit')
  return { status: value.init?.status ?? 200, headers: new Headers(value.init?.headers), data: value.data }
}

describe('actions keep the page and the words', () => {
  test('a post that fails unexpectedly: 500 "No se pudo crear el post", the title and text back', async () => {
    fail(/insert into "community_posts"/)
    const outcome = await feedAction(
      { intent: 'create-post', postType: 'text', title: 'Borrador', content: 'Texto largo' },
      people.premium.cookie,
    )
    expect(outcome.status).toBe(500)
    expect(outcome.data.message.title).toBe('No se pudo crear el post')
    expect(outcome.data.submission.initialValue).toMatchObject({ title: 'Borrador', content: 'Texto largo' })
  })

  test('a like while the database is away: 503 "No se pudo procesar tu reacción" with Retry-After', async () => {
    const postId = await createPost(people.premium.cookie!, { title: 'Para likes' })
    fail(/"post_likes"/, 'away')
    const outcome = await feedAction({ intent: 'like-post', postId }, people.premium.cookie)
    expect(outcome.status).toBe(503)
    expect(outcome.headers.get('Retry-After')).toBe('5')
    expect(outcome.data.message.title).toBe('No se pudo procesar tu reacción')
  })

  test.each([
    ['storing it', () => vi.spyOn(getStorage(), 'put').mockRejectedValue(new Error('EACCES: permission denied'))],
    ['saving its address', () => fail(/update "profiles"/)],
  ])('a photo that fails on the server while %s: 500 "Error al subir la imagen"', async (_what, breakIt) => {
    breakIt()
    const body = new FormData()
    body.append('intent', 'avatar')
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#456' } })
      .png()
      .toBuffer()
    body.append('avatar', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'foto.png')
    const request = new Request('http://localhost:3000/perfil', {
      method: 'POST',
      body,
      headers: { Origin: 'http://localhost:3000', 'x-app-client-ip': '203.0.113.9', Cookie: people.member.cookie! },
    })
    const outcome = await run(() => profileRoute.action({ request, params: {}, context } as never))
    expect(outcome.status).toBe(500)
    expect(outcome.data.message.title).toBe('Error al subir la imagen')
    expect(JSON.stringify(outcome.data)).not.toMatch(/EACCES|relation/)
  })

  test.each([
    [{ intent: 'role', role: 'moderator', grant: 'true' }, /insert into "user_roles"/, 'Error al actualizar el rol'],
    [{ intent: 'premium', premium: 'true' }, /update "profiles"/, 'Error al actualizar estado premium'],
  ])('an admin control that fails: 500 with the spec message (%o)', async (fields, pattern, message) => {
    fail(pattern)
    const request = new Request(`http://localhost:3000/usuario/${people.member.userId}`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { Origin: 'http://localhost:3000', 'x-app-client-ip': '203.0.113.9', Cookie: people.admin.cookie! },
    })
    const outcome = await answered(
      () => memberRoute.action({ request, params: { userId: people.member.userId }, context } as never) as Promise<unknown>,
    )
    expect(outcome.status).toBe(500)
    expect(outcome.data.message.title).toBe(message)
  })

  test("a session deleted whose files could not be removed says so: 'Sesión eliminada', 'No se pudo eliminar el video/thumbnail'", async () => {
    const { sessionId } = await newSession(people.admin.userId!)
    vi.spyOn(getStorage(), 'delete').mockRejectedValue(new Error('S3 timeout'))
    const { getVideoProvider } = await import('~/features/ceo-sessions/video-provider.server')
    vi.spyOn(await getVideoProvider(), 'deleteVideo').mockRejectedValue(new Error('provider down'))
    const request = new Request('http://localhost:3000/comunidad/sesiones', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'delete-session', sessionId }),
      headers: { Origin: 'http://localhost:3000', 'x-app-client-ip': '203.0.113.9', Cookie: people.admin.cookie! },
    })
    const outcome = await run(() => sessionsRoute.action({ request, params: {}, context } as never))
    expect(outcome.status).toBe(200)
    expect(outcome.data.message).toEqual({ title: 'Sesión eliminada', description: 'No se pudo eliminar el video/thumbnail', type: 'info' })
  })
})

describe('parts of a page degrade; the page stays', () => {
  test('the stats panel shows zeros when it cannot count (spec 001 §8)', async () => {
    fail(/"community_counters"/)
    const outcome = await load(layoutRoute, '/comunidad', people.premium.cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data.stats).toEqual({ members: 0, discussions: 0, eventsThisMonth: 0, ceoSessions: 0 })
  })

  test("the posts still show when the categories cannot be loaded ('No se pudieron cargar las categorías')", async () => {
    await createPost(people.premium.cookie!, { title: 'Visible sin categorías' })
    fail(/"post_categories"/)
    const outcome = await feedLoader('', people.premium.cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data.categories).toBeNull()
    expect(outcome.data.feed.items.map((post: { title: string }) => post.title)).toContain('Visible sin categorías')
  })

  test("posts that cannot be loaded reach the feed's own boundary ('No se pudieron cargar los posts'), not an empty feed", async () => {
    fail(/from "community_posts"/)
    await expect(feedLoader('', people.premium.cookie)).rejects.toThrow('relation "x" does not exist')
  })

  test("'Continuar viendo' shows nothing when it cannot be loaded; the library still shows", async () => {
    fail(/"ceo_session_progress"/)
    const outcome = await load(sessionsRoute, '/comunidad/sesiones', people.premium.cookie)
    expect(outcome.status).toBe(200)
    expect(outcome.data.continueWatching).toEqual([])
    expect(outcome.data.library.items).toBeInstanceOf(Array)
  })

  test.each([
    ['away', 503],
    ['bug', 500],
  ] as const)('the bell (database %s) answers its failure as its own data, never a thrown error', async (kind, status) => {
    fail(/from "notifications"/, kind)
    const outcome = await answered(() =>
      bellRoute.loader({ request: getRequest('/notificaciones/campana', { cookie: people.member.cookie }), params: {}, context } as never),
    )
    expect(outcome.status).toBe(status)
    expect(outcome.data.ok).toBe(false)
    if (status === 500) expect(outcome.data.message.title).toBe('No se pudieron cargar las notificaciones')
  })

  test("the 10-second poll of 'Mis sesiones en proceso' answers a failure as data: the panel keeps what it showed", async () => {
    fail(/"ceo_sessions"/)
    const outcome = await answered(() =>
      inProcessRoute.loader({
        request: getRequest('/comunidad/sesiones/en-proceso', { cookie: people.admin.cookie }),
        params: {},
        context,
      } as never),
    )
    expect(outcome.status).toBe(500)
    expect(outcome.data.message.title).toBe('No se pudo actualizar el estado de tus sesiones')
  })

  test.each([
    [feedPageRoute, '/comunidad/publicaciones', /from "community_posts"/, 'No se pudieron cargar más publicaciones'],
    [sessionsPageRoute, '/comunidad/sesiones/pagina', /from "ceo_sessions"/, 'No se pudieron cargar más sesiones'],
    [eventsPageRoute, '/comunidad/calendario/pagina', /from "events"/, 'No se pudieron cargar más eventos'],
  ] as const)(
    "'Cargar más' (%#) answers a failure as data: the list keeps what it shows and offers to try again",
    async (route, path, pattern, message) => {
      fail(pattern)
      const outcome = await answered(() =>
        route.loader({ request: getRequest(path, { cookie: people.premium.cookie }), params: {}, context } as never),
      )
      expect(outcome.status).toBe(500)
      expect(outcome.data).toMatchObject({ ok: false, message: { title: message } })
    },
  )

  test("a post's comments that cannot be loaded: the panel says so in place", async () => {
    const postId = await createPost(people.premium.cookie!, { title: 'Con comentarios' })
    fail(/"community_comments"/, 'away')
    const outcome = await answered(() =>
      commentsRoute.loader({
        request: getRequest(`/comunidad/posts/${postId}/comentarios`, { cookie: people.premium.cookie }),
        params: { postId },
        context,
      } as never),
    )
    expect(outcome.status).toBe(503)
    expect(outcome.headers.get('Retry-After')).toBe('5')
  })
})
