import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { promisify } from 'node:util'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import type { RefusalStatus } from '~/platform/http/responses.server'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { encodeThumbnail } from '~/platform/storage/image.server'
import { signedUploadUrl, SIGNED_URL_SECONDS } from '~/platform/storage/signed-url.server'
import { getStorage } from '~/platform/storage/storage.server'
import { VIDEO_CHUNK_BYTES, VIDEO_MAX_BYTES } from './limits'
import { videoUploads } from './schema'
import type { VideoProvider } from './video-provider.types'
import { markVideoFailed, markVideoProcessing, publishVideo } from './video-state.server'

/**
 * The embedded video provider: the app receives the same chunked upload as Mux's direct
 * uploads (PUT with Content-Range, 5120 KB chunks), resumable after a dropped connection, keeps
 * the bytes on disk as they arrive (never in memory), then a job moves the file to storage,
 * reads its duration and a poster frame when ffmpeg is installed, and publishes the session.
 */

export const UPLOAD_PATH = '/comunidad/sesiones/subidas/'
/** A request gets this long to write its chunk before another may take over. */
const WRITER_LEASE_SECONDS = 120

const incomingDir = () => path.join(getEnv().DATA_DIR, 'video-uploads')
const partFile = (uploadId: string) => path.join(incomingDir(), `${uploadId}.part`)

export function localVideoProvider(): VideoProvider {
  return {
    kind: 'local',
    async createUpload({ sessionId, userId }) {
      // Unguessable, and bound to its creator: the id alone lets nobody else write.
      const uploadId = randomBytes(24).toString('base64url')
      await getDb().insert(videoUploads).values({ id: uploadId, sessionId, createdBy: userId })
      return { uploadId, uploadUrl: `${UPLOAD_PATH}${uploadId}` }
    },
    async playback(session) {
      if (!session.videoKey) return null
      return {
        src: signedUploadUrl(session.videoKey, `sesion-${session.id}${path.extname(session.videoKey)}`),
        type: session.videoContentType ?? 'video/mp4',
        expiresAt: new Date(Date.now() + SIGNED_URL_SECONDS * 1000),
      }
    },
    async deleteVideo(session) {
      if (session.videoKey) await getStorage().delete(session.videoKey)
      if (session.uploadId) await rm(partFile(session.uploadId), { force: true })
    },
  }
}

// ---- Receiving chunks -------------------------------------------------------------------------

export type ChunkOutcome =
  | { kind: 'incomplete'; received: number }
  | { kind: 'complete'; received: number }
  | { kind: 'refused'; status: RefusalStatus; message: string; received?: number; detail: string }

export const UPLOAD_MESSAGES = {
  notFound: 'No se encontró la subida del video',
  range: 'El fragmento del video no es válido',
  tooLarge: 'Archivo muy grande. El límite máximo es 500MB.',
  outOfOrder: 'El fragmento no continúa la subida. Reanúdala desde el último fragmento recibido.',
  busy: 'Otra subida de este video está en curso',
  type: 'Tipo de archivo inválido. Solo se permiten videos MP4, WebM o MOV.',
  truncated: 'El fragmento llegó incompleto. Vuelve a intentarlo.',
  done: 'Este video ya se subió completo',
} as const

const refused = (status: RefusalStatus, message: string, detail: string, received?: number): ChunkOutcome => ({
  kind: 'refused',
  status,
  message,
  detail,
  ...(received === undefined ? {} : { received }),
})

// `bytes 0-5242879/10000000`, or `bytes */10000000` to ask how far the upload has got.
export function parseContentRange(header: string | null) {
  const match = /^bytes (?:(\d{1,15})-(\d{1,15})|\*)\/(\d{1,15})$/.exec(header?.trim() ?? '')
  if (!match) return null
  const total = Number(match[3])
  if (match[1] === undefined) return { query: true as const, total }
  return { query: false as const, start: Number(match[1]), end: Number(match[2]), total }
}

