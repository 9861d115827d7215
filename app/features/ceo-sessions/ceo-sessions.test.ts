import { readFileSync } from 'node:fs'
import path from 'node:path'
import { count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { pixelBombPng } from '../../../tests/setup/images'
import { beforeAll, describe, expect, test } from 'vitest'
import { linkOf } from '~/features/notifications/grouping'
import { notifications } from '~/features/notifications/schema'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { getStorage } from '~/platform/storage/storage.server'
import * as layoutRoute from '~/features/community/layout.route'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { createPeople, type People, type Persona } from '../../../tests/setup/members'
import { BASE_URL, formRequest, getRequest, run, TEST_IP } from '../../../tests/setup/requests'
import { newSession } from '../../../tests/setup/sessions'
import * as tabRoute from './ceo-sessions.route'
import * as commentsRoute from './comments.route'
import * as pageRoute from './page.route'
import { ceoSessionComments, ceoSessionLikes, ceoSessions } from './schema'
import { handleVideoUpload } from './video-upload.server'
import * as videoRoute from './video.route'

useTestDatabase()

const VIDEO = readFileSync(path.resolve('tests/fixtures/session.webm'))
let people: People

beforeAll(async () => {
  people = await createPeople()
})

const FIELDS = {
  title: 'Cómo escalar una biotech',
  summary: 'De laboratorio a empresa',
  description: 'Una conversación sobre financiación, equipo y regulación.',
  ceoName: 'Lucía Gómez',
  ceoPosition: 'CEO',
  ceoCompany: 'Genómica SA',
  sessionDate: '2026-11-05T19:00',
  durationMinutes: '75',
  videoSize: String(VIDEO.length),
  videoType: 'video/webm',
}

/** A multipart post of the sessions form, as the dialog sends it. */
function multipart(
  pathname: string,
  fields: Record<string, string | string[]>,
  files: Record<string, { bytes: Uint8Array; name: string; type: string }> = {},
  cookie?: string,
) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item)
  for (const [name, file] of Object.entries(files))
    body.append(name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
  const headers = new Headers({ Origin: BASE_URL, 'x-app-client-ip': TEST_IP })
  if (cookie) headers.set('Cookie', cookie)
  return new Request(`${BASE_URL}${pathname}`, { method: 'POST', headers, body })
}

const tabAction = (request: Request) => run(() => tabRoute.action({ request, params: {}, context: {} } as never))
const tabLoader = (search = '', cookie?: string) =>
  run(() => tabRoute.loader({ request: getRequest(`/comunidad/sesiones${search}`, { cookie }), params: {}, context: {} } as never))
const videoLoader = (sessionId: string, cookie?: string) =>
  run(() => videoRoute.loader({ request: getRequest(`/video/${sessionId}`, { cookie }), params: { sessionId }, context: {} } as never))
const videoAction = (sessionId: string, fields: Record<string, string>, cookie?: string) =>
  run(() =>
    videoRoute.action({ request: formRequest(`/video/${sessionId}`, fields, { cookie }), params: { sessionId }, context: {} } as never),
  )

/** Creates a session through the action and sends its video the way @mux/upchunk does; returns its id. */
async function createPublished(overrides: Record<string, string | string[]> = {}, cookie = people.admin.cookie) {
  const created = await tabAction(multipart('/comunidad/sesiones', { intent: 'create-session', ...FIELDS, ...overrides }, {}, cookie))
  expect(created.status).toBe(200)
  const { sessionId, uploadUrl } = created.data as { sessionId: string; uploadUrl: string }
  const headers = new Headers({
    Origin: BASE_URL,
    'x-app-client-ip': TEST_IP,
    Cookie: cookie!,
    'Content-Range': `bytes 0-${VIDEO.length - 1}/${VIDEO.length}`,
  })
  const request = new Request(`${BASE_URL}${uploadUrl}`, { method: 'PUT', headers, body: new Uint8Array(VIDEO) })
  const sent = await run(() => handleVideoUpload(request, uploadUrl.split('/').pop()!))
  expect(sent.status).toBe(201)
  await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
  return sessionId
}

