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
