import { recordAudit } from '~/platform/audit/audit.server'
import { displayName } from '~/features/account/display-name'
import type { CurrentUser } from '~/features/account/guards.server'
import { requireAccess, requireCapability } from '~/platform/auth/guards.server'
import { can } from '~/platform/auth/capabilities'
import { handleIntent, refuse, REQUEST_MESSAGES, success } from '~/platform/http/responses.server'
import { logger } from '~/platform/logger.server'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { downloadName, isPdf } from '~/platform/storage/file-types.server'
import { encodeThumbnail, encodeUploadedImage } from '~/platform/storage/image.server'
import type { UploadedFile } from '~/platform/storage/multipart.server'
import { getStorage } from '~/platform/storage/storage.server'
import { commentHandlers } from '~/features/community/comments/comments.server'
import { toggleLike } from '~/features/community/comments/likes.server'
import { saveProgress } from './library.server'
import { CAPTIONS_MAX_BYTES, PDF_MAX_BYTES, SESSION_MESSAGES, THUMBNAIL_MAX_BYTES, tooLarge } from './limits'
import { SESSION_OPEN_WHILE_SUSPENDED, SessionIntent } from './schemas'
import { sessionComments, sessionLikeable } from './session-comments.server'
import { createSession, deleteSession, getSessionRecord, replaceVideo, type SessionFiles, updateSession } from './sessions.server'

type Input<K extends SessionIntent['intent']> = Extract<SessionIntent, { intent: K }>

/** The form's files: a thumbnail image, a PDF and a captions file, each optional. */
export const SESSION_FILE_LIMITS = {
  field: ['thumbnail', 'pdf', 'captions'],
  maxFiles: 3,
  maxFileBytes: PDF_MAX_BYTES,
  maxTotalBytes: PDF_MAX_BYTES + THUMBNAIL_MAX_BYTES + CAPTIONS_MAX_BYTES,
} as const

/**
 * The one action of the sessions feature, posted to by the Sesiones tab and the video page
 * (docs/decisions/0012): guard, form, intent, handler.
 */
export function sessionAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    SessionIntent,
    {
      'create-session': {
        invalid: SESSION_MESSAGES.required,
        failed: SESSION_MESSAGES.createFailed,
        run: (input, files) => createIntent(request, user, input, files),
      },
      'update-session': {
        invalid: SESSION_MESSAGES.required,
        failed: SESSION_MESSAGES.updateFailed,
        run: (input, files) => updateIntent(request, user, input, files),
      },
      'delete-session': { invalid: SESSION_MESSAGES.deleteFailed, run: (input) => deleteIntent(user, input) },
      'like-session': { invalid: SESSION_MESSAGES.reaction, run: (input) => likeIntent(user, input) },
      ...commentHandlers(sessionComments, user),
      'save-progress': { invalid: REQUEST_MESSAGES.invalid, run: (input) => progressIntent(user, input) },
    },
    {
      files: SESSION_FILE_LIMITS,
      messages: { 'file-too-large': SESSION_MESSAGES.fileTooLarge, 'too-large': SESSION_MESSAGES.fileTooLarge },
      openWhileSuspended: SESSION_OPEN_WHILE_SUSPENDED,
    },
  )
}

/** The app's own origin: Mux answers the browser's upload only from there. */
const originOf = (request: Request) => new URL(request.url).origin

function fieldsOf(input: Input<'create-session'> | Input<'update-session'>) {
  const { title, summary, description, ceoName, ceoPosition, ceoCompany, sessionDate, durationMinutes, tags, isFeatured } = input
  return { title, summary, description, ceoName, ceoPosition, ceoCompany, sessionDate, durationMinutes, tags, isFeatured }
}

async function createIntent(request: Request, user: CurrentUser, input: Input<'create-session'>, files: UploadedFile[]) {
  requireCapability(user, 'manage-sessions', SESSION_MESSAGES.createFailed)
  await enforceRateLimits([{ key: `session-create:${user.id}`, max: 30, windowSeconds: 60 * 60 }])
  const sessionId = crypto.randomUUID()
  const stored = await storeFiles(sessionId, files)
  try {
    const upload = await createSession(fieldsOf(input), { sessionId, createdBy: user.id, origin: originOf(request), files: stored.files })
    // 'Sesión creada' is shown once the video has arrived, by the dialog that sends it.
    return success({ sessionId, uploadUrl: upload.uploadUrl })
  } catch (error) {
    await removeKeys(stored.keys)
    throw error
  }
}

async function updateIntent(request: Request, user: CurrentUser, input: Input<'update-session'>, files: UploadedFile[]) {
  const session = await ownedSession(user, input.sessionId, SESSION_MESSAGES.updateFailed)
  const stored = await storeFiles(session.id, files)
  const replaced = [
    stored.files.thumbnailKey && session.thumbnailKey,
    (stored.files.pdfKey || input.removePdf) && session.pdfKey,
    stored.files.captionsKey && session.captionsKey,
  ].filter((key): key is string => Boolean(key))
  try {
    await updateSession(session.id, fieldsOf(input), {
      ...stored.files,
      ...(input.removePdf && !stored.files.pdfKey ? { pdfKey: null, pdfName: null } : {}),
    })
  } catch (error) {
    await removeKeys(stored.keys)
    throw error
  }
  await removeKeys(replaced)
  const upload = input.videoSize ? await replaceVideo(session.id, { userId: user.id, origin: originOf(request) }) : null
  return success({ sessionId: session.id, uploadUrl: upload?.uploadUrl ?? null }, { title: SESSION_MESSAGES.updated })
}