describe('creating a session', () => {
  test('the form saves the session with its files, the video arrives, the session is published and every member hears of it', async () => {
    const thumbnail = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#123456' } })
      .png()
      .toBuffer()
    const created = await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'create-session', ...FIELDS, tags: [' Liderazgo ', 'liderazgo', 'Financiación'], isFeatured: 'on' },
        {
          thumbnail: { bytes: thumbnail, name: 'portada.png', type: 'image/png' },
          pdf: { bytes: Buffer.from('%PDF-1.4\n% resumen\n'), name: 'Presentación final (v2).pdf', type: 'application/pdf' },
          captions: { bytes: Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n'), name: 'es.vtt', type: 'text/vtt' },
        },
        people.admin.cookie,
      ),
    )
    expect(created.status).toBe(200)
    const { sessionId, uploadUrl } = created.data
    expect(uploadUrl).toMatch(/^\/comunidad\/sesiones\/subidas\//)
    const [row] = await getDb().select().from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    expect(row).toMatchObject({
      title: FIELDS.title,
      tags: ['Liderazgo', 'Financiación'],
      isFeatured: true,
      durationMinutes: 75,
      pdfName: 'Presentacion-final-v2.pdf',
      publicationStatus: 'processing',
      createdBy: people.admin.userId,
    })
    // 19:00 in Madrid in November is 18:00 UTC.
    expect(row!.sessionDate.toISOString()).toBe('2026-11-05T18:00:00.000Z')
    expect(row!.searchText).toContain('financiacion')
    for (const key of [row!.thumbnailKey, row!.pdfKey, row!.captionsKey]) expect(await getStorage().size(key!)).toBeGreaterThan(0)

    // 'Mis sesiones en proceso' shows it to its creator while it processes.
    const panel = await tabLoader('', people.admin.cookie)
    expect(panel.data.inProcess).toEqual([expect.objectContaining({ id: sessionId, publicationStatus: 'processing' })])
    expect(panel.data.library.items.some((card: { id: string }) => card.id === sessionId)).toBe(false)

    const headers = new Headers({
      Origin: BASE_URL,
      'x-app-client-ip': TEST_IP,
      Cookie: people.admin.cookie!,
      'Content-Range': `bytes 0-${VIDEO.length - 1}/${VIDEO.length}`,
    })
    const sent = await run(() =>
      handleVideoUpload(
        new Request(`${BASE_URL}${uploadUrl}`, { method: 'PUT', headers, body: new Uint8Array(VIDEO) }),
        uploadUrl.split('/').pop(),
      ),
    )
    expect(sent.status).toBe(201)
    await runDueJobs({ names: ['ceo-sessions.process-local-video'] })

    const library = await tabLoader('', people.premium.cookie)
    expect(library.data.library.items[0]).toMatchObject({
      id: sessionId,
      hasPdf: true,
      isFeatured: true,
      tags: ['Liderazgo', 'Financiación'],
    })
    const afterPanel = await tabLoader('', people.admin.cookie)
    expect(afterPanel.data.inProcess).toEqual([expect.objectContaining({ id: sessionId, publicationStatus: 'published' })])

    const bells = await getDb().select().from(notifications).where(eq(notifications.relatedSessionId, sessionId))
    const news = bells.filter((bell) => bell.type === 'new_session')
    // Every member with a profile but the admin who published it, once each.
    expect(news.map((bell) => bell.userId).sort()).toEqual([people.member.userId, people.premium.userId, people.moderator.userId].sort())
    expect(news[0]).toMatchObject({ title: 'Nueva sesión', message: `Ya puedes ver «${FIELDS.title}»` })
    // 'Sesión creada' promised its creator a word when it is published: once.
    expect(bells.filter((bell) => bell.type !== 'new_session')).toEqual([
      expect.objectContaining({
        userId: people.admin.userId,
        type: 'session_published',
        title: 'Sesión publicada',
        message: `«${FIELDS.title}» ya está publicada y los miembros pueden verla`,
      }),
    ])
  })

  test("missing required fields: the spec's toast, field errors, nothing stored", async () => {
    const before = await getDb().select({ id: ceoSessions.id }).from(ceoSessions)
    const outcome = await tabAction(
      multipart('/comunidad/sesiones', { intent: 'create-session', ...FIELDS, title: '  ', ceoCompany: '' }, {}, people.admin.cookie),
    )
    expect(outcome.status).toBe(400)
    expect(outcome.data.message).toEqual({ title: 'Campos requeridos', description: 'Por favor completa todos los campos obligatorios' })
    expect(Object.keys(outcome.data.submission.error)).toEqual(expect.arrayContaining(['title', 'ceoCompany']))
    expect(await getDb().select({ id: ceoSessions.id }).from(ceoSessions)).toHaveLength(before.length)
  })

  test.each([
    [
      'a duration that is not a whole number',
      { durationMinutes: '1.5' },
      'durationMinutes',
      'La duración debe ser un número entero de minutos',
    ],
    ['a date that does not exist', { sessionDate: '2026-02-30T10:00' }, 'sessionDate', 'Fecha no válida'],
    ['no video', { videoSize: '' }, 'videoSize', 'El video es obligatorio'],
    ['a video over 500 MB', { videoSize: String(500 * 1_048_576 + 1) }, 'videoSize', 'Archivo muy grande. El límite máximo es 500MB.'],
    [
      'a file that is not a video',
      { videoType: 'application/pdf' },
      'videoType',
      'Tipo de archivo inválido. Solo se permiten videos MP4, WebM o MOV.',
    ],
  ])('%s is refused with its field message', async (_name, override, field, message) => {
    const outcome = await tabAction(
      multipart('/comunidad/sesiones', { intent: 'create-session', ...FIELDS, ...override }, {}, people.admin.cookie),
    )
    expect(outcome.status).toBe(400)
    expect(outcome.data.submission.error[field]).toEqual([message])
  })

  test("a PDF that is not a PDF is refused with the spec's message and leaves nothing behind", async () => {
    const before = await getDb().select({ id: ceoSessions.id }).from(ceoSessions)
    const thumbnail = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#000' } })
      .png()
      .toBuffer()
    const outcome = await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'create-session', ...FIELDS },
        {
          thumbnail: { bytes: thumbnail, name: 'a.png', type: 'image/png' },
          pdf: { bytes: Buffer.from('MZ not a pdf'), name: 'informe.pdf', type: 'application/pdf' },
        },
        people.admin.cookie,
      ),
    )
    expect(outcome.status).toBe(415)
    expect(outcome.data.message).toEqual({ title: 'Tipo de archivo inválido', description: 'Solo se permiten archivos PDF' })
    expect(await getDb().select({ id: ceoSessions.id }).from(ceoSessions)).toHaveLength(before.length)
  })

  test('a thumbnail of huge dimensions (a pixel bomb) gets the same 413 as an avatar or an attachment, and nothing is kept', async () => {
    const before = await getDb().select({ id: ceoSessions.id }).from(ceoSessions)
    const outcome = await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'create-session', ...FIELDS },
        { thumbnail: { bytes: pixelBombPng(8000, 6000), name: 'portada.png', type: 'image/png' } },
        people.admin.cookie,
      ),
    )
    expect(outcome.status).toBe(413)
    expect(outcome.data.message.title).toBe('La imagen es demasiado grande (máximo 40 megapíxeles)')
    expect(await getDb().select({ id: ceoSessions.id }).from(ceoSessions)).toHaveLength(before.length)
  })

  test("a PDF over 20 MB is a 413 with the spec's words; a JSON body is a 415", async () => {
    const big = Buffer.alloc(20 * 1_048_576 + 10, 0x20)
    big.write('%PDF-1.4', 0)
    const outcome = await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'create-session', ...FIELDS },
        { pdf: { bytes: big, name: 'x.pdf', type: 'application/pdf' } },
        people.admin.cookie,
      ),
    )
    expect(outcome.status).toBe(413)
    expect(outcome.data.message.title).toBe('Archivo muy grande. El límite máximo es 20MB por archivo.')
    const json = await tabAction(
      new Request(`${BASE_URL}/comunidad/sesiones`, {
        method: 'POST',
        headers: { Origin: BASE_URL, 'x-app-client-ip': TEST_IP, Cookie: people.admin.cookie!, 'Content-Type': 'application/json' },
        body: JSON.stringify({ intent: 'create-session', ...FIELDS }),
      }),
    )
    expect(json.status).toBe(415)
  })
})

