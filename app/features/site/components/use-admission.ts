import { useRouteLoaderData } from 'react-router'
import { site } from '~/site.config'

export interface Admission {
  /** Where 'Solicitar admisión' leads (the operator's setting, /admin/ajustes). */
  formUrl: string
  /** The countdown's date, a wall time read in the visitor's zone. */
  launchAt: string
}

/** The admission settings the root loader read, or the site's defaults while there are none. */
export function useAdmission(): Admission {
  const root = useRouteLoaderData('root') as { admission?: Admission } | undefined
  return root?.admission ?? { formUrl: site.admissionFormUrl, launchAt: site.admission.launchAt }
}
