import { redirect } from 'react-router'
import type { z } from 'zod'
import { recordAudit } from '~/platform/audit/audit.server'
import { accountExists, getAuth } from '~/features/account/auth.server'
import { safeRedirect } from '~/platform/auth/guards.server'
import { TOTP_CODE_USED } from '~/features/account/totp-once.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { AuthIntent, ResetPasswordSchema, type SignInSchema, type SignUpSchema, type TwoFactorSchema } from './auth-schemas'
import { noteRecoveryCodeUsed } from './security.server'
import { PASSKEY_MESSAGES, passkeyOptions, signInWithPasskey } from './passkeys.server'
import { requestPasswordReset } from './password-reset.server'
import { invitedEmail } from '~/features/admission/admission.server'
import { ADMISSION_MESSAGES } from '~/features/admission/limits'
import { MODERATION_MESSAGES } from '~/features/moderation/reasons'

/** The /auth page's forms (docs/decisions/0012): sign-in, sign-up and the forgotten password. */
export function authAction(request: Request) {
  return handleIntent(request, AuthIntent, {
    signin: {
      invalid: 'Revisa tu email y tu contraseña',
      failed: 'Error al iniciar sesión. Vuelve a intentarlo en unos minutos.',
      run: (input) => signIn(request, input),
    },
    signup: {
      invalid: 'Revisa los datos del formulario',
      failed: 'Error al registrarse. Vuelve a intentarlo en unos minutos.',
      run: (input) => signUp(request, input),
    },
    forgot: { invalid: 'Por favor ingresa un email válido', run: (input) => requestPasswordReset(request, input) },
    'two-factor': {
      invalid: 'Escribe el código de 6 cifras de tu aplicación o un código de recuperación',
      failed: 'Error al iniciar sesión. Vuelve a intentarlo en unos minutos.',
      run: (input) => verifySecondFactor(request, input),
    },
    'passkey-options': { invalid: PASSKEY_MESSAGES.failed, run: () => passkeyOptions(request, 'sign-in') },
    'passkey-signin': {
      invalid: PASSKEY_MESSAGES.failed,
      failed: 'Error al iniciar sesión. Vuelve a intentarlo en unos minutos.',
      run: ({ response, redirectTo }) => signInWithPasskey(request, response, redirectTo),
    },
  })
}

/** Only the cookies of better-auth's answer (a joined Set-Cookie header would be unreadable). */
export function sessionCookies(authHeaders: Headers) {
  const headers = new Headers()
  for (const cookie of authHeaders.getSetCookie()) headers.append('Set-Cookie', cookie)
  return headers
}

const errorCode = (error: unknown) => (error as { body?: { code?: string } } | null)?.body?.code

async function signIn(request: Request, { email, password, redirectTo }: z.output<typeof SignInSchema>) {
  const ip = clientIp(request)
  await enforceRateLimits([
    { key: `sign-in:ip:${ip}`, max: 30, windowSeconds: 5 * 60 },
    { key: `sign-in:email:${email}`, max: 8, windowSeconds: 5 * 60 },
  ])
  let headers: Headers
  let response: unknown
  try {
    ;({ headers, response } = await getAuth().api.signInEmail({
      // An unconfirmed e-mail gets a new confirmation link, which must land where sign-up's does.
      body: { email, password, rememberMe: true, callbackURL: '/auth?confirmacion=1' },
      headers: request.headers,
      returnHeaders: true,
    }))
  } catch (error) {
    const code = errorCode(error)
    await recordAudit({ action: 'sign_in_failed', details: { email, reason: code ?? 'unexpected' }, ipAddress: ip })
    if (code === 'INVALID_EMAIL_OR_PASSWORD') refuse(400, 'Email o contraseña incorrectos')
    if (code === 'EMAIL_NOT_VERIFIED') refuse(403, 'Por favor confirma tu email antes de iniciar sesión')
    if (code === 'ACCOUNT_BANNED') refuse(403, MODERATION_MESSAGES.banned)
    throw error
  }
  // Two-factor sign-in: the password was right, the code comes next (better-auth's challenge cookie).
  if ((response as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect) {
    const next = new URLSearchParams({ tab: 'codigo' })
    if (redirectTo) next.set('redirectTo', redirectTo)
    return redirect(`/auth?${next}`, { headers: sessionCookies(headers) })
  }
  return redirectWithToast(
    safeRedirect(redirectTo),
    { type: 'success', title: 'Sesión iniciada exitosamente' },
    { headers: sessionCookies(headers) },
  )
}

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'El código no es correcto. Comprueba la hora de tu teléfono y vuelve a intentarlo.',
  expired: 'Tu inicio de sesión ha caducado. Vuelve a escribir tu email y tu contraseña.',
  locked: 'Demasiados códigos incorrectos. Espera 15 minutos y vuelve a intentarlo.',
  used: 'Ese código ya se usó. Espera al siguiente código de tu aplicación y escríbelo.',
} as const