describe('authorization matrix', () => {
  let sessionId: string
  beforeAll(async () => {
    sessionId = await createPublished({ title: 'Matriz de permisos' })
  })

  const CAN_CREATE: Record<Persona, number> = { anonymous: 302, member: 403, premium: 403, moderator: 403, admin: 200 }
  test.each(Object.entries(CAN_CREATE))('create a session as %s → %i', async (persona, status) => {
    const outcome = await tabAction(
      multipart('/comunidad/sesiones', { intent: 'create-session', ...FIELDS }, {}, people[persona as Persona].cookie),
    )
    expect(outcome.status).toBe(status)
  })

  const CAN_EDIT: Record<Persona, number> = { anonymous: 302, member: 403, premium: 403, moderator: 403, admin: 200 }
  test.each(Object.entries(CAN_EDIT))('edit a session as %s → %i', async (persona, status) => {
    const outcome = await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'update-session', sessionId, ...FIELDS, videoSize: '', videoType: '', title: 'Matriz de permisos' },
        {},
        people[persona as Persona].cookie,
      ),
    )
    expect(outcome.status).toBe(status)
    if (status === 403) expect(outcome.data.message.title).toBe('No se pudo actualizar la sesión')
  })

  const CAN_WATCH: Record<Persona, { status: number; playable: boolean }> = {
    anonymous: { status: 302, playable: false },
    member: { status: 200, playable: false },
    premium: { status: 200, playable: true },
    moderator: { status: 200, playable: false },
    admin: { status: 200, playable: true },
  }
  test.each(Object.entries(CAN_WATCH))('open the video page as %s', async (persona, expected) => {
    const outcome = await videoLoader(sessionId, people[persona as Persona].cookie)
    expect(outcome.status).toBe(expected.status)
    if (outcome.status !== 200) return
    expect(Boolean(outcome.data.player)).toBe(expected.playable)
    // Without access, no address of the video, the PDF or the captions is in the page.
    if (!expected.playable) expect(JSON.stringify(outcome.data)).not.toContain('/uploads/')
  })

  const CAN_REACT: Record<Persona, number> = { anonymous: 302, member: 403, premium: 200, moderator: 403, admin: 200 }
  test.each(Object.entries(CAN_REACT))('like and comment as %s → %i', async (persona, status) => {
    const cookie = people[persona as Persona].cookie
    expect((await videoAction(sessionId, { intent: 'like-session', sessionId }, cookie)).status).toBe(status)
    const comment = await videoAction(sessionId, { intent: 'add-comment', sessionId, content: `Hola desde ${persona}` }, cookie)
    expect(comment.status).toBe(status)
    if (status === 403) expect(comment.data.message.description).toBe('Necesitas acceso premium para comentar')
  })

  test('comments: only the author edits; the author or a moderator deletes', async () => {
    const added = await videoAction(sessionId, { intent: 'add-comment', sessionId, content: 'Gran sesión' }, people.premium.cookie)
    const commentId = added.data.commentId
    expect((await videoAction(sessionId, { intent: 'update-comment', commentId, content: 'Hackeado' }, people.admin.cookie)).status).toBe(
      403,
    )
    expect(
      (await videoAction(sessionId, { intent: 'update-comment', commentId, content: 'Gran sesión, gracias' }, people.premium.cookie))
        .status,
    ).toBe(200)
    expect((await videoAction(sessionId, { intent: 'delete-comment', commentId }, people.member.cookie)).status).toBe(403)
    expect((await videoAction(sessionId, { intent: 'delete-comment', commentId }, people.moderator.cookie)).status).toBe(200)
  })

  const CAN_DELETE: Record<Persona, number> = { anonymous: 302, member: 403, premium: 403, moderator: 403, admin: 200 }
  test.each(Object.entries(CAN_DELETE))('delete a session as %s → %i', async (persona, status) => {
    const { sessionId: target } = await newSession(people.admin.userId!)
    const outcome = await tabAction(
      formRequest('/comunidad/sesiones', { intent: 'delete-session', sessionId: target }, { cookie: people[persona as Persona].cookie }),
    )
    expect(outcome.status).toBe(status)
    const rows = await getDb().select({ id: ceoSessions.id }).from(ceoSessions).where(eq(ceoSessions.id, target))
    expect(rows).toHaveLength(status === 200 ? 0 : 1)
  })
})

