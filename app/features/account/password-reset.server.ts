import type { z } from 'zod'
import { getAuth } from '~/features/account/auth.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import type { ForgotPasswordSchema } from './auth-schemas'

/**
 * Looking the account up, making the link and writing the e-mail happen in a job, after the
 * answer: the form then takes the same time whether or not the account exists, so its timing
 * cannot tell anyone which e-mails have accounts.
 */
export const passwordResetJob = defineJob<{ email: string }>({
  name: 'account.password-reset',
  label: 'Correo de recuperación de contraseña',
  async run({ email }) {
    await getAuth().api.requestPasswordReset({ body: { email, redirectTo: '/reset-password' } })
  },
})

/** The forgot-password form, on /forgot-password and in /auth's login view: the same answer for every e-mail. */
export async function requestPasswordReset(request: Request, { email }: z.output<typeof ForgotPasswordSchema>) {
  await enforceRateLimits([
    { key: `forgot:ip:${clientIp(request)}`, max: 10, windowSeconds: 15 * 60 },
    { key: `forgot:email:${email}`, max: 3, windowSeconds: 15 * 60 },
  ])
  await enqueue(passwordResetJob, { email })
  return redirectWithToast('/auth', { type: 'success', title: 'Email de recuperación enviado. Revisa tu bandeja de entrada.' })
}
