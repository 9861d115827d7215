import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { jobs } from '~/platform/jobs/schema'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { getStorage } from '~/platform/storage/storage.server'
import * as uploadsRoute from '~/platform/storage/uploads.route'
import { communityCounters } from '~/features/community/schema'
import { linkOf } from '~/features/notifications/grouping'
import { notifications } from '~/features/notifications/schema'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPeople, createPersona, type Persona } from '../../../tests/setup/members'
import { BASE_URL, getRequest, run, TEST_IP } from '../../../tests/setup/requests'
import { VIDEO_MAX_BYTES } from './limits'
import { expireAbandonedUploads, localVideoProvider, UPLOAD_MESSAGES } from './local-video.server'
import { ceoSessions, videoUploads } from './schema'
import { deleteSession } from './sessions.server'
import { newSession as createSessionFor } from '../../../tests/setup/sessions'
import { handleVideoUpload } from './video-upload.server'

useTestDatabase()

const VIDEO = readFileSync(path.resolve('tests/fixtures/session.webm'))
const HAS_FFMPEG = ['ffprobe', 'ffmpeg'].every((tool) => {
  try {
    execFileSync(tool, ['-version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})
// CI installs ffmpeg, so there its absence fails the tests that need it; elsewhere they are skipped.
const needsFfmpeg = test.skipIf(!HAS_FFMPEG && !process.env.CI)

let people: Record<Persona | 'otherAdmin', Awaited<ReturnType<typeof createPersona>>>

beforeAll(async () => {
  people = { ...(await createPeople()), otherAdmin: undefined! }
  people.otherAdmin = await createPersona('admin', { firstName: 'Otra', lastName: 'Admin' })
})

const newSession = (createdBy = people.admin.userId!) => createSessionFor(createdBy)

function put(uploadUrl: string, { cookie, range, body, length }: { cookie?: string; range: string; body?: Uint8Array; length?: number }) {
  const headers = new Headers({ Origin: BASE_URL, 'x-app-client-ip': TEST_IP, 'Content-Range': range, 'Content-Type': 'video/webm' })
  if (cookie) headers.set('Cookie', cookie)
  if (length !== undefined) headers.set('Content-Length', String(length))
  else if (body) headers.set('Content-Length', String(body.length))
  const request = new Request(`${BASE_URL}${uploadUrl}`, { method: 'PUT', headers, body: body ? new Uint8Array(body) : null })
  const uploadId = uploadUrl.split('/').pop()!
  return run(() => handleVideoUpload(request, uploadId))
}

/** Sends `bytes` in chunks of `size`, as @mux/upchunk does. */
async function upload(uploadUrl: string, bytes: Uint8Array, size: number, cookie = people.admin.cookie) {
  const statuses: number[] = []
  for (let start = 0; start < bytes.length; start += size) {
    const end = Math.min(start + size, bytes.length) - 1
    const outcome = await put(uploadUrl, { cookie, range: `bytes ${start}-${end}/${bytes.length}`, body: bytes.subarray(start, end + 1) })
    statuses.push(outcome.status)
  }
  return statuses
}

const sessionRow = async (id: string) => (await getDb().select().from(ceoSessions).where(eq(ceoSessions.id, id)))[0]!
const uploadRow = async (sessionId: string) => (await getDb().select().from(videoUploads).where(eq(videoUploads.sessionId, sessionId)))[0]
const partFile = (uploadUrl: string) => path.join(getEnv().DATA_DIR, 'video-uploads', `${uploadUrl.split('/').pop()}.part`)
const publishedCount = async () =>
  (await getDb().select().from(communityCounters).where(eq(communityCounters.name, 'published_sessions')))[0]?.value

describe('embedded video upload', () => {
  test('chunks in order reach 201, and the job stores the video and publishes the session once', async () => {
    const before = await publishedCount()
    const { sessionId, uploadUrl } = await newSession()
    expect((await sessionRow(sessionId)).publicationStatus).toBe('processing')
    expect(uploadUrl).toMatch(/^\/comunidad\/sesiones\/subidas\/[\w-]{32}$/)

    const statuses = await upload(uploadUrl, VIDEO, 4096)
    expect(statuses.slice(0, -1).every((status) => status === 308)).toBe(true)
    expect(statuses.at(-1)).toBe(201)
    expect((await sessionRow(sessionId)).uploadStatus).toBe('processing')

    await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
    const row = await sessionRow(sessionId)
    expect(row.publicationStatus).toBe('published')
    expect(row.uploadStatus).toBe('ready')
    expect(row.videoContentType).toBe('video/webm')
    expect(row.videoKey).toMatch(new RegExp(`^sessions/${sessionId}/video_\\d+\\.webm$`))
    const stored = await getStorage().get(row.videoKey!)
    expect(Buffer.from(await new Response(stored!.body).arrayBuffer()).equals(VIDEO)).toBe(true)
    expect(existsSync(partFile(uploadUrl))).toBe(false)
    expect(await publishedCount()).toBe((before ?? 0) + 1)

    // The last chunk sent again (its answer lost) changes nothing and queues nothing more.
    const again = await put(uploadUrl, { cookie: people.admin.cookie, range: `bytes */${VIDEO.length}` })
    expect(again.status).toBe(201)
    const queued = await getDb().select({ id: jobs.id }).from(jobs).where(eq(jobs.name, 'ceo-sessions.process-local-video'))
    expect(queued.length).toBeGreaterThanOrEqual(1)
    expect(await runDueJobs({ names: ['ceo-sessions.process-local-video'] })).toBe(0)
    expect(await publishedCount()).toBe((before ?? 0) + 1)
  })

  needsFfmpeg(
    'needs ffmpeg (required in CI, skipped elsewhere without it): the duration is read, a poster frame becomes the thumbnail, deleting the session removes it',
    async () => {
      expect(HAS_FFMPEG, 'ffmpeg and ffprobe are not installed').toBe(true)
      const { sessionId, uploadUrl } = await newSession()
      await upload(uploadUrl, VIDEO, 8192)
      await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
      const row = await sessionRow(sessionId)
      // 2 seconds round up to the 1 minute a card shows.
      expect(row.durationMinutes).toBe(1)
      expect(row.thumbnailKey).toMatch(/poster_\d+\.webp$/)
      expect(await getStorage().size(row.thumbnailKey!)).toBeGreaterThan(0)
      await deleteSession(sessionId)
      expect(await getStorage().size(row.thumbnailKey!)).toBeNull()
    },
  )

  test('without ffmpeg the video is published all the same, with no duration and no poster', async () => {
    const { sessionId, uploadUrl } = await newSession()
    await upload(uploadUrl, VIDEO, 8192)
    const searchPath = process.env.PATH
    process.env.PATH = mkdtempSync(path.join(tmpdir(), 'no-ffmpeg-'))
    try {
      await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
    } finally {
      process.env.PATH = searchPath
    }
    expect(await sessionRow(sessionId)).toMatchObject({ publicationStatus: 'published', durationMinutes: null, thumbnailKey: null })
  })

  test('an interrupted upload resumes from where the server says it got to', async () => {
    const { sessionId, uploadUrl } = await newSession()
    const half = 6000
    expect(
      (await put(uploadUrl, { cookie: people.admin.cookie, range: `bytes 0-${half - 1}/${VIDEO.length}`, body: VIDEO.subarray(0, half) }))
        .status,
    ).toBe(308)
    // The connection drops in the middle of the next chunk: fewer bytes than announced.
    const dropped = await put(uploadUrl, {
      cookie: people.admin.cookie,
      range: `bytes ${half}-${VIDEO.length - 1}/${VIDEO.length}`,
      body: VIDEO.subarray(half, half + 100),
      length: VIDEO.length - half,
    })
    expect(dropped.status).toBe(400)
    expect(dropped.data.message.title).toBe(UPLOAD_MESSAGES.truncated)
    // Asking how far it got: the Range says the first half.
    const status = await put(uploadUrl, { cookie: people.admin.cookie, range: `bytes */${VIDEO.length}` })
    expect(status.status).toBe(308)
    expect(status.headers.get('Range')).toBe(`bytes=0-${half - 1}`)
    const rest = await put(uploadUrl, {
      cookie: people.admin.cookie,
      range: `bytes ${half}-${VIDEO.length - 1}/${VIDEO.length}`,
      body: VIDEO.subarray(half),
    })
    expect(rest.status).toBe(201)
    await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
    const row = await sessionRow(sessionId)
    expect(row.publicationStatus).toBe('published')
    const stored = await getStorage().get(row.videoKey!)
    expect(Buffer.from(await new Response(stored!.body).arrayBuffer()).equals(VIDEO)).toBe(true)
  })

  test('who may upload: anonymous to sign-in, members and moderators 403, another admin 404', async () => {
    const { uploadUrl, sessionId } = await newSession()
    const chunk = { range: `bytes 0-99/${VIDEO.length}`, body: VIDEO.subarray(0, 100) }
    expect((await put(uploadUrl, chunk)).status).toBe(302)
    expect((await put(uploadUrl, { ...chunk, cookie: people.member.cookie })).status).toBe(403)
    expect((await put(uploadUrl, { ...chunk, cookie: people.premium.cookie })).status).toBe(403)
    expect((await put(uploadUrl, { ...chunk, cookie: people.moderator.cookie })).status).toBe(403)
    const other = await put(uploadUrl, { ...chunk, cookie: people.otherAdmin.cookie })
    expect(other.status).toBe(404)
    expect(other.data.message.title).toBe(UPLOAD_MESSAGES.notFound)
    expect((await put('/comunidad/sesiones/subidas/inventado', { ...chunk, cookie: people.admin.cookie })).status).toBe(404)
    expect((await uploadRow(sessionId))?.receivedBytes).toBe(0)
    expect(existsSync(partFile(uploadUrl))).toBe(false)
  })

  test('hostile chunks are refused with a Spanish message and leave nothing behind', async () => {
    const { uploadUrl, sessionId } = await newSession()
    const cookie = people.admin.cookie
    const total = VIDEO.length
    const { range, tooLarge, outOfOrder } = UPLOAD_MESSAGES
    const cases: Array<[string, Parameters<typeof put>[1], number, string]> = [
      ['no Content-Range', { cookie, range: '', body: VIDEO.subarray(0, 10) }, 400, range],
      ['garbage Content-Range', { cookie, range: 'bytes=0-9', body: VIDEO.subarray(0, 10) }, 400, range],
      ['end past the declared size', { cookie, range: `bytes 0-${total}/${total}`, body: VIDEO.subarray(0, total) }, 416, range],
      ['end before start', { cookie, range: `bytes 10-5/${total}`, body: VIDEO.subarray(0, 10) }, 416, range],
      ['over 500 MB declared', { cookie, range: `bytes 0-9/${VIDEO_MAX_BYTES + 1}`, body: VIDEO.subarray(0, 10) }, 413, tooLarge],
      ['a chunk that does not start at 0', { cookie, range: `bytes 100-199/${total}`, body: VIDEO.subarray(100, 200) }, 409, outOfOrder],
      ['a body longer than its range', { cookie, range: `bytes 0-9/${total}`, body: VIDEO.subarray(0, 20), length: 10 }, 400, range],
    ]
    for (const [name, request, status, message] of cases) {
      const outcome = await put(uploadUrl, request)
      expect(outcome.status, name).toBe(status)
      expect(outcome.data.message.title, name).toBe(message)
    }
    expect((await uploadRow(sessionId))?.receivedBytes).toBe(0)

    // Overlapping: after 0-999, a chunk 500-1499 neither continues nor repeats one.
    expect((await put(uploadUrl, { cookie, range: `bytes 0-999/${total}`, body: VIDEO.subarray(0, 1000) })).status).toBe(308)
    const overlap = await put(uploadUrl, { cookie, range: `bytes 500-1499/${total}`, body: VIDEO.subarray(500, 1500) })
    expect(overlap.status).toBe(409)
    expect(overlap.headers.get('Range')).toBe('bytes=0-999')
    // A different total than the upload started with.
    expect((await put(uploadUrl, { cookie, range: `bytes 1000-1999/${total + 5}`, body: VIDEO.subarray(1000, 2000) })).status).toBe(409)
    expect((await uploadRow(sessionId))?.receivedBytes).toBe(1000)
  })

  test('a file named .mp4 that is not a video is refused at its first chunk, and its bytes removed', async () => {
    const { uploadUrl, sessionId } = await newSession()
    const pdf = Buffer.from('%PDF-1.7\n' + 'x'.repeat(5000))
    const outcome = await put(uploadUrl, { cookie: people.admin.cookie, range: `bytes 0-${pdf.length - 1}/${pdf.length}`, body: pdf })
    expect(outcome.status).toBe(415)
    expect(outcome.data.message.title).toBe(UPLOAD_MESSAGES.type)
    expect(existsSync(partFile(uploadUrl))).toBe(false)
    expect((await uploadRow(sessionId))?.receivedBytes).toBe(0)
    expect((await sessionRow(sessionId)).publicationStatus).toBe('processing')
  })

  test('two requests writing the same chunk at once: one is written, the other told so, bytes intact', async () => {
    const { uploadUrl, sessionId } = await newSession()
    const chunk = { cookie: people.admin.cookie, range: `bytes 0-4095/${VIDEO.length}`, body: VIDEO.subarray(0, 4096) }
    const outcomes = await Promise.all([put(uploadUrl, chunk), put(uploadUrl, chunk), put(uploadUrl, chunk)])
    const statuses = outcomes.map((outcome) => outcome.status).sort()
    expect(statuses.filter((status) => status === 308).length).toBeGreaterThanOrEqual(1)
    expect(statuses.every((status) => status === 308 || status === 409)).toBe(true)
    expect((await uploadRow(sessionId))?.receivedBytes).toBe(4096)
    const written = await readFile(partFile(uploadUrl))
    expect(written.subarray(0, 4096).equals(VIDEO.subarray(0, 4096))).toBe(true)
  })

  test('deleting a session removes its stored video and unfinished upload', async () => {
    const done = await newSession()
    await upload(done.uploadUrl, VIDEO, 8192)
    await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
    const row = await sessionRow(done.sessionId)
    expect(await getStorage().size(row.videoKey!)).toBe(VIDEO.length)
    expect(await deleteSession(done.sessionId)).toEqual({ filesLeft: false })
    expect(await getStorage().size(row.videoKey!)).toBeNull()

    const unfinished = await newSession()
    await put(unfinished.uploadUrl, { cookie: people.admin.cookie, range: `bytes 0-999/${VIDEO.length}`, body: VIDEO.subarray(0, 1000) })
    expect(existsSync(partFile(unfinished.uploadUrl))).toBe(true)
    await deleteSession(unfinished.sessionId)
    expect(existsSync(partFile(unfinished.uploadUrl))).toBe(false)
    expect(await uploadRow(unfinished.sessionId)).toBeUndefined()
  })

  test('an upload left unfinished for a day fails its session and its bytes are removed; a recent one stays', async () => {
    const stale = await newSession()
    await put(stale.uploadUrl, { cookie: people.admin.cookie, range: `bytes 0-999/${VIDEO.length}`, body: VIDEO.subarray(0, 1000) })
    const recent = await newSession()
    await put(recent.uploadUrl, { cookie: people.admin.cookie, range: `bytes 0-999/${VIDEO.length}`, body: VIDEO.subarray(0, 1000) })
    // Seen 25 hours from now, the first upload is a day old; the second is made to look 23 hours old.
    const now = new Date(Date.now() + 25 * 60 * 60 * 1000)
    await getDb()
      .update(videoUploads)
      .set({ createdAt: new Date(now.getTime() - 23 * 60 * 60 * 1000) })
      .where(eq(videoUploads.sessionId, recent.sessionId))
    // Earlier tests of this file left unfinished uploads too: they are as old as the first one.
    expect(await expireAbandonedUploads(now)).toBeGreaterThanOrEqual(1)
    expect(await sessionRow(stale.sessionId)).toMatchObject({ publicationStatus: 'failed', uploadStatus: 'failed' })
    // Its creator hears of it once ('Sesión creada' promised a word either way), even if it is noticed again.
    await expireAbandonedUploads(now)
    const told = await getDb().select().from(notifications).where(eq(notifications.relatedSessionId, stale.sessionId))
    expect(told).toEqual([
      expect.objectContaining({ userId: people.admin.userId, type: 'session_failed', title: 'Error en el procesamiento' }),
    ])
    expect(linkOf({ ...told[0]!, type: 'session_failed' })).toBe('/comunidad/sesiones')
    expect(existsSync(partFile(stale.uploadUrl))).toBe(false)
    expect(await uploadRow(stale.sessionId)).toBeUndefined()
    expect(await sessionRow(recent.sessionId)).toMatchObject({ publicationStatus: 'processing' })
    expect(existsSync(partFile(recent.uploadUrl))).toBe(true)
  })
})

describe('video playback from storage', () => {
  test('a signed link answers ranges with 206 from the file, bad ranges with 416', async () => {
    const { sessionId, uploadUrl } = await newSession()
    await upload(uploadUrl, VIDEO, 8192)
    await runDueJobs({ names: ['ceo-sessions.process-local-video'] })
    const row = await sessionRow(sessionId)
    const playback = await localVideoProvider().playback(row)
    expect(playback?.type).toBe('video/webm')
    const fetchRange = (range?: string) => {
      const request = getRequest(playback!.src)
      if (range) request.headers.set('Range', range)
      const key = playback!.src.slice('/uploads/'.length).split('?')[0]!
      return uploadsRoute.loader({ request, params: { '*': key }, context: {} } as never) as Promise<Response>
    }
    const partial = await fetchRange('bytes=100-199')
    expect(partial.status).toBe(206)
    expect(partial.headers.get('Content-Range')).toBe(`bytes 100-199/${VIDEO.length}`)
    expect(partial.headers.get('Accept-Ranges')).toBe('bytes')
    expect(Buffer.from(await partial.arrayBuffer()).equals(VIDEO.subarray(100, 200))).toBe(true)
    const tail = await fetchRange('bytes=-50')
    expect(Buffer.from(await tail.arrayBuffer()).equals(VIDEO.subarray(VIDEO.length - 50))).toBe(true)
    const whole = await fetchRange()
    expect(whole.status).toBe(200)
    expect(whole.headers.get('Content-Type')).toBe('video/webm')
    expect(whole.headers.get('Content-Disposition')).toMatch(/^inline/)
    const bad = await fetchRange(`bytes=${VIDEO.length}-`)
    expect(bad.status).toBe(416)
    expect(bad.headers.get('Content-Range')).toBe(`bytes */${VIDEO.length}`)
    // Without the signature there is nothing to see.
    const unsigned = await uploadsRoute.loader({
      request: getRequest(`/uploads/${row.videoKey}`),
      params: { '*': row.videoKey! },
      context: {},
    } as never)
    expect((unsigned as Response).status).toBe(404)
  })
})