describe('the video page', () => {
  concurrencyTest('each opening counts one view, also when many open it at once', async () => {
    const sessionId = await createPublished({ title: 'Vistas concurrentes' })
    await Promise.all(Array.from({ length: 20 }, () => videoLoader(sessionId, people.premium.cookie)))
    const [row] = await getDb().select({ viewCount: ceoSessions.viewCount }).from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    expect(row!.viewCount).toBe(20)
    // A member without access does not count.
    await videoLoader(sessionId, people.member.cookie)
    const [after] = await getDb().select({ viewCount: ceoSessions.viewCount }).from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    expect(after!.viewCount).toBe(20)
  })

  test('likes toggle, the count never goes below 0, and a stale second unlike does nothing', async () => {
    const sessionId = await createPublished({ title: 'Likes' })
    const like = () => videoAction(sessionId, { intent: 'like-session', sessionId }, people.premium.cookie)
    expect((await like()).data).toMatchObject({ liked: true, likeCount: 1 })
    expect((await like()).data).toMatchObject({ liked: false, likeCount: 0 })
    await like()
    await getDb().update(ceoSessions).set({ likeCount: 0 }).where(eq(ceoSessions.id, sessionId))
    expect((await like()).data).toMatchObject({ liked: false, likeCount: 0 })
  })

  concurrencyTest('simultaneous likes from one member (double click, two tabs) keep the count equal to the likes', async () => {
    const sessionId = await createPublished({ title: 'Likes a la vez' })
    for (const round of [5, 6]) {
      const clicks = await Promise.all(
        Array.from({ length: round }, () => videoAction(sessionId, { intent: 'like-session', sessionId }, people.premium.cookie)),
      )
      expect(clicks.every((click) => click.status === 200)).toBe(true)
      const [likes] = await getDb().select({ n: count() }).from(ceoSessionLikes).where(eq(ceoSessionLikes.sessionId, sessionId))
      const [row] = await getDb().select({ likeCount: ceoSessions.likeCount }).from(ceoSessions).where(eq(ceoSessions.id, sessionId))
      expect(row!.likeCount).toBe(likes!.n)
      const page = await videoLoader(sessionId, people.premium.cookie)
      expect(page.data.session.likeCount).toBe(likes!.n)
      expect(page.data.session.likedByMe).toBe(likes!.n === 1)
    }
  })

  test('replies go one level deep and notify the author replied to and the session creator', async () => {
    const sessionId = await createPublished({ title: 'Conversación' })
    const first = await videoAction(sessionId, { intent: 'add-comment', sessionId, content: 'Pregunta' }, people.premium.cookie)
    const reply = await videoAction(
      sessionId,
      { intent: 'add-comment', sessionId, parentCommentId: first.data.commentId, content: 'Respuesta' },
      people.member.cookie,
    )
    expect(reply.status).toBe(403)
    const adminReply = await videoAction(
      sessionId,
      { intent: 'add-comment', sessionId, parentCommentId: first.data.commentId, content: 'Respuesta' },
      people.admin.cookie,
    )
    const nested = await videoAction(
      sessionId,
      { intent: 'add-comment', sessionId, parentCommentId: adminReply.data.commentId, content: 'Otra' },
      people.premium.cookie,
    )
    expect(nested.data.message.title).toBe('Respuesta añadida')
    const rows = await getDb().select().from(ceoSessionComments).where(eq(ceoSessionComments.sessionId, sessionId))
    expect(rows.find((row) => row.id === nested.data.commentId)!.parentCommentId).toBe(first.data.commentId)
    const list = await run(() =>
      commentsRoute.loader({
        request: getRequest(`/video/${sessionId}/comentarios`, { cookie: people.premium.cookie }),
        params: { sessionId },
        context: {},
      } as never),
    )
    expect(list.data.comments).toHaveLength(3)
    const bells = await getDb().select().from(notifications).where(eq(notifications.relatedSessionId, sessionId))
    // Each reply tells the one replied to: the admin's tells the premium member, the nested one tells the admin.
    const replied = bells.filter((bell) => bell.type === 'session_comment_reply').map((bell) => bell.userId)
    expect(replied.sort()).toEqual([people.premium.userId, people.admin.userId].sort())
    // The creator (the admin) hears of the first comment once: not of their own reply, and the
    // reply to them already told them.
    expect(bells.filter((bell) => bell.type === 'session_comment').map((bell) => bell.userId)).toEqual([people.admin.userId])
  })

  test("each comment's notification names the comment, so its e-mail links to it; deleting the comment removes them", async () => {
    const sessionId = await createPublished({ title: 'Enlaces exactos' })
    const question = await videoAction(sessionId, { intent: 'add-comment', sessionId, content: 'Pregunta' }, people.premium.cookie)
    const answer = await videoAction(
      sessionId,
      { intent: 'add-comment', sessionId, parentCommentId: question.data.commentId, content: 'Respuesta' },
      people.admin.cookie,
    )
    // Everyone also heard of the session's publication ('new_session').
    const aboutComments = async () =>
      (await getDb().select().from(notifications).where(eq(notifications.relatedSessionId, sessionId))).filter(
        (bell) => bell.type !== 'new_session' && bell.type !== 'session_published',
      )
    const bells = await aboutComments()
    expect(
      bells.map(({ type, userId, relatedCommentId }) => ({ type, userId, relatedCommentId })).sort((a, b) => (a.type < b.type ? -1 : 1)),
    ).toEqual([
      { type: 'session_comment', userId: people.admin.userId, relatedCommentId: question.data.commentId },
      { type: 'session_comment_reply', userId: people.premium.userId, relatedCommentId: answer.data.commentId },
    ])
    const reply = bells.find((bell) => bell.type === 'session_comment_reply')!
    expect(linkOf(reply, { exactComment: true })).toBe(`/video/${sessionId}#comment-${answer.data.commentId}`)

    expect(
      (await videoAction(sessionId, { intent: 'delete-comment', commentId: question.data.commentId }, people.premium.cookie)).status,
    ).toBe(200)
    expect(await aboutComments()).toEqual([])
  })

  test('unknown, malformed and unpublished sessions are "Video no encontrado"', async () => {
    expect((await videoLoader(crypto.randomUUID(), people.premium.cookie)).data.message.title).toBe('Video no encontrado')
    expect((await videoLoader('no-es-un-id', people.premium.cookie)).status).toBe(404)
    const created = await tabAction(
      multipart('/comunidad/sesiones', { intent: 'create-session', ...FIELDS, title: 'Aún procesando' }, {}, people.admin.cookie),
    )
    expect((await videoLoader(created.data.sessionId, people.premium.cookie)).status).toBe(404)
    // Its creator sees the page, without a player yet.
    const own = await videoLoader(created.data.sessionId, people.admin.cookie)
    expect(own.status).toBe(200)
    expect(own.data.player).toBeNull()
    // Nobody likes or comments on it.
    expect(
      (await videoAction(created.data.sessionId, { intent: 'like-session', sessionId: created.data.sessionId }, people.premium.cookie))
        .status,
    ).toBe(404)
  })

  test('the saved position comes back and fills "Continuar viendo"', async () => {
    const sessionId = await createPublished({ title: 'Para seguir viendo' })
    expect(
      (await videoAction(sessionId, { intent: 'save-progress', sessionId, positionSeconds: '42' }, people.premium.cookie)).status,
    ).toBe(200)
    expect(
      (await videoAction(sessionId, { intent: 'save-progress', sessionId, positionSeconds: '-3' }, people.premium.cookie)).status,
    ).toBe(400)
    expect((await videoLoader(sessionId, people.premium.cookie)).data.player.startAt).toBe(42)
    const tab = await tabLoader('', people.premium.cookie)
    expect(tab.data.continueWatching[0]).toMatchObject({ session: { id: sessionId }, positionSeconds: 42 })
  })
})

