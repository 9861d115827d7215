import { getAuth } from '~/utils/auth.server'
import type { Route } from './+types/api.auth'

// better-auth's own endpoints: the e-mail confirmation link lands here.
export async function loader({ request }: Route.LoaderArgs) {
  return getAuth().handler(request)
}

export async function action({ request }: Route.ActionArgs) {
  return getAuth().handler(request)
}
