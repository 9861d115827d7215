import { redirect } from 'react-router'
import { requireUser } from '~/features/account/guards.server'
import { guardedAction } from '~/platform/http/responses.server'
import { devicesAction } from './subscriptions.server'

/** The devices are listed in /perfil's notifications card. */
export async function loader() {
  return redirect('/perfil#notificaciones')
}

export const action = guardedAction(requireUser, devicesAction)
