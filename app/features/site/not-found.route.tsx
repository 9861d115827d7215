import { data } from 'react-router'
import { NotFound } from '~/ui/error-boundary'
import { site } from '~/site.config'
import type { Route } from './+types/not-found.route'

export const meta: Route.MetaFunction = () => [{ title: `Página no encontrada · ${site.name}` }]

export async function loader() {
  return data(null, { status: 404 })
}

export async function action() {
  return data(null, { status: 404 })
}

export default function NotFoundPage() {
  return <NotFound />
}
