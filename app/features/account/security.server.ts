import { and, desc, eq, gt, like, ne, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { sessionCookieOf } from '~/platform/auth/session-cookie'
import { session, user, verification } from '~/platform/auth/schema'
import { recordAudit } from '~/platform/audit/audit.server'
import { getDb } from '~/platform/db/client.server'
import { fullDateTime } from '~/platform/dates'
import { getEnv } from '~/platform/env.server'
import { refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { knownDevices } from './schema'

/**
 * The 'Seguridad' card of /perfil (issue 27): the devices signed in to the account, closing them,
 * and the security e-mails (account e-mails: never unsubscribable).
 */

/** 'Chrome en Windows': what a member recognises of a user agent; no version, no build. */
export function describeUserAgent(userAgent: string | null | undefined) {
  const ua = userAgent ?? ''
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua) && /Version\//.test(ua)
            ? 'Safari'
            : 'Navegador desconocido'
  const system = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /Windows NT/.test(ua)
          ? 'Windows'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Mac OS X|Macintosh/.test(ua)
              ? 'macOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : null
  if (!system) return browser === 'Navegador desconocido' ? 'Dispositivo desconocido' : `${browser} en un sistema desconocido`
  return `${browser} en ${system}`
}

/** An address only as precise as a member needs to recognise it: 203.0.x.x, 2001:db8:85a3::/48. */
export function approximateAddress(ip: string | null | undefined) {
  const address = (ip ?? '').replace(/^::ffff:/i, '')
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(address)
  if (v4) return `${v4[1]}.${v4[2]}.x.x`
  if (/^[0-9a-f:]+$/i.test(address) && address.includes(':')) {
    const groups = address.split('::')[0]!.split(':').filter(Boolean).slice(0, 3)
    return groups.length ? `${groups.join(':')}::/48` : 'Desconocida'
  }
  return 'Desconocida'
}

/** Which of the member's sessions is this request's: the token part of the cookie (`token.signature`). */
export function currentSessionToken(request: Pick<Request, 'headers'>) {
  const value = sessionCookieOf(request)
  if (!value) return null
  try {
    return decodeURIComponent(value).split('.')[0] ?? null
  } catch {
    return null
  }
}

/** The member's current sessions, newest activity first, the one of this request marked. One statement. */
export async function listDevices(userId: string, currentToken: string | null) {
  const rows = await getDb()
    .select({
      id: session.id,
      token: session.token,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    })
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, sql`now()`)))
    .orderBy(desc(session.updatedAt))
  return rows
    .map((row) => ({
      id: row.id,
      device: describeUserAgent(row.userAgent),
      address: approximateAddress(row.ipAddress),
      signedInAt: row.createdAt.toISOString(),
      lastActiveAt: row.updatedAt.toISOString(),
      current: row.token === currentToken,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current))
}

export const DEVICE_MESSAGES = {
  gone: 'Ese dispositivo ya no tenía la sesión iniciada',
  closed: 'Sesión cerrada en ese dispositivo',
  othersClosed: 'Sesión cerrada en los demás dispositivos',
  noneOther: 'No había otros dispositivos con la sesión iniciada',
} as const

/** 'Cerrar sesión' on one device: only the member's own, never this one (that is 'Cerrar sesión' in the menu). */
export async function closeDevice(userId: string, sessionId: string, currentToken: string | null) {
  const closed = await getDb()
    .delete(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, userId), ne(session.token, currentToken ?? '')))
    .returning({ id: session.id })
  if (closed.length === 0) refuse(404, DEVICE_MESSAGES.gone, { detail: { sessionId } })
  return redirectWithToast('/perfil#seguridad', { type: 'success', title: DEVICE_MESSAGES.closed })
}

/** The session a response hands the browser (better-auth's Set-Cookie), as `currentSessionToken` reads a request's. */
export function sessionTokenOf(responseHeaders: Headers) {
  const cookie = responseHeaders.getSetCookie().find((line) => /^(__Secure-)?better-auth\.session_token=/.test(line))
  return cookie ? currentSessionToken({ headers: new Headers({ cookie: cookie.split(';')[0]! }) }) : null
}

/** Every session of the member but this one. */
function closeOthers(userId: string, currentToken: string | null) {
  return getDb()
    .delete(session)
    .where(and(eq(session.userId, userId), ne(session.token, currentToken ?? '')))
    .returning({ id: session.id })
}

/**
 * After two-factor sign-in is turned on, every other device signs in again with a code: its other
 * sessions end, and so do browsers trusted under an earlier enrolment (better-auth's trust records).
 */
export async function endOtherSignIns(userId: string, currentToken: string | null) {
  await closeOthers(userId, currentToken)
  await getDb()
    .delete(verification)
    .where(and(like(verification.identifier, 'trust-device-%'), eq(verification.value, userId)))
}

/** 'Cerrar las demás': every session of the member but this one. */
export async function closeOtherDevices(userId: string, currentToken: string | null) {
  const closed = await closeOthers(userId, currentToken)
  return redirectWithToast('/perfil#seguridad', {
    type: closed.length ? 'success' : 'info',
    title: closed.length ? DEVICE_MESSAGES.othersClosed : DEVICE_MESSAGES.noneOther,
  })
}

export const signInHelp = () => ({ label: 'Cambiar mi contraseña', url: `${getEnv().APP_URL}/forgot-password` })

