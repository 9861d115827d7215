import { redirect, type UNSAFE_DataWithResponseInit as DataWithInit } from 'react-router'
import { requireUser } from '~/features/account/guards.server'
import { guardedAction, REQUEST_MESSAGES } from '~/platform/http/responses.server'
import type { Message } from '~/platform/http/result'
import { redirectWithToast } from '~/platform/http/toast.server'
import type { Route } from './+types/membership.route'
import { membershipAction } from './lifecycle.server'

export async function loader() {
  return redirect('/perfil')
}

const answer = guardedAction(requireUser, membershipAction)

/**
 * 'Mantener mi membresía' and why one cancels: posted by fetchers from /perfil and the community.
 * Without JavaScript the browser navigates here (Sec-Fetch-Mode: navigate): the member goes back
 * to /perfil with the result as a toast instead of a page of JSON.
 */
export async function action(args: Route.ActionArgs) {
  const result = await answer(args)
  if (args.request.headers.get('Sec-Fetch-Mode') !== 'navigate') return result
  const body = (result as DataWithInit<{ ok: boolean; message?: Message }>).data
  const { title, description } = body?.message ?? { title: REQUEST_MESSAGES.failed }
  return redirectWithToast('/perfil#membresia', { type: body?.ok ? 'success' : 'error', title, description })
}