async function deleteIntent(user: CurrentUser, input: Input<'delete-session'>) {
  const session = await ownedSession(user, input.sessionId, SESSION_MESSAGES.deleteFailed)
  const deleted = await deleteSession(session.id)
  await recordAudit({ action: 'session_deleted', actorUserId: user.id, details: { sessionId: session.id, title: session.title } })
  // Spec 001 §8: the session is gone; a file that could not be removed is said, not hidden.
  return success(
    { sessionId: session.id },
    deleted?.filesLeft
      ? { title: SESSION_MESSAGES.deleted, description: SESSION_MESSAGES.filesLeft, type: 'info' }
      : { title: SESSION_MESSAGES.deleted },
  )
}

/** Spec 001 §6: the session's creator or an admin edits and deletes it. */
async function ownedSession(user: CurrentUser, sessionId: string, message: string) {
  const session = await getSessionRecord(sessionId)
  if (!session) refuse(404, message, { detail: { sessionId } })
  if (session.createdBy !== user.id && !can(user, 'manage-sessions')) refuse(403, message, { detail: { sessionId } })
  return session
}

/** Members with access act on published sessions only: a draft is nobody's to like or comment. */
async function publishedSession(sessionId: string, message: string) {
  const session = await getSessionRecord(sessionId)
  if (!session || session.publicationStatus !== 'published') refuse(404, message, { detail: { sessionId } })
  return session
}

async function likeIntent(user: CurrentUser, input: Input<'like-session'>) {
  requireAccess(user, 'Necesitas acceso premium para dar like')
  const session = await publishedSession(input.sessionId, SESSION_MESSAGES.reaction)
  const result = await toggleLike(sessionLikeable, { id: session.id, userId: user.id, actorName: displayName(user.profile) })
  return success({ sessionId: session.id, ...result })
}

async function progressIntent(user: CurrentUser, input: Input<'save-progress'>) {
  requireAccess(user)
  const session = await publishedSession(input.sessionId, SESSION_MESSAGES.notFound)
  await saveProgress(session.id, user.id, input.positionSeconds)
  return success({ sessionId: session.id })
}

/**
 * Checks each file by its bytes and stores it under the session: the thumbnail re-encoded (no
 * metadata, 16:9), the PDF as sent under a sanitized name, captions only when they are WebVTT.
 * A refusal removes what was already stored, so a rejected form leaves nothing behind.
 */
async function storeFiles(sessionId: string, files: UploadedFile[]) {
  const keys: string[] = []
  const stored: SessionFiles = {}
  const storage = getStorage()
  const stamp = Date.now()
  try {
    for (const file of files) {
      if (file.field === 'thumbnail') {
        if (file.buffer.length > THUMBNAIL_MAX_BYTES) refuse(413, tooLarge('thumbnail', file.buffer.length))
        const key = `sessions/${sessionId}/thumb_${stamp}.webp`
        await storage.put(key, await encodeUploadedImage(file.buffer, encodeThumbnail, SESSION_MESSAGES.imageType), 'image/webp')
        keys.push(key)
        stored.thumbnailKey = key
      } else if (file.field === 'pdf') {
        if (file.buffer.length > PDF_MAX_BYTES) refuse(413, tooLarge('pdf', file.buffer.length))
        if (!isPdf(file.buffer)) refuse(415, SESSION_MESSAGES.pdfType)
        const key = `sessions/${sessionId}/${stamp}.pdf`
        await storage.put(key, file.buffer, 'application/pdf')
        keys.push(key)
        stored.pdfKey = key
        stored.pdfName = downloadName(file.filename, 'pdf', 'documento')
      } else if (file.field === 'captions') {
        if (file.buffer.length > CAPTIONS_MAX_BYTES || !isWebVtt(file.buffer)) refuse(415, SESSION_MESSAGES.captionsType)
        const key = `sessions/${sessionId}/captions_${stamp}.vtt`
        await storage.put(key, file.buffer, 'text/vtt; charset=utf-8')
        keys.push(key)
        stored.captionsKey = key
      }
    }
  } catch (error) {
    await removeKeys(keys)
    throw error
  }
  return { files: stored, keys }
}

async function removeKeys(keys: string[]) {
  await Promise.all(
    keys.map((key) =>
      getStorage()
        .delete(key)
        .catch((error: unknown) => logger.warn({ err: error, key }, 'ceo session file not removed')),
    ),
  )
}

function isWebVtt(buffer: Buffer) {
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '')
  return /^WEBVTT(?:[ \t\r\n]|$)/.test(text) && !buffer.includes(0)
}
