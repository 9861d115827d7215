import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import { useEffect } from 'react'
import { data, Form, Link, useNavigation, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { ForgotPasswordForm } from '~/components/auth/forgot-password-form'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Field, FormError } from '~/components/ui/field'
import { getDb } from '~/db/client.server'
import { user } from '~/db/schema'
import { recordAudit } from '~/models/audit.server'
import { handleForgotPasswordForm } from '~/models/password-reset.server'
import { site } from '~/site.config'
import { getAuth } from '~/utils/auth.server'
import { SignInSchema, SignUpSchema } from '~/utils/auth-schemas'
import { cn } from '~/utils/cn'
import { logger } from '~/utils/logger.server'
import { requireAnonymous, safeRedirect } from '~/utils/permissions.server'
import { checkRateLimits, clientIp } from '~/utils/rate-limit.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { Route } from './+types/auth'

export const meta: Route.MetaFunction = () => [
  { title: `Iniciar sesión o registrarse · ${site.name}` },
  { name: 'description', content: 'Accede a tu cuenta o crea una nueva para unirte a la comunidad.' },
]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  // better-auth sends a failed e-mail confirmation back here with an error code.
  const confirmationFailed = new URL(request.url).searchParams.has('error')
  return { confirmationFailed }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request)
  const formData = await request.formData()
  switch (formData.get('intent')) {
    case 'signin':
      return signIn(request, formData)
    case 'signup':
      return signUp(request, formData)
    case 'forgot':
      return handleForgotPasswordForm(request, formData)
    default:
      throw data('Formulario desconocido', { status: 400 })
  }
}

/** Only the cookies of better-auth's answer (a joined Set-Cookie header would be unreadable). */
function sessionCookies(authHeaders: Headers) {
  const headers = new Headers()
  for (const cookie of authHeaders.getSetCookie()) headers.append('Set-Cookie', cookie)
  return headers
}

function errorCode(error: unknown) {
  const body = (error as { body?: { code?: string; message?: string } } | null)?.body
  return { code: body?.code, message: body?.message ?? (error instanceof Error ? error.message : undefined) }
}

async function signIn(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SignInSchema })
  if (submission.status !== 'success') return data({ intent: 'signin' as const, result: submission.reply() }, { status: 400 })
  const { email, password, redirectTo } = submission.value
  const ip = clientIp(request)

  const limited = await checkRateLimits([
    { key: `sign-in:ip:${ip}`, max: 30, windowSeconds: 5 * 60 },
    { key: `sign-in:email:${email}`, max: 8, windowSeconds: 5 * 60 },
  ])
  if (limited) {
    return data({ intent: 'signin' as const, result: submission.reply({ formErrors: [limited.message] }) }, { status: 429 })
  }

  try {
    const { headers } = await getAuth().api.signInEmail({
      // An unconfirmed e-mail gets a new confirmation link, which must land where sign-up's does.
      body: { email, password, rememberMe: true, callbackURL: '/auth?confirmacion=1' },
      headers: request.headers,
      returnHeaders: true,
    })
    return redirectWithToast(
      safeRedirect(redirectTo),
      { type: 'success', title: 'Sesión iniciada exitosamente' },
      { headers: sessionCookies(headers) },
    )
  } catch (error) {
    const { code, message } = errorCode(error)
    let formError: string
    if (code === 'INVALID_EMAIL_OR_PASSWORD') formError = 'Email o contraseña incorrectos'
    else if (code === 'EMAIL_NOT_VERIFIED') formError = 'Por favor confirma tu email antes de iniciar sesión'
    else if (message) formError = `Error al iniciar sesión: ${message}`
    else formError = 'Error inesperado'
    if (code !== 'EMAIL_NOT_VERIFIED') logger.info({ code }, 'Sign-in refused')
    await recordAudit({ action: 'sign_in_failed', details: { email, reason: code ?? 'unexpected' }, ipAddress: ip })
    return data({ intent: 'signin' as const, result: submission.reply({ formErrors: [formError], hideFields: ['password'] }) }, { status: 400 })
  }
}

