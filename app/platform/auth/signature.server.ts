import { createHmac, timingSafeEqual } from 'node:crypto'
import { getEnv } from '~/platform/env.server'

/**
 * An HMAC of some values under the app's secret: what makes a link work without a session
 * (a stored file's address, an e-mail's unsubscribe link). The first value names the purpose,
 * so a signature made for one never passes for another.
 */
export function sign(purpose: string, ...values: Array<string | number>) {
  return createHmac('sha256', getEnv().AUTH_SECRET)
    .update(JSON.stringify([purpose, ...values]))
    .digest('base64url')
}

export function hasValidSignature(given: string, purpose: string, ...values: Array<string | number>) {
  const expected = Buffer.from(sign(purpose, ...values))
  const received = Buffer.from(given)
  return expected.length === received.length && timingSafeEqual(expected, received)
}

/** An expired token is genuine: it still names its row (a page may say more than 'expired'). */
export type SignedToken = { status: 'valid' | 'expired'; id: string } | { status: 'invalid' }

/** `<id>.<expires>.<signature>`: a link that names one row for one purpose until `expires` (seconds). */
export function signedToken(purpose: string, id: string, validSeconds: number, now = Date.now()) {
  const expires = Math.floor(now / 1000) + validSeconds
  return `${id}.${expires}.${sign(purpose, id, expires)}`
}

export function readSignedToken(purpose: string, token: string, now = Date.now()): SignedToken {
  const [id, expiresText, signature, ...rest] = token.split('.')
  if (!id || !expiresText || !signature || rest.length > 0 || token.length > 256 || !/^\d{1,12}$/.test(expiresText))
    return { status: 'invalid' }
  const expires = Number(expiresText)
  // The signature first: an expired link is only told apart from a forged one when it is genuine.
  if (!hasValidSignature(signature, purpose, id, expires)) return { status: 'invalid' }
  return { status: expires * 1000 < now ? 'expired' : 'valid', id }
}
