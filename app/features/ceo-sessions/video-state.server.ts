import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { logger } from '~/platform/logger.server'
import { notifyEveryoneInTransaction, notifyInTransaction } from '~/features/notifications/notifications.server'
import { ceoSessions } from './schema'

/**
 * A session's video moves through the states of spec 001 §4 only here, whichever provider
 * holds it (the app itself or Mux) and whoever learns the news first (the upload's last chunk,
 * a Mux webhook, the reconciliation job). Every step is one conditional UPDATE, so a webhook that
 * arrives twice or late, or two processes racing, cannot move a session backwards or publish it
 * twice.
 */

export interface ReadyVideo {
  videoKey?: string
  videoContentType?: string
  muxAssetId?: string
  muxPlaybackId?: string
  /** Filled only when the form left the duration empty. */
  durationMinutes?: number | null
  /** Filled only when the form gave no thumbnail. */
  thumbnailKey?: string | null
}

const sessionColumns = {
  id: ceoSessions.id,
  title: ceoSessions.title,
  createdBy: ceoSessions.createdBy,
  videoProvider: ceoSessions.videoProvider,
  uploadId: ceoSessions.uploadId,
  muxAssetId: ceoSessions.muxAssetId,
  muxPlaybackId: ceoSessions.muxPlaybackId,
  videoKey: ceoSessions.videoKey,
  uploadStatus: ceoSessions.uploadStatus,
  publicationStatus: ceoSessions.publicationStatus,
}

export type VideoStateRow = Awaited<ReturnType<typeof findSessionByUploadId>>

export async function findSessionByUploadId(uploadId: string, executor: DbExecutor = getDb()) {
  const [row] = await executor.select(sessionColumns).from(ceoSessions).where(eq(ceoSessions.uploadId, uploadId)).limit(1)
  return row ?? null
}

export async function findSessionByMuxAssetId(assetId: string, executor: DbExecutor = getDb()) {
  const [row] = await executor.select(sessionColumns).from(ceoSessions).where(eq(ceoSessions.muxAssetId, assetId)).limit(1)
  return row ?? null
}

/** The upload ended (all bytes here, or Mux made the asset): the video is being processed. */
export async function markVideoProcessing(sessionId: string, { muxAssetId }: { muxAssetId?: string } = {}, executor: DbExecutor = getDb()) {
  const updated = await executor
    .update(ceoSessions)
    .set({ uploadStatus: 'processing', ...(muxAssetId ? { muxAssetId } : {}), updatedAt: sql`now()` })
    .where(and(eq(ceoSessions.id, sessionId), inArray(ceoSessions.uploadStatus, ['waiting', 'processing'])))
    .returning({ id: ceoSessions.id })
  return updated.length > 0
}

/**
 * The video can be played: the session is published. Returns true only for the call that
 * published it; the same transaction tells every member ('Nueva sesión' in the bell), once.
 */
export async function publishVideo(sessionId: string, video: ReadyVideo, executor: DbExecutor = getDb()) {
  return executor.transaction(async (tx) => {
    const updated = await tx
      .update(ceoSessions)
      .set({
        uploadStatus: 'ready',
        publicationStatus: 'published',
        publishedAt: sql`now()`,
        updatedAt: sql`now()`,
        failureReason: null,
        ...(video.videoKey ? { videoKey: video.videoKey, videoContentType: video.videoContentType } : {}),
        ...(video.muxAssetId ? { muxAssetId: video.muxAssetId } : {}),
        ...(video.muxPlaybackId ? { muxPlaybackId: video.muxPlaybackId } : {}),
        ...(video.durationMinutes != null
          ? { durationMinutes: sql`coalesce(${ceoSessions.durationMinutes}, ${video.durationMinutes})` }
          : {}),
        ...(video.thumbnailKey ? { thumbnailKey: sql`coalesce(${ceoSessions.thumbnailKey}, ${video.thumbnailKey})` } : {}),
      })
      .where(and(eq(ceoSessions.id, sessionId), ne(ceoSessions.publicationStatus, 'published'), ne(ceoSessions.uploadStatus, 'failed')))
      .returning({ id: ceoSessions.id, title: ceoSessions.title, createdBy: ceoSessions.createdBy })
    const session = updated[0]
    if (!session) return false
    await notifyEveryoneInTransaction(tx, {
      actorId: session.createdBy,
      type: 'new_session',
      title: 'Nueva sesión',
      message: `Ya puedes ver «${session.title}»`,
      sessionId: session.id,
    })
    // 'Sesión creada' promised the creator to hear when it is published.
    if (session.createdBy) {
      await notifyInTransaction(tx, {
        recipientId: session.createdBy,
        actorId: null,
        type: 'session_published',
        title: 'Sesión publicada',
        message: `«${session.title}» ya está publicada y los miembros pueden verla`,
        sessionId: session.id,
      })
    }
    return true
  })
}

/** Processing failed: 'Error en el procesamiento' in the creator's panel; the reason goes to the log. */
export async function markVideoFailed(sessionId: string, reason: string, executor: DbExecutor = getDb()) {
  logger.warn({ sessionId, reason }, 'ceo session video failed')
  return executor.transaction(async (tx) => {
    const [session] = await tx
      .update(ceoSessions)
      .set({ uploadStatus: 'failed', publicationStatus: 'failed', failureReason: reason.slice(0, 500), updatedAt: sql`now()` })
      .where(and(eq(ceoSessions.id, sessionId), ne(ceoSessions.publicationStatus, 'published'), ne(ceoSessions.uploadStatus, 'failed')))
      .returning({ id: ceoSessions.id, title: ceoSessions.title, createdBy: ceoSessions.createdBy })
    if (!session) return false
    // The creator hears of it once, whoever noticed first (the job, a webhook, the reconciliation).
    if (session.createdBy) {
      await notifyInTransaction(tx, {
        recipientId: session.createdBy,
        actorId: null,
        type: 'session_failed',
        title: 'Error en el procesamiento',
        message: `No se pudo procesar el video de «${session.title}». Vuelve a subirlo desde la sesión.`,
        sessionId: session.id,
      })
    }
    return true
  })
}

/** Sessions of a provider still waiting for their video after `olderThan` (for reconciliation). */
export async function sessionsAwaitingVideo(provider: 'local' | 'mux', olderThan: Date, limit = 50) {
  return getDb()
    .select(sessionColumns)
    .from(ceoSessions)
    .where(
      and(
        eq(ceoSessions.videoProvider, provider),
        eq(ceoSessions.publicationStatus, 'processing'),
        inArray(ceoSessions.uploadStatus, ['waiting', 'processing']),
        lt(ceoSessions.updatedAt, olderThan),
      ),
    )
    .limit(limit)
}
