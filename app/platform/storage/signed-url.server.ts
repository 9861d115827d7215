import { hasValidSignature, sign } from '~/platform/auth/signature.server'

/** Spec: attachment links are valid for 3600 seconds. */
export const SIGNED_URL_SECONDS = 3600

/**
 * A short-lived link to a stored file, like an S3 presigned URL but served by the app. The
 * feature that shows the link has checked access; the link carries the name the file is
 * downloaded under, signed with it, so serving it needs no feature's tables.
 */
export function signedUploadUrl(key: string, fileName: string, now = Date.now()) {
  // Rounded to the quarter hour so a page's links stay the same across reloads (cacheable).
  const expires = Math.ceil((now / 1000 + SIGNED_URL_SECONDS) / 900) * 900
  const params = new URLSearchParams({ name: fileName, expires: String(expires), sig: sign('uploads', key, expires, fileName) })
  return `/uploads/${key}?${params}`
}

/** The signed file name when the link is genuine and current, else null. */
export function verifyUploadSignature(key: string, params: URLSearchParams, now = Date.now()) {
  const expires = Number(params.get('expires'))
  const fileName = params.get('name') ?? ''
  const given = params.get('sig') ?? ''
  if (!Number.isInteger(expires) || expires * 1000 < now) return null
  // Links are never valid for longer than the spec's hour (plus the rounding).
  if (expires * 1000 > now + (SIGNED_URL_SECONDS + 900) * 1000) return null
  return hasValidSignature(given, 'uploads', key, expires, fileName) ? fileName : null
}
