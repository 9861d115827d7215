import { redirect } from 'react-router'
import { recordAudit } from '~/models/audit.server'
import { replaceAvatarUrl } from '~/models/profile.server'
import { encodeAvatar, sniffImageType } from '~/utils/image.server'
import { logger } from '~/utils/logger.server'
import { requireUser } from '~/utils/permissions.server'
import { AVATAR_ERRORS, AVATAR_MAX_BYTES } from '~/utils/profile-schemas'
import { clientIp } from '~/utils/rate-limit.server'
import { getStorage } from '~/utils/storage.server'
import { redirectWithToast } from '~/utils/toast.server'
import { readSingleFile } from '~/utils/upload.server'
import type { Route } from './+types/perfil.avatar'

export async function loader() {
  return redirect('/perfil')
}

/**
 * Members change only their own photo: the key comes from the session, never from the
 * request. The browser sends the cropped image (or, without JavaScript, the original);
 * the server checks size while streaming and type by content, then re-encodes it.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  const wantsJson = request.headers.get('accept')?.includes('application/json') ?? false
  const fail = async (message: string, status: number) =>
    wantsJson
      ? Response.json({ ok: false, error: message }, { status })
      : redirectWithToast('/perfil', { type: 'error', title: message })

  const upload = await readSingleFile(request, { field: 'avatar', maxBytes: AVATAR_MAX_BYTES })
  if (!upload.ok) {
    if (upload.reason === 'too-large') return fail(AVATAR_ERRORS.tooLarge, 413)
    return fail(AVATAR_ERRORS.notImage, 400)
  }
  if (!sniffImageType(upload.buffer)) {
    await recordAudit({ action: 'avatar_rejected', actorUserId: user.id, details: { reason: 'type' }, ipAddress: clientIp(request) })
    return fail(AVATAR_ERRORS.notImage, 415)
  }

  let encoded: Buffer
  try {
    encoded = await encodeAvatar(upload.buffer)
  } catch (error) {
    // Corrupt data, a pixel bomb, or a format sharp will not decode.
    logger.warn({ err: error, userId: user.id }, 'Avatar refused by the decoder')
    return fail(AVATAR_ERRORS.notImage, 422)
  }

  const version = Date.now()
  const key = `avatars/${user.id}/avatar_${version}.webp`
  try {
    const storage = getStorage()
    await storage.put(key, encoded, 'image/webp')
    const previous = await replaceAvatarUrl(user.id, `/uploads/${key}?v=${version}`)
    const previousKey = previous?.match(/^\/uploads\/([^?]+)/)?.[1]
    if (previousKey && previousKey !== key) {
      await storage.delete(previousKey).catch((error) => logger.warn({ err: error }, 'Old avatar not removed'))
    }
  } catch (error) {
    logger.error({ err: error, userId: user.id }, 'Avatar upload failed')
    return fail(AVATAR_ERRORS.failed, 500)
  }

  if (wantsJson) return Response.json({ ok: true, avatarUrl: `/uploads/${key}?v=${version}` })
  return redirectWithToast('/perfil', { type: 'success', title: 'Foto de perfil actualizada' })
}
