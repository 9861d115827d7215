import { redirect } from 'react-router'
import { startBillingPortal } from '~/models/billing.server'
import { logger } from '~/utils/logger.server'
import { requireUser } from '~/utils/permissions.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { Route } from './+types/billing.portal'

export async function loader() {
  return redirect('/perfil')
}

/** 'Gestionar suscripción': the member's own customer only, never one named by the request. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
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
}
