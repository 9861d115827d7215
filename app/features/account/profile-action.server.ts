import { savePreferences } from '~/features/notifications/preferences.server'
import { getAuth, passwordHashing, revokePasswordResetLinks } from '~/features/account/auth.server'
import { account, user as users } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { and, eq } from 'drizzle-orm'
import { createElement } from 'react'
import type { CurrentUser } from '~/features/account/guards.server'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { uploadAvatarIntent } from './avatar.server'
import { saveDirectoryPrivacy, saveEmailNotifications, saveProfileFields } from './profile.server'
import { requestDataExport } from './data-export.server'
import {
  closeDevice,
  closeOtherDevices,
  currentSessionToken,
  endOtherSignIns,
  mailPasswordChanged,
  mailSecurityNotice,
  sessionTokenOf,
  signInHelp,
} from './security.server'
import { sessionCookies, TWO_FACTOR_MESSAGES } from './auth-action.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { TOTP_CODE_USED } from '~/features/account/totp-once.server'
import { success } from '~/platform/http/responses.server'
import QRCode from 'qrcode'
import {
  AVATAR_ERRORS,
  AVATAR_LIMITS,
  EMAIL_CHANGE_MESSAGES,
  PROFILE_FORM_FALLBACK_ERROR,
  PROFILE_OPEN_WHILE_SUSPENDED,
  ProfileIntent,
  SECOND_FACTOR_MESSAGE,
} from './profile-schemas'
import { deleteAccount, DELETION_MESSAGES, type Writing } from './account-deletion.server'
import { addPasskey, PASSKEY_MESSAGES, passkeyOptions, removePasskey } from './passkeys.server'
import { LastAdminError } from '~/features/members/roles.server'

