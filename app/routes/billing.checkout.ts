import { redirect } from 'react-router'
import { z } from 'zod'
import { startCheckout } from '~/models/billing.server'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { isLocalTestCheckout } from '~/utils/payments.server'
import { getCurrentUser } from '~/utils/permissions.server'
import { checkRateLimits, clientIp } from '~/utils/rate-limit.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { Route } from './+types/billing.checkout'

export async function loader() {
  return redirect('/pricing')
}

const PlanSchema = z.enum(['monthly', 'annual'])

export async function action({ request }: Route.ActionArgs) {
  const user = await getCurrentUser(request)
  // Spec: a visitor who is not signed in is sent to /auth instead, and comes back to the prices.
  if (!user) return redirect(`/auth?${new URLSearchParams({ redirectTo: '/pricing' })}`)
  if (user.profile?.isPremium) return redirectWithToast('/perfil', { type: 'info', title: 'Ya eres miembro Premium' })

  const plan = PlanSchema.safeParse((await request.formData()).get('plan'))
  if (!plan.success) return redirectWithToast('/pricing', { type: 'error', title: 'Error al procesar el pago' })
  const limited = await checkRateLimits([{ key: `checkout:${user.id}:${clientIp(request)}`, max: 10, windowSeconds: 10 * 60 }])
  if (limited) return redirectWithToast('/pricing', { type: 'error', title: limited.message })

  try {
    // The test checkout serves only this machine (see isLocalTestCheckout): others get the manual answer.
    const testCheckoutRefused = getEnv().PAYMENTS_PROVIDER === 'test' && !isLocalTestCheckout(request)
    const url = testCheckoutRefused ? null : await startCheckout(user.id, plan.data)
    if (!url) {
      return redirectWithToast('/pricing', {
        type: 'info',
        title: 'El pago en línea no está disponible',
        description: 'Solicita tu admisión y te daremos acceso premium.',
      })
    }
    return redirect(url, 303)
  } catch (error) {
    logger.error({ err: error, userId: user.id }, 'Checkout failed')
    return redirectWithToast('/pricing', { type: 'error', title: 'Error al procesar el pago' })
  }
}
