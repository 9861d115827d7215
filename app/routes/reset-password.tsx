import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Field, FormError } from '~/components/ui/field'
import { site } from '~/site.config'
import { getAuth } from '~/utils/auth.server'
import { ResetPasswordSchema } from '~/utils/auth-schemas'
import { logger } from '~/utils/logger.server'
import { checkRateLimits, clientIp } from '~/utils/rate-limit.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { Route } from './+types/reset-password'

export const meta: Route.MetaFunction = () => [
  { title: `Nueva contraseña · ${site.name}` },
  { name: 'robots', content: 'noindex' },
]

const INVALID_LINK = 'Enlace de recuperación inválido'

/** The spec's route rules: an error in the link is shown; a link of another type is refused. */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const error = params.get('error')
  if (error) {
    const description = params.get('error_description')?.slice(0, 200)
    return redirectWithToast('/auth', {
      type: 'error',
      title: description || (error === 'INVALID_TOKEN' ? 'El enlace de recuperación no es válido o ha caducado' : INVALID_LINK),
    })
  }
  const type = params.get('type')
  const token = params.get('token')
  if ((type && type !== 'recovery') || !token) return redirectWithToast('/auth', { type: 'error', title: INVALID_LINK })
  return { token }
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: ResetPasswordSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
  }
  const limited = await checkRateLimits([{ key: `reset:ip:${clientIp(request)}`, max: 10, windowSeconds: 15 * 60 }])
  if (limited) return data({ result: submission.reply({ formErrors: [limited.message] }) }, { status: 429 })

  try {
    // Also ends every session of the account (revokeSessionsOnPasswordReset).
    await getAuth().api.resetPassword({ body: { newPassword: submission.value.password, token: submission.value.token } })
  } catch (error) {
    const code = (error as { body?: { code?: string } }).body?.code
    if (code !== 'INVALID_TOKEN') logger.error({ err: error }, 'Password reset failed')
    const message =
      code === 'INVALID_TOKEN'
        ? 'Error al actualizar contraseña: el enlace ha caducado o ya se ha usado. Solicita uno nuevo.'
        : `Error al actualizar contraseña: ${(error as Error).message || 'Error inesperado'}`
    return data({ result: submission.reply({ formErrors: [message], hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
  }
  return redirectWithToast('/', { type: 'success', title: 'Contraseña actualizada correctamente' })
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Nueva contraseña</CardTitle>
          <CardDescription>Elige una contraseña nueva. Por seguridad cerraremos tus otras sesiones abiertas.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" className="grid gap-3" {...getFormProps(form)}>
            <input type="hidden" name="token" value={loaderData.token} />
            <FormError errors={form.errors} id={form.errorId} />
            <Field
              label="Nueva contraseña"
              errors={fields.password.errors}
              inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password' }}
            />
            <Field
              label="Confirmar contraseña"
              errors={fields.confirmPassword.errors}
              inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
            />
            <Button type="submit" disabled={pending}>
              {pending ? 'Guardando...' : 'Actualizar contraseña'}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  )
}