/** The /perfil page's forms (docs/decisions/0012): photo, profile, e-mail switch, preferences, password, devices. */
export function profileAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    ProfileIntent,
    {
      avatar: {
        invalid: AVATAR_ERRORS.notImage,
        failed: AVATAR_ERRORS.failed,
        run: (_input, files) => uploadAvatarIntent(request, user, files[0]),
      },
      profile: {
        invalid: PROFILE_FORM_FALLBACK_ERROR,
        failed: 'Error al guardar el perfil',
        async run({ intent: _, ...fields }) {
          await saveProfileFields(user.id, fields)
          return redirectWithToast('/perfil', { type: 'success', title: 'Perfil actualizado correctamente' })
        },
      },
      notifications: {
        invalid: 'Solicitud no válida',
        failed: 'Error al actualizar el perfil',
        async run({ emailNotifications }) {
          const enabled = emailNotifications === 'on'
          await saveEmailNotifications(user.id, enabled)
          return redirectWithToast('/perfil', {
            type: 'success',
            title: enabled ? 'Notificaciones por email activadas' : 'Notificaciones por email desactivadas',
          })
        },
      },
      preferences: {
        invalid: 'Elige una opción para cada tema',
        failed: 'No se pudieron guardar las preferencias. Vuelve a intentarlo.',
        async run({ intent: _, timeZone, ...choices }) {
          await savePreferences(user.id, { ...choices, timeZone })
          return redirectWithToast('/perfil#notificaciones', { type: 'success', title: 'Preferencias de notificación guardadas' })
        },
      },
      password: {
        invalid: 'Revisa las contraseñas',
        failed: 'Error al actualizar contraseña. Vuelve a intentarlo en unos minutos.',
        run: (input) => changePassword(request, user, input),
      },
      email: {
        invalid: 'Revisa el nuevo email y tu contraseña',
        failed: 'No se pudo cambiar el email. Vuelve a intentarlo en unos minutos.',
        run: ({ newEmail, currentPassword }) => requestEmailChange(request, user, newEmail, currentPassword),
      },
      'close-device': {
        invalid: 'No se pudo cerrar la sesión en ese dispositivo',
        run: ({ sessionId }) => closeDevice(user.id, sessionId, currentSessionToken(request)),
      },
      privacy: {
        invalid: 'Solicitud no válida',
        failed: 'No se pudo guardar tu privacidad. Vuelve a intentarlo.',
        async run({ listedInDirectory, showsWork }) {
          await saveDirectoryPrivacy(user.id, { listed: listedInDirectory === 'on', showsWork: showsWork === 'on' })
          return redirectWithToast('/perfil', { type: 'success', title: 'Privacidad guardada' })
        },
      },
      'export-data': {
        invalid: 'No se pudieron pedir tus datos',
        run: () => requestDataExport(user.id),
      },
      'two-factor-enable': {
        invalid: 'Escribe tu contraseña para activar la verificación en dos pasos',
        run: ({ password }) => startTwoFactor(request, user, password),
      },
      'two-factor-confirm': {
        invalid: TWO_FACTOR_MESSAGES.wrongCode,
        run: ({ code }) => confirmTwoFactor(request, user, code),
      },
      'two-factor-disable': {
        invalid: 'Escribe tu contraseña y un código para desactivarla',
        run: ({ password, code }) => stopTwoFactor(request, user, password, code),
      },
      'close-other-devices': {
        invalid: 'No se pudo cerrar la sesión en los demás dispositivos',
        run: () => closeOtherDevices(user.id, currentSessionToken(request)),
      },
      'passkey-options': {
        invalid: PASSKEY_MESSAGES.proof,
        async run({ password, code }) {
          await enforceRateLimits([{ key: `passkey-add:${user.id}`, max: 10, windowSeconds: 15 * 60 }])
          await proveIdentity(request, user, password, code)
          return passkeyOptions(request, 'register')
        },
      },
      'passkey-add': {
        invalid: PASSKEY_MESSAGES.failed,
        failed: 'No se pudo añadir la llave de acceso. Vuelve a intentarlo en unos minutos.',
        run: ({ response }) => addPasskey(request, user, response),
      },
      'passkey-remove': { invalid: PASSKEY_MESSAGES.notFound, run: ({ passkeyId }) => removePasskey(user, passkeyId) },
      'delete-account': {
        invalid: 'Revisa los datos para eliminar tu cuenta',
        failed: 'No se pudo eliminar tu cuenta. Vuelve a intentarlo en unos minutos.',
        run: (input) => deleteOwnAccount(request, user, input),
      },
    },
    {
      files: AVATAR_LIMITS,
      messages: { 'too-large': AVATAR_ERRORS.tooLarge, 'file-too-large': AVATAR_ERRORS.tooLarge, 'too-many': AVATAR_ERRORS.notImage },
      openWhileSuspended: PROFILE_OPEN_WHILE_SUSPENDED,
    },
  )
}

