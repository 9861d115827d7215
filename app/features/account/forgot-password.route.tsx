import { Link } from 'react-router'
import { handleIntent } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { ForgotPasswordSchema } from './auth-schemas'
import { ForgotPasswordForm } from './components/forgot-password-form'
import { requestPasswordReset } from './password-reset.server'
import type { Route } from './+types/forgot-password.route'

export const meta: Route.MetaFunction = () => [{ title: `Recuperar contraseña · ${site.name}` }]

export async function action({ request }: Route.ActionArgs) {
  return handleIntent(request, ForgotPasswordSchema, {
    forgot: { invalid: 'Por favor ingresa un email válido', run: (input) => requestPasswordReset(request, input) },
  })
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl" id="forgot-title">
            Recuperar contraseña
          </CardTitle>
          <CardDescription>Escribe el email de tu cuenta y te enviaremos un enlace para elegir una contraseña nueva.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ForgotPasswordForm action="/forgot-password" failure={actionData && !actionData.ok ? actionData : undefined} />
          <Link to="/auth" className="text-center text-sm text-primary underline-offset-4 hover:underline">
            Volver a iniciar sesión
          </Link>
        </CardContent>
      </Card>
    </div>
  )
}
