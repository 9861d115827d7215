import { useRouteLoaderData } from 'react-router'
import { site } from '~/site.config'

export interface Admission {
  /** Where 'Solicitar admisión' leads (the operator's setting, /admin/ajustes): /admision or the external form. */
  href: string
  /** The external form opens in a new tab (spec); the in-app one in place. */
  external: boolean
  /** The countdown's date, a wall time read in the visitor's zone. */
  launchAt: string
}

/** The admission settings the root loader read, or a new install's defaults while there are none. */
export function useAdmission(): Admission {
  const root = useRouteLoaderData('root') as { admission?: Admission } | undefined
  return root?.admission ?? { href: '/admision', external: false, launchAt: site.admission.launchAt }
}
