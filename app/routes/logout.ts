import { redirect } from 'react-router'
import { getAuth } from '~/utils/auth.server'
import { logger } from '~/utils/logger.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { Route } from './+types/logout'

export async function loader() {
  return redirect('/')
}

export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers()
  try {
    const result = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true })
    for (const cookie of result.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
  } catch (error) {
    logger.error({ err: error }, 'Sign-out failed')
    return redirectWithToast('/', { type: 'error', title: `Error al cerrar sesión: ${(error as Error).message}` })
  }
  return redirectWithToast('/', { type: 'success', title: 'Sesión cerrada correctamente' }, { headers })
}
