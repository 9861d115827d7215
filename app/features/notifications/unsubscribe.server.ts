import { hasValidSignature, sign } from '~/platform/auth/signature.server'
import { getEnv } from '~/platform/env.server'
import type { EmailUnsubscribe } from '~/platform/mail/layout'
import { listLabel, type MailingList, TOPICS } from './preferences'

/** An e-mail's unsubscribe link works this long: old mail in an inbox still stops the next ones. */
export const UNSUBSCRIBE_LINK_DAYS = 90

const LISTS = new Set<string>([...TOPICS.map((topic) => topic.key), 'digest'])

/**
 * `/correo/baja/<token>`: who, which lists (a topic, the digest, or the topics of one e-mail for the
 * mail client's button) and until when, signed, so it needs no session.
 */
export function unsubscribeUrl(userId: string, lists: MailingList[], now = Date.now()) {
  const expires = Math.floor(now / 1000) + UNSUBSCRIBE_LINK_DAYS * 24 * 60 * 60
  const names = lists.join(',')
  const payload = Buffer.from(JSON.stringify([userId, names, expires])).toString('base64url')
  return `${getEnv().APP_URL}/correo/baja/${payload}.${sign('unsubscribe', userId, names, expires)}`
}

/**
 * The way out of a notification e-mail about `lists`: the footer has one link per list, and the
 * headers (RFC 2369, RFC 8058) one link to them all, which the mail client's own button posts to.
 */
export function emailUnsubscribe(userId: string, lists: MailingList[], now = Date.now()) {
  const footer: EmailUnsubscribe = {
    lists: lists.map((list) => ({ label: listLabel(list), url: unsubscribeUrl(userId, [list], now) })),
    preferencesUrl: `${getEnv().APP_URL}/perfil#notificaciones`,
  }
  const headers = { 'List-Unsubscribe': `<${unsubscribeUrl(userId, lists, now)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
  return { headers, footer }
}

export type UnsubscribeToken = { status: 'valid'; userId: string; lists: MailingList[] } | { status: 'expired' | 'invalid' }

export function readUnsubscribeToken(token: string, now = Date.now()): UnsubscribeToken {
  const [payload, signature, ...rest] = token.split('.')
  if (!payload || !signature || rest.length > 0 || token.length > 512) return { status: 'invalid' }
  let values: unknown
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return { status: 'invalid' }
  }
  if (!Array.isArray(values) || values.length !== 3) return { status: 'invalid' }
  const [userId, names, expires] = values as [unknown, unknown, unknown]
  if (typeof userId !== 'string' || typeof names !== 'string' || !Number.isInteger(expires)) return { status: 'invalid' }
  const lists = names.split(',')
  if (!lists.every((list) => LISTS.has(list))) return { status: 'invalid' }
  // The signature first: an expired link is only told apart from a forged one when it is genuine.
  if (!hasValidSignature(signature, 'unsubscribe', userId, names, expires as number)) return { status: 'invalid' }
  if ((expires as number) * 1000 < now) return { status: 'expired' }
  return { status: 'valid', userId, lists: lists as MailingList[] }
}