async function signUp(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SignUpSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'signup' as const, result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
  }
  const { firstName, lastName, email, password } = submission.value
  const limited = await checkRateLimits([{ key: `sign-up:ip:${clientIp(request)}`, max: 20, windowSeconds: 60 * 60 }])
  if (limited) {
    return data({ intent: 'signup' as const, result: submission.reply({ formErrors: [limited.message] }) }, { status: 429 })
  }

  // The spec tells a returning member that the account exists and moves them to sign-in.
  const [existing] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email))
  if (existing) {
    return data({ intent: 'signup' as const, existingEmail: email, result: submission.reply({ resetForm: true }) }, { status: 409 })
  }

  try {
    await getAuth().api.signUpEmail({
      body: { name: `${firstName} ${lastName}`, email, password, firstName, lastName, callbackURL: '/auth?confirmacion=1' },
      headers: request.headers,
    })
  } catch (error) {
    const { message } = errorCode(error)
    logger.error({ err: error }, 'Sign-up failed')
    return data(
      {
        intent: 'signup' as const,
        result: submission.reply({ formErrors: [message ? `Error al registrarse: ${message}` : 'Error inesperado'], hideFields: ['password', 'confirmPassword'] }),
      },
      { status: 500 },
    )
  }
  return data({ intent: 'signup' as const, signedUpEmail: email, result: submission.reply({ resetForm: true }) })
}

