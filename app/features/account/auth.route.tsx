import { getFormProps } from '@conform-to/react'
import { useZodForm } from '~/ui/parse-with-zod'
import { useEffect } from 'react'
import { Form, Link, useLocation, useNavigate, useNavigation, useSearchParams } from 'react-router'
import { requireAnonymous } from '~/features/account/guards.server'
import { guardedAction } from '~/platform/http/responses.server'
import { type Failure, formErrors } from '~/platform/http/result'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { cn } from '~/ui/cn'
import { Field, FormError } from '~/ui/field'
import { useResultToast } from '~/ui/toast'
import { authAction } from './auth-action.server'
import { invitedEmail } from '~/features/admission/admission.server'
import { SignInSchema, SignUpSchema, TwoFactorSchema } from './auth-schemas'
import { EmailField, PasswordField } from './components/credential-fields'
import { ForgotPasswordForm } from './components/forgot-password-form'
import type { Route } from './+types/auth.route'
import { PasskeySignIn } from './components/passkeys'

export const meta: Route.MetaFunction = () => [
  { title: `Iniciar sesión o registrarse · ${site.name}` },
  { name: 'description', content: 'Accede a tu cuenta o crea una nueva para unirte a la comunidad.' },
]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  // better-auth sends a failed e-mail confirmation back here with an error code.
  const params = new URL(request.url).searchParams
  const confirmationFailed = params.has('error')
  // Sign-up from an admission invitation: the invited address, fixed.
  const token = params.get('invitacion')
  const email = token ? await invitedEmail(token) : null
  return { confirmationFailed, invitation: token && email ? { token, email } : null }
}

export const action = guardedAction(requireAnonymous, authAction)

type Tab = 'login' | 'registro' | 'recuperar' | 'codigo'

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const answer = actionData?.ok ? actionData : undefined
  const answeredEmail =
    answer && 'signedUpEmail' in answer ? answer.signedUpEmail : answer && 'existingEmail' in answer ? answer.existingEmail : undefined
  const location = useLocation()
  const navigate = useNavigate()
  const prefilledEmail = answeredEmail ?? (location.state as { email?: string } | null)?.email
  // A failure belongs to the form on screen: each form posts to its own tab's URL.
  const failure = actionData && !actionData.ok ? actionData : undefined

  // After sign-up (or a known e-mail) the sign-in tab opens with the e-mail filled in.
  const requested = searchParams.get('tab')
  const tab: Tab = prefilledEmail
    ? 'login'
    : requested === 'registro' || requested === 'recuperar' || requested === 'codigo'
      ? requested
      : 'login'

  useResultToast('idle', actionData)
  // After sign-up the sign-in tab opens: the address follows it (a shared link opens the tab shown).
  useEffect(() => {
    if (!answeredEmail || !searchParams.has('tab')) return
    const next = new URLSearchParams(searchParams)
    next.delete('tab')
    void navigate(`/auth${next.size ? `?${next}` : ''}`, { replace: true, preventScrollReset: true, state: { email: answeredEmail } })
  }, [answeredEmail, navigate, searchParams])

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
            {tab === 'recuperar'
              ? 'Recuperar contraseña'
              : tab === 'registro'
                ? 'Crea tu cuenta'
                : tab === 'codigo'
                  ? 'Verificación en dos pasos'
                  : 'Bienvenido de nuevo'}
          </CardTitle>
          <CardDescription>
            {tab === 'recuperar'
              ? 'Te enviaremos un enlace para elegir una contraseña nueva.'
              : tab === 'codigo'
                ? 'Escribe el código de 6 cifras de tu aplicación de autenticación, o uno de tus códigos de recuperación.'
                : `Accede a ${site.name}, la comunidad de líderes de life sciences.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {loaderData.confirmationFailed ? (
            <p role="alert" className="mb-4 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
              El enlace de confirmación no es válido o ha caducado. Inicia sesión y te enviaremos uno nuevo.
            </p>
          ) : null}
          {tab === 'codigo' ? (
            <div className="grid gap-4">
              <TwoFactorForm redirectTo={redirectTo} failure={failure} />
              <Link to={withRedirect({})} className="text-center text-sm text-primary underline-offset-4 hover:underline">
                Volver a iniciar sesión
              </Link>
            </div>
          ) : tab === 'recuperar' ? (
            <div className="grid gap-4">
              <ForgotPasswordForm action="/auth?tab=recuperar" failure={failure} />
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
                  failure={failure}
                  forgotHref={withRedirect({ tab: 'recuperar' })}
                  signUpHref={withRedirect({ tab: 'registro' })}
                />
              ) : (
                <SignUpForm failure={failure} invitation={loaderData.invitation} />
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

function SignInForm({
  defaultEmail,
  redirectTo,
  failure,
  forgotHref,
  signUpHref,
}: {
  defaultEmail?: string
  redirectTo?: string
  failure?: Failure
  forgotHref: string
  signUpHref: string
}) {
  const pending = usePendingIntent('signin')
  const [form, fields] = useZodForm(SignInSchema, { id: 'sign-in', failure, defaultValue: { email: defaultEmail } })
  return (
    <Form method="post" action="/auth" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signin" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <EmailField field={fields.email} />
      <PasswordField label="Contraseña" field={fields.password} current />
      <Button type="submit" disabled={pending} className="mt-1">
        {pending ? 'Iniciando...' : 'Iniciar Sesión'}
      </Button>
      <PasskeySignIn redirectTo={redirectTo} />
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

function TwoFactorForm({ redirectTo, failure }: { redirectTo?: string; failure?: Failure }) {
  const pending = usePendingIntent('two-factor')
  const [form, fields] = useZodForm(TwoFactorSchema, { id: 'two-factor', failure })
  const action = `/auth?${new URLSearchParams({ tab: 'codigo', ...(redirectTo ? { redirectTo } : {}) })}`
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="two-factor" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <Field label="Código" field={fields.code} autoComplete="one-time-code" maxLength={11} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name={fields.trustDevice.name} className="size-4 accent-primary" />
        Confiar en este dispositivo 30 días
      </label>
      <Button type="submit" disabled={pending}>
        {pending ? 'Comprobando...' : 'Continuar'}
      </Button>
    </Form>
  )
}

function SignUpForm({ failure, invitation }: { failure?: Failure; invitation: { token: string; email: string } | null }) {
  const pending = usePendingIntent('signup')
  const [form, fields] = useZodForm(SignUpSchema, {
    id: 'sign-up',
    failure,
    shouldValidate: 'onBlur',
    defaultValue: invitation ? { email: invitation.email } : undefined,
  })
  const action = invitation ? `/auth?${new URLSearchParams({ tab: 'registro', invitacion: invitation.token })}` : '/auth?tab=registro'
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signup" />
      {invitation ? <input type="hidden" name="invitation" value={invitation.token} /> : null}
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Nombre" field={fields.firstName} autoComplete="given-name" maxLength={50} />
        <Field label="Apellido" field={fields.lastName} autoComplete="family-name" maxLength={50} />
      </div>
      <EmailField field={fields.email} readOnly={Boolean(invitation)} />
      <PasswordField label="Contraseña" field={fields.password} />
      <PasswordField label="Confirmar contraseña" field={fields.confirmPassword} />
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
