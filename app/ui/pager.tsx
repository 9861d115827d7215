import { Link } from 'react-router'

/** 'Anterior', 'Página N de M', 'Siguiente' under a paged list (nothing when there is one page). */
export function Pager({
  label,
  page,
  pageCount,
  hrefOf,
}: {
  label: string
  page: number
  pageCount: number
  hrefOf: (page: number) => string
}) {
  if (pageCount <= 1) return null
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={hrefOf(page - 1)} className="rounded-md border px-3 py-1.5 hover:bg-accent">
          Anterior
        </Link>
      ) : null}
      <span>
        Página {page} de {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefOf(page + 1)} className="rounded-md border px-3 py-1.5 hover:bg-accent">
          Siguiente
        </Link>
      ) : null}
    </nav>
  )
}
