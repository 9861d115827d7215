import { redirect } from 'react-router'
import { requireUser } from '~/features/account/guards.server'
import { guardedAction } from '~/platform/http/responses.server'
import { membershipAction } from './lifecycle.server'

export async function loader() {
  return redirect('/perfil')
}

/** 'Mantener mi membresía' and why one cancels: posted by fetchers from /perfil and the community. */
export const action = guardedAction(requireUser, membershipAction)
