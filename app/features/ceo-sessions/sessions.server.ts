import { eq, sql } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import { getDb } from '~/platform/db/client.server'
import { logger } from '~/platform/logger.server'
import { getStorage } from '~/platform/storage/storage.server'
import { ceoSessions, videoUploads } from './schema'
import type { SessionFields } from './types'
import { getVideoProvider } from './video-provider.server'

/** What search compares: lower case without accents, so 'gestion' finds 'Gestión'. */
export function searchTextOf(fields: Pick<SessionFields, 'title' | 'summary' | 'description' | 'ceoName' | 'ceoCompany' | 'tags'>) {
  return [fields.title, fields.ceoName, fields.ceoCompany, fields.summary, fields.description, ...fields.tags]
    .join(' ')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
}

/** Stored files of a session (storage keys), as the form's files became. */
export interface SessionFiles {
  thumbnailKey?: string | null
  pdfKey?: string | null
  pdfName?: string | null
  captionsKey?: string | null
}

/**
 * A new session, processing until its video is ready (spec 001 §4), and where the browser
 * sends the video. The caller has checked the 'manage-sessions' capability and stored the
 * session's files under `sessionId`.
 */
export async function createSession(
  fields: SessionFields,
  {
    sessionId = crypto.randomUUID(),
    createdBy,
    origin,
    files = {},
  }: { sessionId?: string; createdBy: string; origin: string; files?: SessionFiles },
) {
  const provider = await getVideoProvider()
  const [session] = await getDb()
    .insert(ceoSessions)
    .values({ id: sessionId, ...fields, ...files, searchText: searchTextOf(fields), videoProvider: provider.kind, createdBy })
    .returning({ id: ceoSessions.id })
  if (!session) throw new Error('ceo session insert returned nothing')
  try {
    const upload = await provider.createUpload({ sessionId: session.id, userId: createdBy, origin })
    await getDb().update(ceoSessions).set({ uploadId: upload.uploadId }).where(eq(ceoSessions.id, session.id))
    return { sessionId: session.id, ...upload }
  } catch (error) {
    // Without an upload address the session could never get its video: nothing is kept.
    await getDb().delete(ceoSessions).where(eq(ceoSessions.id, session.id))
    throw error
  }
}

/** New texts and, where given, new files (the caller removes the replaced ones after this commits). */
export async function updateSession(sessionId: string, fields: SessionFields, files: SessionFiles) {
  await getDb()
    .update(ceoSessions)
    .set({ ...fields, ...files, searchText: searchTextOf(fields), updatedAt: sql`now()` })
    .where(eq(ceoSessions.id, sessionId))
}

/**
 * A new video for a session: the old one is removed, the session goes back to processing until
 * the new one is ready (it leaves the library meanwhile), and the browser gets a new address.
 */
export async function replaceVideo(sessionId: string, { userId, origin }: { userId: string; origin: string }) {
  const session = await getSessionRecord(sessionId)
  if (!session) return null
  const provider = await getVideoProvider()
  await provider.deleteVideo(session).catch((error: unknown) => logger.error({ err: error, sessionId }, 'ceo session video not deleted'))
  await getDb().delete(videoUploads).where(eq(videoUploads.sessionId, sessionId))
  const upload = await provider.createUpload({ sessionId, userId, origin })
  await getDb()
    .update(ceoSessions)
    .set({
      videoProvider: provider.kind,
      uploadId: upload.uploadId,
      videoKey: null,
      videoContentType: null,
      muxAssetId: null,
      muxPlaybackId: null,
      uploadStatus: 'waiting',
      publicationStatus: 'processing',
      failureReason: null,
      publishedAt: null,
      updatedAt: sql`now()`,
    })
    .where(eq(ceoSessions.id, sessionId))
  return { sessionId, ...upload }
}

/** Who owns a session, its state and what it holds: for the guards, the edits and the deletion. */
export function getSessionRecord(sessionId: string) {
  return findSession(sessionId, {
    id: ceoSessions.id,
    title: ceoSessions.title,
    createdBy: ceoSessions.createdBy,
    publicationStatus: ceoSessions.publicationStatus,
    videoKey: ceoSessions.videoKey,
    videoContentType: ceoSessions.videoContentType,
    muxPlaybackId: ceoSessions.muxPlaybackId,
    muxAssetId: ceoSessions.muxAssetId,
    uploadId: ceoSessions.uploadId,
    videoProvider: ceoSessions.videoProvider,
    thumbnailKey: ceoSessions.thumbnailKey,
    pdfKey: ceoSessions.pdfKey,
    captionsKey: ceoSessions.captionsKey,
  })
}

/** A session's `columns` by its id, or null. */
export async function findSession<Columns extends SelectedFields>(sessionId: string, columns: Columns) {
  // Drizzle's builder loses its row type over a generic selection: the rows are `columns`' values.
  const rows = (await getDb()
    .select(columns)
    .from(ceoSessions)
    .where(eq(ceoSessions.id, sessionId))
    .limit(1)) as SelectResultFields<Columns>[]
  return rows[0] ?? null
}

/** Deletes a session with its stored files and its video wherever it lives. */
/** Deletes a session; `filesLeft` when its video or a file could not be removed (the operator's log says which). */
export async function deleteSession(sessionId: string) {
  const session = await getSessionRecord(sessionId)
  if (!session) return null
  await getDb().delete(ceoSessions).where(eq(ceoSessions.id, sessionId))
  // After the row: a file left behind by a failure below is only an orphan, never a session
  // pointing at a missing file. Each failure is logged for the operator.
  let filesLeft = false
  const left = (what: Record<string, unknown>) => (error: unknown) => {
    filesLeft = true
    logger.error({ err: error, ...what }, 'ceo session file not deleted')
  }
  const storage = getStorage()
  for (const key of [session.thumbnailKey, session.pdfKey, session.captionsKey]) {
    if (key) await storage.delete(key).catch(left({ key }))
  }
  const provider = await getVideoProvider()
  await provider.deleteVideo(session).catch(left({ sessionId }))
  return { filesLeft }
}
