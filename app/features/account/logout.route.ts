import { redirect } from 'react-router'
import { z } from 'zod'
import { getAuth } from '~/features/account/auth.server'
import { safeRedirect } from '~/platform/auth/guards.server'
import { handleIntent } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { logger } from '~/platform/logger.server'
import type { Route } from './+types/logout.route'

export async function loader() {
  return redirect('/')
}

export async function action({ request }: Route.ActionArgs) {
  return handleIntent(request, z.object({ intent: z.literal('logout'), redirectTo: z.string().optional() }), {
    logout: {
      invalid: 'Solicitud no válida',
      async run({ redirectTo }) {
        const headers = new Headers()
        try {
          const result = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true })
          for (const cookie of result.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
        } catch (error) {
          logger.error({ err: error }, 'Sign-out failed')
          return redirectWithToast('/', { type: 'error', title: 'Error al cerrar sesión. Vuelve a intentarlo.' })
        }
        // An invitation for another address signs out and comes back to itself.
        return redirectWithToast(safeRedirect(redirectTo, '/'), { type: 'success', title: 'Sesión cerrada correctamente' }, { headers })
      },
    },
  })
}
