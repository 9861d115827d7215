import { PreferencesSchema } from '~/features/notifications/preferences-schema'
import { z } from 'zod'
import { optionalText } from '~/platform/http/text-fields'
import { email, PasskeyAnswer, PASSWORD_MAX, SIGN_UP_PASSWORD_MIN } from './auth-schemas'

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

const CODE_MESSAGE = 'Escribe el código de 6 cifras de tu aplicación'
export const SECOND_FACTOR_MESSAGE = 'Escribe un código de tu aplicación o un código de recuperación'

/** What proves the member is the one asking for a change to how they sign in: the password, and a code when two-factor is on. */
const currentPassword = z
  .string({ error: 'La contraseña actual es requerida' })
  .min(1, 'La contraseña actual es requerida')
  .max(PASSWORD_MAX)
const secondFactorCode = z
  .string({ error: SECOND_FACTOR_MESSAGE })
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^(\d{6}|[A-Za-z0-9]{10})$/, SECOND_FACTOR_MESSAGE))

/** What a deleted account's posts and comments become (ADR 0028): kept under 'Miembro eliminado', or deleted. */
export const WritingChoice = z.enum(['keep', 'delete'], { error: 'Elige qué hacer con lo que escribiste' })

/** Turning two-factor sign-in on (password, then a code from the app that read the QR) and off (password and a code). */
export const TwoFactorIntents = [
  z.object({ intent: z.literal('two-factor-enable'), password: currentPassword }),
  z.object({
    intent: z.literal('two-factor-confirm'),
    code: z
      .string({ error: CODE_MESSAGE })
      .transform((value) => value.replace(/\s/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, CODE_MESSAGE)),
    // The enrolment shown again if the code is refused (what the first step answered).
    totpURI: z.string().max(500),
    qr: z.string().max(20_000),
    backupCodes: z.string().max(500),
  }),
  z.object({ intent: z.literal('two-factor-disable'), password: currentPassword, code: secondFactorCode }),
] as const

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
  z.object({ intent: z.literal('privacy'), listedInDirectory: z.literal('on').optional(), showsWork: z.literal('on').optional() }),
  // Adding a passkey: the options (and so the challenge the answer must sign) only with the proof.
  z.object({ intent: z.literal('passkey-options'), password: currentPassword, code: secondFactorCode.optional() }),
  z.object({ intent: z.literal('passkey-add'), response: PasskeyAnswer }),
  z.object({ intent: z.literal('passkey-remove'), passkeyId: z.string().min(1).max(100) }),
  z.object({
    intent: z.literal('delete-account'),
    password: currentPassword,
    // Asked only when two-factor sign-in is on (the server checks which).
    code: secondFactorCode.optional(),
    writing: WritingChoice,
    confirm: z.literal('on', { error: 'Confirma que entiendes que no se puede deshacer' }),
  }),
  ...TwoFactorIntents,
])

/** What a member in read-only mode may still do here: look after their account and data (decisions/0029). */
export const PROFILE_OPEN_WHILE_SUSPENDED = [
  'password',
  'email',
  'two-factor-enable',
  'two-factor-confirm',
  'two-factor-disable',
  'close-device',
  'close-other-devices',
  'passkey-options',
  'passkey-add',
  'passkey-remove',
  'notifications',
  'preferences',
  'privacy',
  'export-data',
  'delete-account',
] as const satisfies ReadonlyArray<z.output<typeof ProfileIntent>['intent']>

/** Spec avatar rules, checked in the browser before cropping and again on the server. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024
export const AVATAR_LIMITS = { field: 'avatar', maxFiles: 1, maxFileBytes: AVATAR_MAX_BYTES, maxTotalBytes: AVATAR_MAX_BYTES } as const
export const AVATAR_ERRORS = {
  notImage: 'Por favor selecciona una imagen válida',
  tooLarge: 'La imagen debe ser menor a 5MB',
  failed: 'Error al subir la imagen',
} as const
