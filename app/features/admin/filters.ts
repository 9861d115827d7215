import { filterQuery, readQuery } from '~/platform/http/query'

/**
 * What the console's pages read from their query strings, shared by their loaders and their
 * forms (no server code: the pages' components use it too).
 */

/** The dashboard's periods, in days. */
export const PERIODS = [7, 30, 90] as const
export type Period = (typeof PERIODS)[number]

/**
 * The members table's filter (/admin/miembros), read the same way by the table and its CSV
 * export, so the export is exactly the table an admin is looking at (read as every list reads
 * its filter: platform/http/query.ts).
 */
export const FILTERS = {
  premium: { si: 'Premium', no: 'Sin premium' },
  origen: { mensual: 'Stripe mensual', anual: 'Stripe anual', admin: 'Concedido por un admin' },
  rol: { admin: 'Administrador', moderador: 'Moderador', miembro: 'Sin rol' },
  perfil: { completo: 'Completo', incompleto: 'Incompleto' },
  cobro: { 'pago-fallido': 'Pago fallido', 'en-pausa': 'En pausa' },
  orden: { recientes: 'Más recientes', antiguos: 'Más antiguos', nombre: 'Nombre (A-Z)' },
} as const

type Choice<K extends keyof typeof FILTERS> = keyof (typeof FILTERS)[K] | ''

export interface MemberFilter {
  q: string
  premium: Choice<'premium'>
  origen: Choice<'origen'>
  rol: Choice<'rol'>
  perfil: Choice<'perfil'>
  cobro: Choice<'cobro'>
  desde: string
  hasta: string
  orden: Choice<'orden'>
  pagina: number
}

export function readMemberFilter(params: URLSearchParams): MemberFilter {
  const read = readQuery(params)
  return {
    q: read.text('q'),
    premium: read.choice('premium', FILTERS.premium),
    origen: read.choice('origen', FILTERS.origen),
    rol: read.choice('rol', FILTERS.rol),
    perfil: read.choice('perfil', FILTERS.perfil),
    cobro: read.choice('cobro', FILTERS.cobro),
    desde: read.day('desde'),
    hasta: read.day('hasta'),
    orden: read.choice('orden', FILTERS.orden),
    pagina: read.page(),
  }
}

/** The filter as a query string without its page: the export's link and its audit line. */
export const memberFilterQuery = (filter: MemberFilter) => filterQuery({ ...filter, pagina: null })
