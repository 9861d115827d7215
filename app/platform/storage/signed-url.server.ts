import { createHmac, timingSafeEqual } from 'node:crypto'
import { getEnv } from '~/platform/env.server'

/** Spec: attachment links are valid for 3600 seconds. */
export const SIGNED_URL_SECONDS = 3600

function signature(key: string, expires: number) {
  return createHmac('sha256', getEnv().AUTH_SECRET).update(`uploads:${key}:${expires}`).digest('base64url')
}

/** A short-lived link to a stored file, like an S3 presigned URL but served by the app. */
export function signedUploadUrl(key: string, now = Date.now()) {
  // Rounded to the quarter hour so a page's links stay the same across reloads (cacheable).
  const expires = Math.ceil((now / 1000 + SIGNED_URL_SECONDS) / 900) * 900
  return `/uploads/${key}?expires=${expires}&sig=${signature(key, expires)}`
}

export function verifyUploadSignature(key: string, params: URLSearchParams, now = Date.now()) {
  const expires = Number(params.get('expires'))
  const given = params.get('sig') ?? ''
  if (!Number.isInteger(expires) || expires * 1000 < now) return false
  // Links are never valid for longer than the spec's hour (plus the rounding).
  if (expires * 1000 > now + (SIGNED_URL_SECONDS + 900) * 1000) return false
  const expected = Buffer.from(signature(key, expires))
  const received = Buffer.from(given)
  return expected.length === received.length && timingSafeEqual(expected, received)
}