async function changePassword(
  request: Request,
  user: CurrentUser,
  { currentPassword, newPassword }: { currentPassword: string; newPassword: string },
) {
  await enforceRateLimits([{ key: `change-password:${user.id}:${clientIp(request)}`, max: 8, windowSeconds: 15 * 60 }])
  let headers: Headers
  try {
    // Other devices are signed out; this one gets a fresh session cookie.
    ;({ headers } = await getAuth().api.changePassword({
      body: { currentPassword, newPassword, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    }))
  } catch (error) {
    if ((error as { body?: { code?: string } }).body?.code === 'INVALID_PASSWORD') refuse(400, 'La contraseña actual no es correcta')
    throw error
  }
  await revokePasswordResetLinks(user.id)
  await mailPasswordChanged(user.id)
  return redirectWithToast(
    '/perfil',
    { type: 'success', title: 'Contraseña actualizada correctamente' },
    { headers: sessionCookies(headers) },
  )
}

/** Whether `password` is the member's: their credential's hash, as better-auth checks it at sign-in. */
async function passwordMatches(userId: string, password: string) {
  const [credential] = await getDb()
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
  return Boolean(credential?.hash) && (await passwordHashing.verify({ hash: credential!.hash!, password }))
}

/**
 * 'Cambiar email': with the password, better-auth sends a link to the new address (our
 * sendVerificationEmail, auth.server.ts) and the address changes when it is opened; the old address
 * is told at once. An address that belongs to another account gets the same answer and no link
 * (better-auth's), so the form tells nobody whose address is taken.
 */
export async function requestEmailChange(request: Request, member: { id: string; email: string }, newEmail: string, password: string) {
  await enforceRateLimits([{ key: `change-email:${member.id}`, max: 5, windowSeconds: 60 * 60 }])
  if (!(await passwordMatches(member.id, password))) refuse(400, EMAIL_CHANGE_MESSAGES.wrongPassword)
  if (newEmail === member.email.toLowerCase()) refuse(400, EMAIL_CHANGE_MESSAGES.same)
  await getAuth().api.changeEmail({ body: { newEmail, callbackURL: '/perfil?email=cambiado' }, headers: request.headers })
  const [owner] = await getDb().select({ firstName: users.firstName }).from(users).where(eq(users.id, member.id))
  await enqueueMail({
    to: member.email,
    subject: 'Cambio de email solicitado',
    email: createElement(NoticeEmail, {
      title: 'Has pedido cambiar tu email',
      firstName: owner?.firstName ?? null,
      paragraphs: [
        `Se ha pedido cambiar el email de tu cuenta a ${newEmail}. El cambio se hará cuando se abra el enlace que hemos enviado a esa dirección.`,
        'Si no fuiste tú, no abras ningún enlace, cambia tu contraseña y escríbenos.',
      ],
      button: signInHelp(),
    }),
  })
  return redirectWithToast('/perfil', { type: 'success', title: EMAIL_CHANGE_MESSAGES.sent })
}

/** better-auth's answers turned into the page's refusals (the same words as sign-in's second step). */
function refuseTwoFactor(error: unknown): never {
  const code = (error as { body?: { code?: string } } | null)?.body?.code
  if (code === 'INVALID_PASSWORD') refuse(400, 'La contraseña actual no es correcta')
  if (code === 'INVALID_CODE' || code === 'INVALID_BACKUP_CODE') refuse(400, TWO_FACTOR_MESSAGES.wrongCode)
  if (code === TOTP_CODE_USED) refuse(400, TWO_FACTOR_MESSAGES.used)
  if (code === 'TOTP_ALREADY_ENABLED') refuse(409, 'La verificación en dos pasos ya está activada')
  if (code === 'TOTP_NOT_ENABLED') refuse(409, 'Empieza de nuevo: escribe tu contraseña para activar la verificación en dos pasos')
  throw error
}

const twoFactorLimit = (userId: string) => enforceRateLimits([{ key: `two-factor-settings:${userId}`, max: 10, windowSeconds: 15 * 60 }])

/** The QR code's modules as rows of 0 and 1 (the page draws them: no QR library in the browser). */
function qrRows(text: string) {
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules
  return Array.from({ length: size }, (_, row) =>
    Array.from(data.subarray(row * size, (row + 1) * size), (on) => (on ? '1' : '0')).join(''),
  ).join('/')
}

/** Step 1: the password; answers the secret (as a QR code and as text) and the 10 recovery codes, shown once. */
async function startTwoFactor(request: Request, member: CurrentUser, password: string) {
  await twoFactorLimit(member.id)
  let answer: { totpURI?: string; backupCodes?: string[] }
  try {
    answer = (await getAuth().api.enableTwoFactor({ body: { password }, headers: request.headers })) as typeof answer
  } catch (error) {
    refuseTwoFactor(error)
  }
  const totpURI = answer.totpURI!
  return success({ enrolment: { totpURI, qr: qrRows(totpURI), backupCodes: (answer.backupCodes ?? []).join(' ') } })
}

/**
 * Step 2: a code from the app proves it reads the secret; then it is on. better-auth renews this
 * device's session (which passed the code); every other one ends, as after a password change, so
 * a cookie taken before cannot go on without the code (review S3).
 */
async function confirmTwoFactor(request: Request, member: CurrentUser, code: string) {
  await twoFactorLimit(member.id)
  let headers: Headers
  try {
    ;({ headers } = await getAuth().api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true }))
  } catch (error) {
    refuseTwoFactor(error)
  }
  await endOtherSignIns(member.id, sessionTokenOf(headers))
  return twoFactorChanged(member, 'enabled', headers)
}

