import { getFormProps } from '@conform-to/react'
import { HiddenFields } from '~/ui/hidden-fields'
import { useZodForm } from '~/ui/parse-with-zod'
import { Form, Link, useNavigation } from 'react-router'
import { isPasswordResetTokenValid } from '~/features/account/auth.server'
import { formErrors } from '~/platform/http/result'
import { redirectWithToast } from '~/platform/http/toast.server'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { FormError } from '~/ui/field'
import { resetPasswordAction } from './auth-action.server'
import { ResetPasswordSchema } from './auth-schemas'
import { PasswordField } from './components/credential-fields'
import type { Route } from './+types/reset-password.route'

export const meta: Route.MetaFunction = () => [{ title: `Nueva contraseña · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const INVALID_LINK = 'Enlace de recuperación inválido'
const EXPIRED_LINK = 'El enlace de recuperación no es válido o ha caducado'

/**
 * The spec's route rules: an error in the link is shown (only the fixed message of a known
 * code: the link's own text never reaches the page) and a link of another type is refused.
 * A link already used, expired, or issued before the password last changed says so at once.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const error = params.get('error')
  if (error) return redirectWithToast('/auth', { type: 'error', title: error === 'INVALID_TOKEN' ? EXPIRED_LINK : INVALID_LINK })
  const type = params.get('type')
  const token = params.get('token')
  if ((type && type !== 'recovery') || !token) return redirectWithToast('/auth', { type: 'error', title: INVALID_LINK })
  if (!(await isPasswordResetTokenValid(token))) return { token: null }
  return { token }
}

export async function action({ request }: Route.ActionArgs) {
  return resetPasswordAction(request)
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const failure = actionData && !actionData.ok ? actionData : undefined
  const [form, fields] = useZodForm(ResetPasswordSchema, { id: 'reset-password', failure })
  if (!loaderData.token) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
        <Card>
          <CardHeader>
            <CardTitle className="text-2xl">{INVALID_LINK}</CardTitle>
            <CardDescription>
              Este enlace ya no sirve: se usó, caducó (dura una hora) o tu contraseña cambió después de pedirlo. Pide uno nuevo y usa el
              último que te enviemos.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <Link to="/auth?tab=recuperar">Solicitar un enlace nuevo</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    )
  }
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Nueva contraseña</CardTitle>
          <CardDescription>Elige una contraseña nueva. Por seguridad cerraremos tus otras sesiones abiertas.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" className="grid gap-3" {...getFormProps(form)}>
            <HiddenFields values={{ intent: 'reset-password', token: loaderData.token }} />
            <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
            <PasswordField label="Nueva contraseña" field={fields.password} />
            <PasswordField label="Confirmar contraseña" field={fields.confirmPassword} />
            <Button type="submit" disabled={pending}>
              {pending ? 'Guardando...' : 'Actualizar contraseña'}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  )
}
