import { fromWallTime } from '~/platform/dates'

/**
 * What the console's pages read from their query strings, shared by their loaders and their
 * forms (no server code: the pages' components use it too).
 */

/** The dashboard's periods, in days. */
export const PERIODS = [7, 30, 90] as const
export type Period = (typeof PERIODS)[number]

/**
 * The members table's filter (/admin/miembros), read the same way by the table and its CSV
 * export, so the export is exactly the table an admin is looking at. Unknown values are ignored
 * (the filter is off), texts are cut at 100 characters.
 */
export const FILTERS = {
  premium: { si: 'Premium', no: 'Sin premium' },
  origen: { mensual: 'Stripe mensual', anual: 'Stripe anual', admin: 'Concedido por un admin' },
  rol: { admin: 'Administrador', moderador: 'Moderador', miembro: 'Sin rol' },
  perfil: { completo: 'Completo', incompleto: 'Incompleto' },
  orden: { recientes: 'Más recientes', antiguos: 'Más antiguos', nombre: 'Nombre (A-Z)' },
} as const

type Choice<K extends keyof typeof FILTERS> = keyof (typeof FILTERS)[K] | ''

export interface MemberFilter {
  q: string
  premium: Choice<'premium'>
  origen: Choice<'origen'>
  rol: Choice<'rol'>
  perfil: Choice<'perfil'>
  desde: string
  hasta: string
  orden: Choice<'orden'>
  pagina: number
}

const choice = <K extends keyof typeof FILTERS>(key: K, value: string | null): Choice<K> =>
  value && Object.hasOwn(FILTERS[key], value) ? (value as Choice<K>) : ''
const day = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) && fromWallTime(`${value}T00:00`) ? value : '')

export function readMemberFilter(params: URLSearchParams): MemberFilter {
  const page = Number.parseInt(params.get('pagina') ?? '1', 10)
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    premium: choice('premium', params.get('premium')),
    origen: choice('origen', params.get('origen')),
    rol: choice('rol', params.get('rol')),
    perfil: choice('perfil', params.get('perfil')),
    desde: day(params.get('desde')),
    hasta: day(params.get('hasta')),
    orden: choice('orden', params.get('orden')),
    pagina: Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1,
  }
}

/** The filter as a query string (without the page unless asked), for links and the export. */
export function memberFilterQuery(filter: MemberFilter, page?: number) {
  const params = new URLSearchParams()
  for (const key of ['q', 'premium', 'origen', 'rol', 'perfil', 'desde', 'hasta', 'orden'] as const) {
    if (filter[key]) params.set(key, filter[key])
  }
  if (page && page > 1) params.set('pagina', String(page))
  return params.toString()
}
