import { PreferencesSchema } from '~/features/notifications/preferences-schema'
import { z } from 'zod'
import { optionalText } from '~/platform/http/text-fields'
import { email, PASSWORD_MAX, SIGN_UP_PASSWORD_MIN } from './auth-schemas'

// Spec 000 §5, profile form: all optional, trimmed, empty saved as null; a biography may keep
// its line breaks.

export const ProfileSchema = z.object({
  intent: z.literal('profile'),
  firstName: optionalText(50, { tooLong: 'El nombre debe tener menos de 50 caracteres' }),
  lastName: optionalText(50, { tooLong: 'El apellido debe tener menos de 50 caracteres' }),
  bio: optionalText(500, { tooLong: 'La biografía debe tener menos de 500 caracteres', multiline: true }),
  company: optionalText(100, { tooLong: 'La empresa debe tener menos de 100 caracteres' }),
  position: optionalText(100, { tooLong: 'El cargo debe tener menos de 100 caracteres' }),
})

export const PROFILE_FORM_FALLBACK_ERROR = 'Error en los datos del formulario'

export const ChangePasswordSchema = z
  .object({
    intent: z.literal('password'),
    currentPassword: z.string({ error: 'La contraseña actual es requerida' }).max(PASSWORD_MAX),
    newPassword: z
      .string({ error: 'La contraseña es requerida' })
      .min(SIGN_UP_PASSWORD_MIN, `La contraseña debe tener al menos ${SIGN_UP_PASSWORD_MIN} caracteres`)
      .max(PASSWORD_MAX, 'La contraseña es demasiado larga'),
    confirmPassword: z.string({ error: 'Por favor confirma tu contraseña' }),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: 'Las contraseñas no coinciden',
    path: ['confirmPassword'],
  })

export const EMAIL_CHANGE_MESSAGES = {
  wrongPassword: 'La contraseña actual no es correcta',
  same: 'Ese ya es el email de tu cuenta',
  sent: 'Te hemos enviado un enlace a tu nuevo email. Tu email cambiará cuando lo abras.',
  changed: 'Tu email se ha actualizado',
} as const

/** 'Cambiar email': the new address, confirmed by a link sent to it; the password proves it is the owner asking. */
export const ChangeEmailSchema = z.object({
  intent: z.literal('email'),
  newEmail: email,
  currentPassword: z.string({ error: 'La contraseña actual es requerida' }).min(1, 'La contraseña actual es requerida').max(PASSWORD_MAX),
})

/** The /perfil page's forms. */
export const ProfileIntent = z.discriminatedUnion('intent', [
  ProfileSchema,
  z.object({ intent: z.literal('avatar') }),
  z.object({ intent: z.literal('notifications'), emailNotifications: z.literal('on').optional() }),
  PreferencesSchema,
  ChangePasswordSchema,
  ChangeEmailSchema,
  z.object({ intent: z.literal('close-device'), sessionId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal('close-other-devices') }),
  z.object({ intent: z.literal('export-data') }),
])

/** Spec avatar rules, checked in the browser before cropping and again on the server. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024
export const AVATAR_LIMITS = { field: 'avatar', maxFiles: 1, maxFileBytes: AVATAR_MAX_BYTES, maxTotalBytes: AVATAR_MAX_BYTES } as const
export const AVATAR_ERRORS = {
  notImage: 'Por favor selecciona una imagen válida',
  tooLarge: 'La imagen debe ser menor a 5MB',
  failed: 'Error al subir la imagen',
} as const
