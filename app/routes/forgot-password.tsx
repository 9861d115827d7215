import { Link } from 'react-router'
import { ForgotPasswordForm } from '~/components/auth/forgot-password-form'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { handleForgotPasswordForm } from '~/models/password-reset.server'
import { site } from '~/site.config'
import type { Route } from './+types/forgot-password'

export const meta: Route.MetaFunction = () => [{ title: `Recuperar contraseña · ${site.name}` }]

export async function action({ request }: Route.ActionArgs) {
  return handleForgotPasswordForm(request, await request.formData())
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
          <ForgotPasswordForm action="/forgot-password" lastResult={actionData?.result} />
          <Link to="/auth" className="text-center text-sm text-primary underline-offset-4 hover:underline">
            Volver a iniciar sesión
          </Link>
        </CardContent>
      </Card>
    </div>
  )
}
