/** What the search page and its server module share: the tabs, the orders and the snippet's marks. */

/** The tabs, in the order shown. */
export const SEARCH_TABS = {
  todo: 'Todo',
  posts: 'Posts',
  comentarios: 'Comentarios',
  sesiones: 'Sesiones',
  eventos: 'Eventos',
  miembros: 'Miembros',
} as const
export type SearchTab = keyof typeof SEARCH_TABS

export const SEARCH_ORDERS = { relevancia: 'Relevancia', recientes: 'Más recientes' } as const
export type SearchOrder = keyof typeof SEARCH_ORDERS

/**
 * The most matches a search reads of each kind (issue 38): counting stops one past it and the page
 * orders at most this many per kind, so a common word costs the same at 10,000 posts as at a
 * million. A hundred is ten pages of ten, more than a member reads before adding a word; past it a
 * tab says so (decisions/0031: a thousand cost a common word twice as much at ×10 as at ×1).
 */
export const SEARCH_CAP = 100
/** A tab's count past the cap, in the tab's parentheses: 'Posts (más de 100)'. */
export const CAPPED_COUNT = 'más de 100'
/** Said above the results when the open tab is past the cap: what the order looked at. */
export const CAPPED_NOTE: Record<SearchOrder, string> = {
  relevancia:
    'Hay más de 100 resultados: se ordenan por relevancia los que lo dicen en el título y los más recientes. Añade palabras para afinar la búsqueda.',
  recientes: 'Hay más de 100 resultados: se muestran los 100 más recientes. Añade palabras para afinar la búsqueda.',
}

export type SearchKind = 'post' | 'comment' | 'session_comment' | 'session' | 'event' | 'member'

/** Each result's type, as a screen reader hears it before the title. */
export const KIND_LABELS: Record<SearchKind, string> = {
  post: 'Post',
  comment: 'Comentario',
  session_comment: 'Comentario de sesión',
  session: 'Sesión',
  event: 'Evento',
  member: 'Miembro',
}

// The snippet's marks: control characters, which the server keeps out of what members type.
export const MARK_START = '\u0002'
export const MARK_STOP = '\u0003'

/** A snippet as text and marked words, for React to render escaped: never stored HTML. */
export function snippetParts(snippet: string): Array<{ text: string; marked: boolean }> {
  const parts: Array<{ text: string; marked: boolean }> = []
  for (const [index, piece] of snippet.split(MARK_START).entries()) {
    const [marked, ...rest] = index === 0 ? ['', piece] : piece.split(MARK_STOP)
    if (marked) parts.push({ text: marked, marked: true })
    if (rest.join('')) parts.push({ text: rest.join(''), marked: false })
  }
  return parts
}
