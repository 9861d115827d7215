import { z } from 'zod'
import { requiredText } from '~/platform/http/text-fields'

// Form rules and messages of spec 000 §5, shared by the browser (instant feedback)
// and the server (the authority).

export const SIGN_UP_PASSWORD_MIN = 8
export const RESET_PASSWORD_MIN = 6
export const PASSWORD_MAX = 128
export const NAME_MAX = 50
export const EMAIL_MAX = 254

/** An e-mail address as every form takes it: trimmed, lower-cased, the spec's messages. */
export const email = z
  .string({ error: 'Por favor ingresa un email válido' })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, 'El email es demasiado largo')
  .pipe(z.email('Por favor ingresa un email válido'))

const name = (required: string, tooLong: string) => requiredText(NAME_MAX, { required, tooLong })

export const SignInSchema = z.object({
  intent: z.literal('signin'),
  email,
  password: z
    .string({ error: 'La contraseña es requerida' })
    .min(1, 'La contraseña es requerida')
    .max(PASSWORD_MAX, 'La contraseña es demasiado larga'),
  redirectTo: z.string().optional(),
})

export const SignUpSchema = z
  .object({
    intent: z.literal('signup'),
    firstName: name('El nombre es requerido', 'El nombre es demasiado largo'),
    lastName: name('El apellido es requerido', 'El apellido es demasiado largo'),
    email,
    password: z
      .string({ error: 'La contraseña es requerida' })
      .min(SIGN_UP_PASSWORD_MIN, `La contraseña debe tener al menos ${SIGN_UP_PASSWORD_MIN} caracteres`)
      .max(PASSWORD_MAX, 'La contraseña es demasiado larga'),
    confirmPassword: z.string({ error: 'Por favor confirma tu contraseña' }),
    /** An admission invitation's token: the e-mail is the invited one, confirmation leads back to it. */
    invitation: z.string().max(256).optional(),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Las contraseñas no coinciden',
    path: ['confirmPassword'],
  })

export const ForgotPasswordSchema = z.object({
  intent: z.literal('forgot'),
  email: z
    .string({ error: 'Por favor ingresa tu email' })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX, 'El email es demasiado largo')
    .pipe(z.email('Por favor ingresa un email válido')),
})

const ALL_FIELDS = 'Por favor completa todos los campos'

export const ResetPasswordSchema = z
  .object({
    intent: z.literal('reset-password'),
    token: z.string({ error: 'Enlace de recuperación inválido' }).min(1).max(512),
    password: z
      .string({ error: ALL_FIELDS })
      .min(RESET_PASSWORD_MIN, `La contraseña debe tener al menos ${RESET_PASSWORD_MIN} caracteres`)
      .max(PASSWORD_MAX, 'La contraseña es demasiado larga'),
    confirmPassword: z.string({ error: ALL_FIELDS }),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Las contraseñas no coinciden',
    path: ['confirmPassword'],
  })

const CODE_MESSAGE = 'Escribe el código de 6 cifras de tu aplicación o un código de recuperación'

/** The second step of a two-factor sign-in: the app's 6 digits, or a recovery code (10 letters and digits). */
export const TwoFactorSchema = z.object({
  intent: z.literal('two-factor'),
  code: z
    .string({ error: CODE_MESSAGE })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^(\d{6}|[A-Za-z0-9]{10})$/, CODE_MESSAGE)),
  trustDevice: z.literal('on').optional(),
  redirectTo: z.string().optional(),
})

/** The /auth page's forms. */
/** The browser's answer to a passkey ceremony, as JSON text (a few KB; more is not one). */
export const PasskeyAnswer = z.string().min(2).max(20_000)

export const AuthIntent = z.discriminatedUnion('intent', [
  SignInSchema,
  SignUpSchema,
  ForgotPasswordSchema,
  TwoFactorSchema,
  z.object({ intent: z.literal('passkey-options') }),
  z.object({ intent: z.literal('passkey-signin'), response: PasskeyAnswer, redirectTo: z.string().optional() }),
])