describe('the library', () => {
  test('search ignores accents and case and matches CEO, company and tags', async () => {
    await createPublished({
      title: 'Gestión de crisis regulatorias',
      ceoName: 'Andrés Peña',
      ceoCompany: 'Farmacéutica Norte',
      tags: ['Regulación'],
    })
    for (const query of ['gestion', 'PEÑA', 'pena', 'farmaceutica norte', 'regulacion']) {
      const outcome = await tabLoader(`?buscar=${encodeURIComponent(query)}`, people.premium.cookie)
      expect(
        outcome.data.library.items.map((card: { title: string }) => card.title),
        query,
      ).toContain('Gestión de crisis regulatorias')
    }
    const none = await tabLoader('?buscar=%25', people.premium.cookie)
    expect(none.data.library.items).toEqual([])
  })

  test('a member without premium gets the admission prompt and nothing of the library', async () => {
    const outcome = await tabLoader('', people.member.cookie)
    expect(outcome.data).toEqual({ hasAccess: false })
  })

  test("the video page's edit link lands on the tab with the edit dialog open", async () => {
    const id = crypto.randomUUID()
    const outcome = await run(() =>
      layoutRoute.loader({
        request: getRequest(`/comunidad?edit=${id}`, { cookie: people.admin.cookie }),
        params: {},
        context: {},
      } as never),
    )
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe(`/comunidad/sesiones?editar=${id}`)
  })

  test('editing changes the texts, replaces the PDF and removes the old one', async () => {
    const sessionId = await createPublished({ title: 'Antes' })
    const first = await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'update-session', sessionId, ...FIELDS, title: 'Después', videoSize: '', videoType: '' },
        { pdf: { bytes: Buffer.from('%PDF-1.4 uno'), name: 'uno.pdf', type: 'application/pdf' } },
        people.admin.cookie,
      ),
    )
    expect(first.data.message.title).toBe('Sesión actualizada')
    const [before] = await getDb().select().from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    await tabAction(
      multipart(
        '/comunidad/sesiones',
        { intent: 'update-session', sessionId, ...FIELDS, title: 'Después', videoSize: '', videoType: '', removePdf: 'on' },
        {},
        people.admin.cookie,
      ),
    )
    const [after] = await getDb().select().from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    expect(after).toMatchObject({ title: 'Después', pdfKey: null, pdfName: null, publicationStatus: 'published' })
    expect(await getStorage().size(before!.pdfKey!)).toBeNull()
    const editing = await tabLoader(`?editar=${sessionId}`, people.admin.cookie)
    expect(editing.data.editing).toMatchObject({ id: sessionId, title: 'Después', sessionDate: '2026-11-05T19:00' })
  })
})

