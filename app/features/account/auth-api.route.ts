import { getAuth } from '~/features/account/auth.server'
import type { Route } from './+types/auth-api.route'

/**
 * Of better-auth's HTTP endpoints only the e-mail confirmation link is public. Sign-up,
 * sign-in, recovery and profile changes go through our own route actions, which validate
 * with the spec's rules and rate-limit; exposing better-auth's JSON endpoints as well would
 * let a caller skip both (e.g. sign up with a 6-character password or a 10 kB name).
 */
const PUBLIC_AUTH_PATHS = new Set(['/api/auth/verify-email'])

function publicEndpointOnly(request: Request) {
  if (request.method !== 'GET' || !PUBLIC_AUTH_PATHS.has(new URL(request.url).pathname)) {
    return new Response('Not found', { status: 404 })
  }
  return getAuth().handler(request)
}

export async function loader({ request }: Route.LoaderArgs) {
  return publicEndpointOnly(request)
}

export async function action({ request }: Route.ActionArgs) {
  return publicEndpointOnly(request)
}