/** Two-factor sign-in turned on or off: audited, told to the member by e-mail, this device's renewed session kept. */
async function twoFactorChanged(member: CurrentUser, change: 'enabled' | 'disabled', headers: Headers) {
  await recordAudit({ action: `two_factor_${change}`, actorUserId: member.id, targetUserId: member.id })
  await mailSecurityNotice(member.id, `two-factor-${change}`)
  const title = change === 'enabled' ? 'Verificación en dos pasos activada' : 'Verificación en dos pasos desactivada'
  return redirectWithToast('/perfil#seguridad', { type: 'success', title }, { headers: sessionCookies(headers) })
}

/** A code from the member's app, or one of their recovery codes (which it uses up). */
async function checkSecondFactor(request: Request, code: string) {
  try {
    if (/^\d{6}$/.test(code)) await getAuth().api.verifyTOTP({ body: { code }, headers: request.headers })
    else await getAuth().api.verifyBackupCode({ body: { code: `${code.slice(0, 5)}-${code.slice(5)}` }, headers: request.headers })
  } catch (error) {
    refuseTwoFactor(error)
  }
}

/**
 * The password, and a code when two-factor sign-in is on: what neither a device left signed in nor
 * a stolen password alone has. Asked before 'Eliminar mi cuenta' and before adding a passkey.
 */
async function proveIdentity(request: Request, member: CurrentUser, password: string, code: string | undefined) {
  if (!(await passwordMatches(member.id, password))) refuse(400, 'La contraseña actual no es correcta')
  if (member.twoFactorEnabled) {
    if (!code) refuse(400, SECOND_FACTOR_MESSAGE)
    await checkSecondFactor(request, code)
  }
}

/** Off: the password and a code (or a recovery code), so a stolen password alone cannot turn it off. */
async function stopTwoFactor(request: Request, member: CurrentUser, password: string, code: string) {
  await twoFactorLimit(member.id)
  if (!(await passwordMatches(member.id, password))) refuse(400, 'La contraseña actual no es correcta')
  await checkSecondFactor(request, code)
  let headers: Headers
  try {
    ;({ headers } = await getAuth().api.disableTwoFactor({ body: { password }, headers: request.headers, returnHeaders: true }))
  } catch (error) {
    refuseTwoFactor(error)
  }
  return twoFactorChanged(member, 'disabled', headers)
}

/**
 * 'Eliminar mi cuenta': the password, and a code when two-factor sign-in is on, so neither a
 * device left signed in nor a stolen password alone can erase an account (ADR 0028).
 */
async function deleteOwnAccount(
  request: Request,
  member: CurrentUser,
  { password, code, writing }: { password: string; code?: string; writing: Writing },
) {
  await enforceRateLimits([{ key: `delete-account:${member.id}`, max: 5, windowSeconds: 15 * 60 }])
  await proveIdentity(request, member, password, code)
  try {
    await deleteAccount({ userId: member.id, actorId: member.id, writing })
  } catch (error) {
    if (error instanceof LastAdminError) refuse(409, DELETION_MESSAGES.lastAdmin)
    throw error
  }
  // The session is gone with the account; this clears its cookie.
  const { headers } = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true })
  return redirectWithToast('/', { type: 'success', title: DELETION_MESSAGES.done }, { headers: sessionCookies(headers) })
}