describe("the library's pages", () => {
  test("12 cards a page; 'Cargar más' goes on after the last one, search kept, each session once", async () => {
    // Straight into the table, older than every other session, two at the same instant at each date.
    const rows = await getDb()
      .insert(ceoSessions)
      .values(
        Array.from({ length: 27 }, (_, index) => ({
          title: `Archivo ${index}`,
          summary: '',
          description: '',
          ceoName: 'Nora Paginada',
          ceoPosition: 'CEO',
          ceoCompany: 'Páginas',
          sessionDate: new Date(Date.UTC(2019, 0, 1 + Math.floor(index / 2))),
          searchText: 'archivo nora paginada',
          videoProvider: 'local' as const,
          publicationStatus: 'published' as const,
        })),
      )
      .returning({ id: ceoSessions.id })
    const first = (await tabLoader('?buscar=paginada', people.premium.cookie)).data.library
    expect(first.items).toHaveLength(12)
    const seen: string[] = first.items.map((card: { id: string }) => card.id)
    for (let next = first.next; next;) {
      const page = await run(() =>
        pageRoute.loader({
          request: getRequest(`/comunidad/sesiones/pagina?buscar=paginada&cursor=${next}`, { cookie: people.premium.cookie }),
          params: {},
          context: {},
        } as never),
      )
      seen.push(...page.data.items.map((card: { id: string }) => card.id))
      next = page.data.next
    }
    expect(seen.toSorted()).toEqual(rows.map((row) => row.id).toSorted())
    // Without premium the next page is refused like the tab.
    const refused = await run(() =>
      pageRoute.loader({
        request: getRequest('/comunidad/sesiones/pagina', { cookie: people.member.cookie }),
        params: {},
        context: {},
      } as never),
    )
    expect(refused.status).toBe(403)
  })
})
