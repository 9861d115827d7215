import { redirect } from 'react-router'
import { z } from 'zod'
import { getCurrentUser } from '~/features/account/guards.server'
import { getEnv } from '~/platform/env.server'
import { handleIntent } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { logger } from '~/platform/logger.server'
import { checkRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { clientIp } from '~/platform/http/client-ip'
import { startCheckout } from './billing.server'
import { mayStartCheckout } from '~/features/admission/admission.server'
import { ADMISSION_MESSAGES } from '~/features/admission/limits'
import { isLocalTestCheckout } from './stripe.server'
import type { Route } from './+types/checkout.route'

export async function loader() {
  return redirect('/pricing')
}

const CheckoutIntent = z.object({ intent: z.literal('checkout'), plan: z.enum(['monthly', 'annual']) })

export async function action({ request }: Route.ActionArgs) {
  const user = await getCurrentUser(request)
  // Spec: a visitor who is not signed in is sent to /auth instead, and comes back to the prices.
  if (!user) return redirect(`/auth?${new URLSearchParams({ redirectTo: '/pricing' })}`)
  if (user.profile?.isPremium) return redirectWithToast('/perfil', { type: 'info', title: 'Ya eres miembro Premium' })
  return handleIntent(request, CheckoutIntent, {
    checkout: {
      invalid: 'Error al procesar el pago',
      async run({ plan }) {
        const limited = await checkRateLimits([{ key: `checkout:${user.id}:${clientIp(request)}`, max: 10, windowSeconds: 10 * 60 }])
        if (limited) return redirectWithToast('/pricing', { type: 'error', title: limited.message })
        // 'Admisión obligatoria' (the console's setting): the prices page below the message offers the way to apply.
        if (!(await mayStartCheckout(user)))
          return redirectWithToast('/pricing', {
            type: 'info',
            title: 'Primero, tu admisión',
            description: ADMISSION_MESSAGES.admissionRequired,
          })
        try {
          // The test checkout serves only this machine (see isLocalTestCheckout): others get the manual answer.
          const testCheckoutRefused = getEnv().PAYMENTS_PROVIDER === 'test' && !isLocalTestCheckout(request)
          const url = testCheckoutRefused ? null : await startCheckout(user.id, plan)
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
      },
    },
  })
}
