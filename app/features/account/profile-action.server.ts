import { savePreferences } from '~/features/notifications/preferences.server'
import { getAuth, revokePasswordResetLinks } from '~/platform/auth/auth.server'
import type { CurrentUser } from '~/platform/auth/guards.server'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { clientIp, enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { uploadAvatarIntent } from './avatar.server'
import { saveEmailNotifications, saveProfileFields } from './profile.server'
import { closeDevice, closeOtherDevices, currentSessionToken, mailPasswordChanged } from './security.server'
import { AVATAR_ERRORS, AVATAR_LIMITS, PROFILE_FORM_FALLBACK_ERROR, ProfileIntent } from './profile-schemas'

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
      'close-device': {
        invalid: 'No se pudo cerrar la sesión en ese dispositivo',
        run: ({ sessionId }) => closeDevice(user.id, sessionId, currentSessionToken(request)),
      },
      'close-other-devices': {
        invalid: 'No se pudo cerrar la sesión en los demás dispositivos',
        run: () => closeOtherDevices(user.id, currentSessionToken(request)),
      },
    },
    {
      files: AVATAR_LIMITS,
      messages: { 'too-large': AVATAR_ERRORS.tooLarge, 'file-too-large': AVATAR_ERRORS.tooLarge, 'too-many': AVATAR_ERRORS.notImage },
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
  const forwarded = new Headers()
  for (const cookie of headers.getSetCookie()) forwarded.append('Set-Cookie', cookie)
  return redirectWithToast('/perfil', { type: 'success', title: 'Contraseña actualizada correctamente' }, { headers: forwarded })
}