type Tab = 'login' | 'registro' | 'recuperar'

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const signedUpEmail = actionData && 'signedUpEmail' in actionData ? actionData.signedUpEmail : undefined
  const existingEmail = actionData && 'existingEmail' in actionData ? actionData.existingEmail : undefined
  const prefilledEmail = typeof signedUpEmail === 'string' ? signedUpEmail : typeof existingEmail === 'string' ? existingEmail : undefined

  // After sign-up (or a known e-mail) the sign-in tab opens with the e-mail filled in.
  const requested = searchParams.get('tab')
  const tab: Tab = prefilledEmail ? 'login' : requested === 'registro' ? 'registro' : requested === 'recuperar' ? 'recuperar' : 'login'

  useEffect(() => {
    if (!actionData) return
    if ('signedUpEmail' in actionData) toast.success('Cuenta creada exitosamente. Revisa tu email para confirmar tu cuenta.')
    if ('existingEmail' in actionData) toast.error('Ya existe una cuenta con este email')
  }, [actionData])

  const redirectTo = searchParams.get('redirectTo') ?? undefined
  const withRedirect = (params: Record<string, string>) => {
    const next = new URLSearchParams(params)
    if (redirectTo) next.set('redirectTo', redirectTo)
    return `/auth?${next}`
  }

  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-10 sm:py-16">
      <Card>
        <CardHeader className="pb-2">
          <CardTitle className="text-2xl">
            {tab === 'recuperar' ? 'Recuperar contraseña' : tab === 'registro' ? 'Crea tu cuenta' : 'Bienvenido de nuevo'}
          </CardTitle>
          <CardDescription>
            {tab === 'recuperar'
              ? 'Te enviaremos un enlace para elegir una contraseña nueva.'
              : `Accede a ${site.name}, la comunidad de líderes de life sciences.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {loaderData.confirmationFailed ? (
            <p role="alert" className="mb-4 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
              El enlace de confirmación no es válido o ha caducado. Inicia sesión y te enviaremos uno nuevo.
            </p>
          ) : null}
          {tab === 'recuperar' ? (
            <div className="grid gap-4">
              <ForgotPasswordForm action="/auth?tab=recuperar" lastResult={actionData?.intent === 'forgot' ? actionData.result : undefined} />
              <Link to={withRedirect({})} className="text-center text-sm text-primary underline-offset-4 hover:underline">
                Volver a iniciar sesión
              </Link>
            </div>
          ) : (
            <>
              <nav aria-label="Acceso" className="mb-6 grid grid-cols-2 rounded-lg bg-muted p-1">
                {(
                  [
                    ['login', 'Iniciar Sesión'],
                    ['registro', 'Registrarse'],
                  ] as const
                ).map(([value, label]) => (
                  <Link
                    key={value}
                    to={withRedirect(value === 'registro' ? { tab: 'registro' } : {})}
                    aria-current={tab === value ? 'page' : undefined}
                    className={cn(
                      'rounded-md px-3 py-2 text-center text-sm font-medium text-muted-foreground transition-colors',
                      tab === value && 'bg-background text-foreground shadow-sm',
                    )}
                  >
                    {label}
                  </Link>
                ))}
              </nav>
              {tab === 'login' ? (
                <SignInForm
                  key={prefilledEmail ?? 'login'}
                  defaultEmail={prefilledEmail}
                  redirectTo={redirectTo}
                  lastResult={actionData?.intent === 'signin' ? actionData.result : undefined}
                  forgotHref={withRedirect({ tab: 'recuperar' })}
                  signUpHref={withRedirect({ tab: 'registro' })}
                />
              ) : (
                <SignUpForm lastResult={actionData?.intent === 'signup' ? actionData.result : undefined} />
              )}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

function usePendingIntent(intent: string) {
  const navigation = useNavigation()
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
}

type LastResult = SubmissionResult<string[]>

function SignInForm({
  defaultEmail,
  redirectTo,
  lastResult,
  forgotHref,
  signUpHref,
}: {
  defaultEmail?: string
  redirectTo?: string
  lastResult?: LastResult
  forgotHref: string
  signUpHref: string
}) {
  const pending = usePendingIntent('signin')
  const [form, fields] = useForm({
    id: 'sign-in',
    lastResult,
    defaultValue: { email: defaultEmail },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" action="/auth" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signin" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <FormError errors={form.errors} id={form.errorId} />
      <Field
        label="Email"
        errors={fields.email.errors}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', placeholder: 'tu@empresa.com' }}
      />
      <Field
        label="Contraseña"
        errors={fields.password.errors}
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password' }}
      />
      <Button type="submit" disabled={pending} className="mt-1">
        {pending ? 'Iniciando...' : 'Iniciar Sesión'}
      </Button>
      <div className="mt-2 flex flex-wrap justify-between gap-2 text-sm">
        <Link to={forgotHref} className="text-primary underline underline-offset-4">
          ¿Olvidaste tu contraseña?
        </Link>
        <span className="text-muted-foreground">
          ¿No tienes cuenta?{' '}
          <Link to={signUpHref} className="font-medium text-primary underline underline-offset-4">
            Regístrate
          </Link>
        </span>
      </div>
    </Form>
  )
}

function SignUpForm({ lastResult }: { lastResult?: LastResult }) {
  const pending = usePendingIntent('signup')
  const [form, fields] = useForm({
    id: 'sign-up',
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" action="/auth?tab=registro" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signup" />
      <FormError errors={form.errors} id={form.errorId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Nombre"
          errors={fields.firstName.errors}
          inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name', maxLength: 50 }}
        />
        <Field
          label="Apellido"
          errors={fields.lastName.errors}
          inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name', maxLength: 50 }}
        />
      </div>
      <Field
        label="Email"
        errors={fields.email.errors}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', placeholder: 'tu@empresa.com' }}
      />
      <Field
        label="Contraseña"
        errors={fields.password.errors}
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password' }}
      />
      <Field
        label="Confirmar contraseña"
        errors={fields.confirmPassword.errors}
        inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
      />
      <p className="text-xs text-muted-foreground">
        Al registrarte aceptas las{' '}
        <Link to="/legal" className="underline">
          condiciones de uso
        </Link>{' '}
        y la{' '}
        <Link to="/privacidad" className="underline">
          política de privacidad
        </Link>
        .
      </p>
      <Button type="submit" disabled={pending}>
        {pending ? 'Registrando...' : 'Registrarse'}
      </Button>
    </Form>
  )
}