/**
 * The second step of a two-factor sign-in: a 6-digit code from the authenticator app, or one of
 * the recovery codes (single use; its owner is told by e-mail). Nothing here says whether the
 * password was right: only the challenge cookie, which the right password alone sets.
 */
async function verifySecondFactor(request: Request, { code, trustDevice, redirectTo }: z.output<typeof TwoFactorSchema>) {
  await enforceRateLimits([{ key: `two-factor:ip:${clientIp(request)}`, max: 20, windowSeconds: 5 * 60 }])
  const recovery = !/^\d{6}$/.test(code)
  // Recovery codes are handed out as 'abcde-12345'; typed with or without the dash.
  const body = { code: recovery ? `${code.slice(0, 5)}-${code.slice(5)}` : code, trustDevice: trustDevice === 'on' }
  let result: { headers: Headers; response: { user?: { id: string } } }
  try {
    result = recovery
      ? await getAuth().api.verifyBackupCode({ body, headers: request.headers, returnHeaders: true })
      : await getAuth().api.verifyTOTP({ body, headers: request.headers, returnHeaders: true })
  } catch (error) {
    const failure = errorCode(error)
    if (failure === 'INVALID_TWO_FACTOR_COOKIE') refuse(400, TWO_FACTOR_MESSAGES.expired)
    if (failure === 'ACCOUNT_TEMPORARILY_LOCKED' || failure === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')
      refuse(429, TWO_FACTOR_MESSAGES.locked)
    if (failure === 'INVALID_CODE' || failure === 'INVALID_BACKUP_CODE') refuse(400, TWO_FACTOR_MESSAGES.wrongCode)
    if (failure === TOTP_CODE_USED) refuse(400, TWO_FACTOR_MESSAGES.used)
    if (failure === 'ACCOUNT_BANNED') refuse(403, MODERATION_MESSAGES.banned)
    throw error
  }
  if (recovery && result.response.user) await noteRecoveryCodeUsed(result.response.user.id)
  return redirectWithToast(
    safeRedirect(redirectTo),
    { type: 'success', title: 'Sesión iniciada exitosamente' },
    { headers: sessionCookies(result.headers) },
  )
}

async function signUp(request: Request, { firstName, lastName, email, password, invitation }: z.output<typeof SignUpSchema>) {
  await enforceRateLimits([{ key: `sign-up:ip:${clientIp(request)}`, max: 20, windowSeconds: 60 * 60 }])
  // From an admission invitation: only its address, and the confirmation link leads back to it (to pay).
  let callbackURL = '/auth?confirmacion=1'
  if (invitation) {
    const invited = await invitedEmail(invitation)
    if (!invited) refuse(400, ADMISSION_MESSAGES.invitationInvalid)
    if (invited !== email) refuse(400, ADMISSION_MESSAGES.invitationOtherEmail)
    callbackURL = `/admision/invitacion/${invitation}`
  }
  // The spec tells a returning member that the account exists and moves them to sign-in.
  if (await accountExists(email))
    return success({ existingEmail: email }, { title: 'Ya existe una cuenta con este email', type: 'info' }, { status: 409 })
  await getAuth().api.signUpEmail({
    body: { name: `${firstName} ${lastName}`, email, password, firstName, lastName, callbackURL },
    headers: request.headers,
  })
  return success({ signedUpEmail: email }, { title: 'Cuenta creada exitosamente. Revisa tu email para confirmar tu cuenta.' })
}

/** /reset-password: the new password, from a recovery link. */
export function resetPasswordAction(request: Request) {
  return handleIntent(request, ResetPasswordSchema, {
    'reset-password': {
      invalid: 'Por favor completa todos los campos',
      failed: 'Error al actualizar contraseña. Vuelve a intentarlo en unos minutos.',
      async run({ token, password }) {
        await enforceRateLimits([{ key: `reset:ip:${clientIp(request)}`, max: 10, windowSeconds: 15 * 60 }])
        try {
          // Also ends every session of the account and every other reset link (auth.server.ts).
          await getAuth().api.resetPassword({ body: { newPassword: password, token } })
        } catch (error) {
          if (errorCode(error) === 'INVALID_TOKEN')
            refuse(400, 'Error al actualizar contraseña: el enlace ha caducado o ya se ha usado. Solicita uno nuevo.')
          throw error
        }
        return redirectWithToast('/', { type: 'success', title: 'Contraseña actualizada correctamente' })
      },
    },
  })
}
