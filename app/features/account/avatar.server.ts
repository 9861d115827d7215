import { recordAudit } from '~/platform/audit/audit.server'
import type { CurrentUser } from '~/features/account/guards.server'
import { refuse, success } from '~/platform/http/responses.server'
import { logger } from '~/platform/logger.server'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { encodeAvatar, encodeUploadedImage, sniffImageType } from '~/platform/storage/image.server'
import type { UploadedFile } from '~/platform/storage/multipart.server'
import { getStorage } from '~/platform/storage/storage.server'
import { replaceAvatarUrl } from './profile.server'
import { AVATAR_ERRORS } from './profile-schemas'

/**
 * Members change only their own photo: the key comes from the session, never from the
 * request. The browser sends the cropped image (or, without JavaScript, the original);
 * the server checked the size while streaming, checks the type by content, then re-encodes it.
 */
export async function uploadAvatarIntent(request: Request, user: CurrentUser, file: UploadedFile | undefined) {
  await enforceRateLimits([{ key: `avatar:${user.id}`, max: 10, windowSeconds: 10 * 60 }])
  if (!file) refuse(400, AVATAR_ERRORS.notImage)
  if (!sniffImageType(file.buffer)) {
    // A file that is not an image in the photo field is worth an audit line (a probe, not a slip).
    await recordAudit({ action: 'avatar_rejected', actorUserId: user.id, details: { reason: 'type' }, ipAddress: clientIp(request) })
  }
  const encoded = await encodeUploadedImage(file.buffer, encodeAvatar, AVATAR_ERRORS.notImage)
  const version = Date.now()
  // Unique per upload: two uploads at once never write the same file.
  const key = `avatars/${user.id}/avatar_${version}_${crypto.randomUUID().slice(0, 8)}.webp`
  const storage = getStorage()
  await storage.put(key, encoded, 'image/webp')
  const avatarUrl = `/uploads/${key}?v=${version}`
  const previous = await replaceAvatarUrl(user.id, avatarUrl)
  const previousKey = previous?.match(/^\/uploads\/([^?]+)/)?.[1]
  if (previousKey && previousKey !== key) {
    await storage.delete(previousKey).catch((error) => logger.warn({ err: error }, 'Old avatar not removed'))
  }
  return success({ avatarUrl }, { title: 'Foto de perfil actualizada' })
}
