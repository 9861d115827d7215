import { fromWallTime } from '~/platform/dates'

/** The most a list page pages to, and how long a text filter may be. */
const PAGE_MAX = 10_000
const TEXT_MAX = 100
/** Most items an appended list (ui/load-more.tsx) asks for at once: only to reload what it already shows. */
export const MAX_RELOAD = 100

/**
 * A list page's filter, read from its query string the one way every list does (the console's
 * members, admissions, audit log and moderation queue, the directory): a value that is not one of
 * the choices, not a real day or not a page number is ignored (that filter is off), never an
 * error; texts are cut at 100 characters. No server code: the pages' links use it too.
 */
export function readQuery(params: URLSearchParams) {
  const positive = (name: string) => {
    const value = Number.parseInt(params.get(name) ?? '', 10)
    return Number.isSafeInteger(value) && value > 0 ? value : null
  }
  return {
    text: (name: string) => (params.get(name) ?? '').slice(0, TEXT_MAX).trim(),
    choice<T extends string>(name: string, choices: Readonly<Record<T, unknown>>): T | '' {
      const value = params.get(name)
      return value && Object.hasOwn(choices, value) ? (value as T) : ''
    },
    /** A calendar day ('YYYY-MM-DD') that exists. */
    day(name: string) {
      const value = params.get(name) ?? ''
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && fromWallTime(`${value}T00:00`) ? value : ''
    },
    positive,
    page: () => Math.min(positive('pagina') ?? 1, PAGE_MAX),
    /** How many items an appended list asks for ('cantidad'): a page, or what it reloads. */
    count: (pageSize: number) => Math.min(positive('cantidad') ?? pageSize, MAX_RELOAD),
  }
}

type Values = Record<string, string | number | null | undefined>

/** The filter back as a query string, without its empty values and without the first page. */
export function filterQuery(values: Values) {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) {
    if (value && !(name === 'pagina' && value === 1)) params.set(name, String(value))
  }
  return params.toString()
}

/** A list page's link with that filter ('/admin/admisiones?estado=pending&pagina=2'). */
export function listHref(path: string, values: Values) {
  const query = filterQuery(values)
  return query ? `${path}?${query}` : path
}

/**
 * Where a list ordered by (a date, id) goes on ('<date in ms>_<id>'): the sessions library and the
 * events list. Anything else reads as no cursor (the first page).
 */
export const dateCursor = {
  encode: (date: Date, id: string) => `${date.getTime()}_${id}`,
  decode(value: string | null) {
    const match = value ? /^(\d{1,15})_([0-9a-f-]{36})$/.exec(value) : null
    return match ? { date: new Date(Number(match[1])), id: match[2]! } : null
  },
}
