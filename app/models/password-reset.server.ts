import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { getAuth } from '~/utils/auth.server'
import { ForgotPasswordSchema } from '~/utils/auth-schemas'
import { logger } from '~/utils/logger.server'
import { checkRateLimits, clientIp } from '~/utils/rate-limit.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * The forgot-password form, on /forgot-password and in /auth's login view. It answers
 * the same whether or not an account exists, so it cannot be used to probe e-mails.
 */
export async function handleForgotPasswordForm(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema })
  if (submission.status !== 'success') return data({ intent: 'forgot' as const, result: submission.reply() }, { status: 400 })

  const { email } = submission.value
  const limited = await checkRateLimits([
    { key: `forgot:ip:${clientIp(request)}`, max: 10, windowSeconds: 15 * 60 },
    { key: `forgot:email:${email}`, max: 3, windowSeconds: 15 * 60 },
  ])
  if (limited) {
    return data({ intent: 'forgot' as const, result: submission.reply({ formErrors: [limited.message] }) }, { status: 429 })
  }
  try {
    await getAuth().api.requestPasswordReset({ body: { email, redirectTo: '/reset-password' }, headers: request.headers })
  } catch (error) {
    logger.error({ err: error }, 'Password reset request failed')
    const message = error instanceof Error ? error.message : 'Error inesperado'
    return data(
      { intent: 'forgot' as const, result: submission.reply({ formErrors: [`Error al enviar email de recuperación: ${message}`] }) },
      { status: 500 },
    )
  }
  return redirectWithToast('/auth', {
    type: 'success',
    title: 'Email de recuperación enviado. Revisa tu bandeja de entrada.',
  })
}
