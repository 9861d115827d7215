import { redirect } from 'react-router'
import { z } from 'zod'
import { requireUser } from '~/features/account/guards.server'
import { handleIntent } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { logger } from '~/platform/logger.server'
import { startBillingPortal } from './billing.server'
import type { Route } from './+types/portal.route'

export async function loader() {
  return redirect('/perfil')
}

/** 'Gestionar suscripción': the member's own customer only, never one named by the request. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  return handleIntent(request, z.object({ intent: z.literal('portal') }), {
    portal: {
      invalid: 'Error al abrir el portal de gestión',
      async run() {
        const customerId = user.profile?.stripeCustomerId
        if (!customerId) return redirectWithToast('/perfil', { type: 'error', title: 'No se encontró información de suscripción' })
        try {
          const url = await startBillingPortal(customerId)
          if (!url) return redirectWithToast('/perfil', { type: 'error', title: 'Error al abrir el portal de gestión' })
          return redirect(url, 303)
        } catch (error) {
          logger.error({ err: error, userId: user.id }, 'Billing portal failed')
          return redirectWithToast('/perfil', { type: 'error', title: 'Error al abrir el portal de gestión' })
        }
      },
    },
  })
}