/** The container from its first bytes: MP4 and MOV have an `ftyp` box, WebM is EBML. */
export function sniffVideo(head: Buffer): { extension: string; contentType: string } | null {
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = head.subarray(8, 12).toString('latin1')
    return brand === 'qt  ' ? { extension: 'mov', contentType: 'video/quicktime' } : { extension: 'mp4', contentType: 'video/mp4' }
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { extension: 'webm', contentType: 'video/webm' }
  return null
}

/**
 * Writes one chunk of an upload. The upload belongs to the admin who created it; each chunk
 * must start where the last one ended (a repeated chunk is answered as received); one request
 * writes at a time (a lease in the row, which also works across processes); the bytes go
 * straight to the file at their offset and count only once all of them arrived.
 */
export async function receiveChunk({
  uploadId,
  userId,
  contentRange,
  contentLength,
  body,
}: {
  uploadId: string
  userId: string
  contentRange: string | null
  contentLength: string | null
  body: ReadableStream<Uint8Array> | null
}): Promise<ChunkOutcome> {
  const db = getDb()
  const [upload] = await db
    .select({
      sessionId: videoUploads.sessionId,
      createdBy: videoUploads.createdBy,
      totalBytes: videoUploads.totalBytes,
      receivedBytes: videoUploads.receivedBytes,
      completedAt: videoUploads.completedAt,
    })
    .from(videoUploads)
    .where(eq(videoUploads.id, uploadId))
    .limit(1)
  // Another admin's upload is as unknown as a made-up id: nothing tells it exists.
  if (!upload || upload.createdBy !== userId) return refused(404, UPLOAD_MESSAGES.notFound, 'unknown upload or other creator')

  const range = parseContentRange(contentRange)
  if (!range || range.total <= 0) return refused(400, UPLOAD_MESSAGES.range, `bad Content-Range ${contentRange}`)
  if (range.total > VIDEO_MAX_BYTES) return refused(413, UPLOAD_MESSAGES.tooLarge, `declared ${range.total} bytes`)
  if (upload.totalBytes !== null && upload.totalBytes !== range.total) {
    return refused(409, UPLOAD_MESSAGES.range, `total ${range.total} differs from ${upload.totalBytes}`, upload.receivedBytes)
  }
  if (upload.completedAt) return { kind: 'complete', received: upload.receivedBytes }
  if (range.query) return { kind: 'incomplete', received: upload.receivedBytes }

  const { start, end, total } = range
  const length = end - start + 1
  if (end < start || end >= total) return refused(416, UPLOAD_MESSAGES.range, `range ${start}-${end}/${total}`)
  if (length > VIDEO_CHUNK_BYTES.max) return refused(413, UPLOAD_MESSAGES.range, `chunk of ${length} bytes`)
  if (contentLength !== null && Number(contentLength) !== length) {
    return refused(400, UPLOAD_MESSAGES.range, `Content-Length ${contentLength} for ${length} bytes`)
  }
  // A retry of a chunk we already have (its answer was lost): nothing to write.
  if (end < upload.receivedBytes) return { kind: 'incomplete', received: upload.receivedBytes }
  if (start !== upload.receivedBytes) {
    return refused(409, UPLOAD_MESSAGES.outOfOrder, `chunk at ${start}, have ${upload.receivedBytes}`, upload.receivedBytes)
  }
  if (!body) return refused(400, UPLOAD_MESSAGES.truncated, 'no body', upload.receivedBytes)

  const leased = await db
    .update(videoUploads)
    .set({ writerUntil: sql`now() + make_interval(secs => ${WRITER_LEASE_SECONDS}::int)`, totalBytes: total })
    .where(
      and(
        eq(videoUploads.id, uploadId),
        eq(videoUploads.receivedBytes, start),
        isNull(videoUploads.completedAt),
        or(isNull(videoUploads.writerUntil), lt(videoUploads.writerUntil, sql`now()`)),
      ),
    )
    .returning({ id: videoUploads.id })
  if (leased.length === 0) return refused(409, UPLOAD_MESSAGES.busy, 'lease held by another request', upload.receivedBytes)

  const release = () => db.update(videoUploads).set({ writerUntil: null }).where(eq(videoUploads.id, uploadId))
  let written = 0
  let rejection: ChunkOutcome | null = null
  try {
    await mkdir(incomingDir(), { recursive: true })
    // The file's first bytes are held until there are enough to tell a video (16), however
    // small the pieces the body arrives in.
    let head: Buffer | null = start === 0 ? Buffer.alloc(0) : null
    const notVideo = () => {
      rejection = refused(415, UPLOAD_MESSAGES.type, 'first bytes are not MP4, MOV or WebM')
      return new Error('not a video')
    }
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length
        if (written > length) {
          rejection = refused(400, UPLOAD_MESSAGES.range, `body longer than ${length} bytes`, start)
          return callback(new Error('body too long'))
        }
        if (!head) return callback(null, chunk)
        head = Buffer.concat([head, chunk])
        if (head.length < 16) return callback()
        const checked = head
        head = null
        return sniffVideo(checked) ? callback(null, checked) : callback(notVideo())
      },
      flush(callback) {
        if (!head || head.length === 0) return callback()
        return sniffVideo(head) ? callback(null, head) : callback(notVideo())
      },
    })
    await pipeline(
      Readable.fromWeb(body as WebReadableStream<Uint8Array>),
      guard,
      createWriteStream(partFile(uploadId), { flags: start === 0 ? 'w' : 'r+', start }),
    )
  } catch (error) {
    await release()
    if (rejection) {
      if ((rejection as { status: number }).status === 415) await rm(partFile(uploadId), { force: true })
      return rejection
    }
    logger.info({ err: error, uploadId, start, written }, 'video chunk interrupted')
    return refused(400, UPLOAD_MESSAGES.truncated, 'connection dropped while writing', start)
  }
  if (written !== length) {
    await release()
    return refused(400, UPLOAD_MESSAGES.truncated, `got ${written} of ${length} bytes`, start)
  }

  const received = end + 1
  const complete = received === total
  await db.transaction(async (tx) => {
    await tx
      .update(videoUploads)
      .set({ receivedBytes: received, writerUntil: null, ...(complete ? { completedAt: sql`now()` } : {}) })
      .where(eq(videoUploads.id, uploadId))
    if (complete) {
      await markVideoProcessing(upload.sessionId, {}, tx)
      await enqueue(processLocalVideoJob, { uploadId }, { executor: tx, dedupeKey: uploadId })
    }
  })
  return { kind: complete ? 'complete' : 'incomplete', received }
}