/**
 * Every sign-in (better-auth's session hook): a browser and system the member had not signed in
 * from before is remembered and, unless it is their first, e-mailed to them.
 */
export async function noteSignIn(created: { userId: string; userAgent?: string | null; ipAddress?: string | null; createdAt?: Date }) {
  const device = describeUserAgent(created.userAgent)
  const db = getDb()
  const [known] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(knownDevices)
    .where(eq(knownDevices.userId, created.userId))
  const [noted] = await db
    .insert(knownDevices)
    .values({ userId: created.userId, device })
    .onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.device], set: { lastSeenAt: sql`now()` } })
    .returning({ isNew: sql<boolean>`(xmax = 0)` })
  if (!noted?.isNew || !known?.n) return
  const [account] = await db.select({ email: user.email, firstName: user.firstName }).from(user).where(eq(user.id, created.userId))
  if (!account) return
  await enqueueMail({
    to: account.email,
    subject: 'Nuevo inicio de sesión en tu cuenta',
    email: createElement(NoticeEmail, {
      title: 'Nuevo inicio de sesión',
      firstName: account.firstName,
      paragraphs: [
        'Alguien ha iniciado sesión en tu cuenta desde un navegador o dispositivo que no habías usado antes.',
        'Si fuiste tú, no tienes que hacer nada. Si no, cambia tu contraseña ahora: cerraremos la sesión en todos tus dispositivos.',
      ],
      details: {
        heading: 'Desde dónde',
        rows: [
          ['Dispositivo', device],
          ['Dirección aproximada', approximateAddress(created.ipAddress)],
          ['Cuándo', fullDateTime(created.createdAt ?? new Date())],
        ],
      },
      button: signInHelp(),
    }),
  })
}

const SECURITY_NOTICES = {
  'password-changed': {
    subject: 'Tu contraseña ha cambiado',
    paragraphs: (at: string) => [
      `La contraseña de tu cuenta cambió el ${at}. Hemos cerrado la sesión en tus demás dispositivos.`,
      'Si no fuiste tú, recupera tu cuenta ahora con una contraseña nueva y escríbenos.',
    ],
  },
  'two-factor-enabled': {
    subject: 'Verificación en dos pasos activada',
    paragraphs: (at: string) => [
      `El ${at} activaste la verificación en dos pasos: al iniciar sesión te pediremos un código de tu aplicación de autenticación. Hemos cerrado la sesión en tus demás dispositivos.`,
      'Guarda tus códigos de recuperación en un lugar seguro. Si no fuiste tú, cambia tu contraseña y escríbenos.',
    ],
  },
  'two-factor-disabled': {
    subject: 'Verificación en dos pasos desactivada',
    paragraphs: (at: string) => [
      `El ${at} se desactivó la verificación en dos pasos de tu cuenta: ahora basta tu contraseña para iniciar sesión.`,
      'Si no fuiste tú, cambia tu contraseña ahora y vuelve a activarla desde tu perfil.',
    ],
  },
  'recovery-code-used': {
    subject: 'Se ha usado un código de recuperación',
    paragraphs: (at: string) => [
      `El ${at} se inició sesión en tu cuenta con uno de tus códigos de recuperación. Ese código ya no vale.`,
      'Si no fuiste tú, cambia tu contraseña ahora. Si te quedan pocos códigos, desactiva y vuelve a activar la verificación en dos pasos para tener otros nuevos.',
    ],
  },
  'passkey-added': {
    subject: 'Nueva llave de acceso',
    paragraphs: (at: string) => [
      `El ${at} se añadió una llave de acceso a tu cuenta: con ella se puede iniciar sesión sin contraseña.`,
      'Si no fuiste tú, elimínala en tu perfil (Seguridad), cambia tu contraseña y escríbenos.',
    ],
  },
  'passkey-removed': {
    subject: 'Llave de acceso eliminada',
    paragraphs: (at: string) => [
      `El ${at} se eliminó una llave de acceso de tu cuenta: ya no sirve para iniciar sesión.`,
      'Si no fuiste tú, cambia tu contraseña ahora y escríbenos.',
    ],
  },
} as const

export type SecurityNotice = keyof typeof SECURITY_NOTICES

/** A change to how the account signs in, told to its owner at once (account e-mail: never unsubscribable). */
export async function mailSecurityNotice(userId: string, notice: SecurityNotice) {
  const [owner] = await getDb().select({ email: user.email, firstName: user.firstName }).from(user).where(eq(user.id, userId))
  if (!owner) return
  const { subject, paragraphs } = SECURITY_NOTICES[notice]
  await enqueueMail({
    to: owner.email,
    subject,
    email: createElement(NoticeEmail, {
      title: subject,
      firstName: owner.firstName,
      paragraphs: [...paragraphs(fullDateTime(new Date()))],
      button: signInHelp(),
    }),
  })
}

/** After the password changed (from /perfil or a recovery link). */
export const mailPasswordChanged = (userId: string) => mailSecurityNotice(userId, 'password-changed')

/** A recovery code signed the member in: audited and e-mailed. */
export async function noteRecoveryCodeUsed(userId: string) {
  await recordAudit({ action: 'recovery_code_used', actorUserId: userId, targetUserId: userId })
  await mailSecurityNotice(userId, 'recovery-code-used')
}
