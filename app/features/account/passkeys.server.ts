import type { AuthenticationResponseJSON } from '@simplewebauthn/browser'
import { and, asc, eq } from 'drizzle-orm'
import { recordAudit } from '~/platform/audit/audit.server'
import { getAuth } from '~/features/account/auth.server'
import { safeRedirect } from '~/platform/auth/guards.server'
import { passkey } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { refuse, success } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { logger } from '~/platform/logger.server'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { describeUserAgent, mailSecurityNotice } from './security.server'
import { MODERATION_MESSAGES } from '~/features/moderation/reasons'

/**
 * Passkeys (WebAuthn), a second way to sign in (issue 27, decisions/0026): better-auth's passkey
 * plugin does the ceremony's cryptography; our /perfil and /auth actions call it through auth.api,
 * as they do for passwords and codes. Each ceremony is two requests: the options (a challenge,
 * remembered in better-auth's signed cookie), then the browser's answer. A passkey proves the
 * device and the person on it, so it signs in without the authenticator app's code.
 */

export const PASSKEY_MESSAGES = {
  failed: 'No se pudo comprobar la llave de acceso. Vuelve a intentarlo.',
  unknown: 'Esta llave de acceso no corresponde a ninguna cuenta. Inicia sesión con tu email y tu contraseña.',
  stale: 'Por seguridad, vuelve a iniciar sesión antes de añadir una llave de acceso.',
  proof: 'Escribe tu contraseña para añadir una llave de acceso',
  added: 'Llave de acceso añadida',
  removed: 'Llave de acceso eliminada',
  notFound: 'Llave de acceso no encontrada',
} as const

const errorCode = (error: unknown) => (error as { body?: { code?: string } } | null)?.body?.code

/**
 * The browser's answer, as @simplewebauthn/browser gives it, sent as JSON text in a form field;
 * better-auth checks every part of it (signature, challenge, origin).
 */
function parseAnswer<Answer>(text: string): Answer {
  try {
    const answer = JSON.parse(text) as unknown
    if (answer && typeof answer === 'object' && typeof (answer as { id?: unknown }).id === 'string') return answer as Answer
  } catch {
    // Refused below, as any other answer that is not one.
  }
  refuse(400, PASSKEY_MESSAGES.failed)
}

/** Step 1 of both ceremonies: the options for navigator.credentials, and the challenge's cookie. */
export async function passkeyOptions(request: Request, ceremony: 'register' | 'sign-in') {
  await enforceRateLimits([{ key: `passkey-options:${clientIp(request)}`, max: 30, windowSeconds: 5 * 60 }])
  let answer: { headers: Headers; response: unknown }
  try {
    answer =
      ceremony === 'register'
        ? await getAuth().api.generatePasskeyRegistrationOptions({ headers: request.headers, returnHeaders: true, query: {} })
        : await getAuth().api.generatePasskeyAuthenticationOptions({ headers: request.headers, returnHeaders: true })
  } catch (error) {
    if (errorCode(error) === 'SESSION_NOT_FRESH') refuse(403, PASSKEY_MESSAGES.stale)
    throw error
  }
  const headers = new Headers()
  for (const cookie of answer.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
  return success({ passkeyOptions: answer.response as Record<string, unknown> }, undefined, { headers })
}

/** Step 2 of adding one in /perfil: the new passkey is stored, named after the browser and system it was made on. */
export async function addPasskey(request: Request, member: { id: string }, text: string) {
  await enforceRateLimits([{ key: `passkey-add:${member.id}`, max: 10, windowSeconds: 15 * 60 }])
  const response = parseAnswer(text)
  const name = describeUserAgent(request.headers.get('user-agent'))
  try {
    await getAuth().api.verifyPasskeyRegistration({ body: { response, name }, headers: request.headers })
  } catch (error) {
    logger.warn({ err: error, userId: member.id }, 'Passkey registration refused')
    if (errorCode(error) === 'SESSION_NOT_FRESH') refuse(403, PASSKEY_MESSAGES.stale)
    refuse(400, PASSKEY_MESSAGES.failed)
  }
  await recordAudit({ action: 'passkey_added', actorUserId: member.id, targetUserId: member.id, details: { name } })
  await mailSecurityNotice(member.id, 'passkey-added')
  return redirectWithToast('/perfil#seguridad', { type: 'success', title: PASSKEY_MESSAGES.added })
}

/** Step 2 of signing in with one: better-auth checks the signature and opens the session. */
export async function signInWithPasskey(request: Request, text: string, redirectTo: string | undefined) {
  await enforceRateLimits([{ key: `passkey-sign-in:${clientIp(request)}`, max: 30, windowSeconds: 5 * 60 }])
  const response = parseAnswer<AuthenticationResponseJSON>(text)
  let headers: Headers
  try {
    ;({ headers } = await getAuth().api.verifyPasskeyAuthentication({ body: { response }, headers: request.headers, returnHeaders: true }))
  } catch (error) {
    logger.warn({ err: error }, 'Passkey sign-in refused')
    if (errorCode(error) === 'ACCOUNT_BANNED') refuse(403, MODERATION_MESSAGES.banned)
    refuse(400, errorCode(error) === 'PASSKEY_NOT_FOUND' ? PASSKEY_MESSAGES.unknown : PASSKEY_MESSAGES.failed)
  }
  const cookies = new Headers()
  for (const cookie of headers.getSetCookie()) cookies.append('Set-Cookie', cookie)
  return redirectWithToast(safeRedirect(redirectTo), { type: 'success', title: 'Sesión iniciada exitosamente' }, { headers: cookies })
}

/** The member's passkeys, for 'Seguridad' (nothing secret: the public key stays on the server). */
export function listPasskeys(userId: string) {
  return getDb()
    .select({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt, backedUp: passkey.backedUp })
    .from(passkey)
    .where(eq(passkey.userId, userId))
    .orderBy(asc(passkey.createdAt))
}

/** Only the member's own: another member's id is not found. */
export async function removePasskey(member: { id: string }, passkeyId: string) {
  const removed = await getDb()
    .delete(passkey)
    .where(and(eq(passkey.id, passkeyId), eq(passkey.userId, member.id)))
    .returning({ name: passkey.name })
  if (removed.length === 0) refuse(404, PASSKEY_MESSAGES.notFound)
  await recordAudit({ action: 'passkey_removed', actorUserId: member.id, targetUserId: member.id, details: { name: removed[0]!.name } })
  await mailSecurityNotice(member.id, 'passkey-removed')
  return redirectWithToast('/perfil#seguridad', { type: 'success', title: PASSKEY_MESSAGES.removed })
}