// ---- Processing -------------------------------------------------------------------------------

const run = promisify(execFile)

/** Seconds of video per ffprobe, or null without ffprobe (the README says how to install it). */
async function probeDurationSeconds(file: string) {
  try {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
      timeout: 60_000,
    })
    const seconds = Number.parseFloat(stdout.trim())
    return Number.isFinite(seconds) && seconds > 0 ? seconds : null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new ProbeError(error)
  }
}

class ProbeError extends Error {
  constructor(cause: unknown) {
    super('ffprobe could not read the video', { cause })
  }
}

async function posterFrame(file: string, seconds: number | null) {
  const dir = await mkdtemp(path.join(tmpdir(), 'poster-'))
  try {
    const out = path.join(dir, 'poster.png')
    const at = seconds ? Math.min(5, seconds / 3) : 0
    await run('ffmpeg', ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-vf', 'scale=1280:-2', out], { timeout: 60_000 })
    return await encodeThumbnail(await readFile(out))
  } catch {
    return null
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export const processLocalVideoJob = defineJob<{ uploadId: string }>({
  name: 'ceo-sessions.process-local-video',
  label: 'Procesado de vídeo',
  timeoutSeconds: 15 * 60,
  async run({ uploadId }) {
    const db = getDb()
    const [upload] = await db
      .select({ sessionId: videoUploads.sessionId, totalBytes: videoUploads.totalBytes })
      .from(videoUploads)
      .where(eq(videoUploads.id, uploadId))
      .limit(1)
    // The session was deleted meanwhile (its upload row went with it).
    if (!upload) return rm(partFile(uploadId), { force: true })
    const file = partFile(uploadId)
    const info = await stat(file).catch(() => null)
    if (!info || info.size !== upload.totalBytes) {
      await markVideoFailed(upload.sessionId, `upload file has ${info?.size ?? 'no'} bytes, expected ${upload.totalBytes}`)
      return
    }
    const head = Buffer.alloc(16)
    const handle = await open(file)
    await handle.read(head, 0, 16, 0).finally(() => handle.close())
    const type = sniffVideo(head)
    if (!type) {
      await markVideoFailed(upload.sessionId, 'not a video container')
      return
    }
    let seconds: number | null
    try {
      seconds = await probeDurationSeconds(file)
    } catch (error) {
      await markVideoFailed(upload.sessionId, `ffprobe: ${(error as Error).cause ?? error}`)
      return
    }
    const storage = getStorage()
    const videoKey = `sessions/${upload.sessionId}/video_${Date.now()}.${type.extension}`
    await storage.putFile(videoKey, file, type.contentType)
    let thumbnailKey: string | null = null
    const poster = seconds !== null ? await posterFrame(file, seconds) : null
    if (poster) {
      thumbnailKey = `sessions/${upload.sessionId}/poster_${Date.now()}.webp`
      await storage.put(thumbnailKey, poster, 'image/webp')
    }
    const published = await publishVideo(upload.sessionId, {
      videoKey,
      videoContentType: type.contentType,
      durationMinutes: seconds === null ? null : Math.max(1, Math.round(seconds / 60)),
      thumbnailKey,
    })
    if (!published) {
      // Deleted or failed meanwhile: do not leave its files behind.
      await storage.delete(videoKey)
      if (thumbnailKey) await storage.delete(thumbnailKey)
    }
    await rm(file, { force: true })
    logger.info({ sessionId: upload.sessionId, seconds, published }, 'ceo session video processed')
  },
})

// ---- Abandoned uploads --------------------------------------------------------------------------

/** An upload nobody finished in a day was abandoned (a 500 MB video takes minutes, not days). */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Sessions whose video never arrived: 'Error en el procesamiento' in the creator's panel (so they
 * can delete it or send the video again from the edit dialog), and their partial files removed.
 */
export async function expireAbandonedUploads(now = new Date()) {
  const abandoned = await getDb()
    .select({ id: videoUploads.id, sessionId: videoUploads.sessionId })
    .from(videoUploads)
    .where(and(isNull(videoUploads.completedAt), lt(videoUploads.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS))))
    .limit(500)
  for (const upload of abandoned) {
    await markVideoFailed(upload.sessionId, 'upload abandoned: no complete video after 24 hours')
    await rm(partFile(upload.id), { force: true })
    await getDb().delete(videoUploads).where(eq(videoUploads.id, upload.id))
  }
  return abandoned.length
}

export const expireUploadsJob = defineJob<Record<string, never>>({
  name: 'ceo-sessions.expire-uploads',
  label: 'Limpieza de subidas abandonadas',
  retry: () => null,
  async run() {
    await scheduleUploadExpiry(new Date(Date.now() + DAY_MS))
    await expireAbandonedUploads()
  },
})

/** Start-up (declared in parts.server.ts) and every run: once a day, one run across processes (keyed by the day). */
export function scheduleUploadExpiry(at = new Date()) {
  return enqueue(expireUploadsJob, {}, { runAt: at, dedupeKey: at.toISOString().slice(0, 10) })
}
