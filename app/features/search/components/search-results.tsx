import { Search } from 'lucide-react'
import { Form, Link } from 'react-router'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { longDate } from '~/platform/dates'
import { listHref } from '~/platform/http/query'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { Input } from '~/ui/input'
import { Pager } from '~/ui/pager'
import { UserAvatar } from '~/ui/user-avatar'
import {
  CAPPED_COUNT,
  CAPPED_NOTE,
  KIND_LABELS,
  SEARCH_CAP,
  SEARCH_ORDERS,
  SEARCH_TABS,
  type SearchOrder,
  type SearchTab,
  snippetParts,
} from '../search'
import type { SearchHit as Hit } from '../search.server'

interface Props {
  query: string
  tab: SearchTab
  order: SearchOrder
  page: number
  pageCount: number
  counts: Record<SearchTab, number>
  hits: Hit[]
  hasAccess: boolean
}

export function SearchResults({ query, tab, order, page, pageCount, counts, hits, hasAccess }: Props) {
  const hrefOf = (values: { tipo?: SearchTab; orden?: SearchOrder; pagina?: number }) =>
    listHref('/buscar', {
      q: query,
      tipo: (values.tipo ?? tab) === 'todo' ? null : (values.tipo ?? tab),
      orden: (values.orden ?? order) === 'relevancia' ? null : (values.orden ?? order),
      pagina: values.pagina ?? 1,
    })
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-5 px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight">Buscar</h1>
      <Form method="get" action="/buscar" role="search" aria-label="Búsqueda" className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            name="q"
            defaultValue={query}
            key={query}
            aria-label="Texto a buscar"
            placeholder="Posts, comentarios, sesiones, eventos o miembros"
            className="pl-9"
            maxLength={100}
          />
        </div>
        {order === 'relevancia' ? null : <input type="hidden" name="orden" value={order} />}
        <Button type="submit">Buscar</Button>
      </Form>
      {query ? (
        <>
          <nav aria-label="Tipos de resultado" className="-mx-4 flex overflow-x-auto border-b px-4 sm:gap-1">
            {(Object.keys(SEARCH_TABS) as SearchTab[]).map((name) => (
              <Link
                key={name}
                to={hrefOf({ tipo: name })}
                aria-current={name === tab ? 'page' : undefined}
                className={cn(
                  '-mb-px shrink-0 border-b-2 border-transparent px-2 py-2 text-sm font-medium text-muted-foreground hover:text-foreground sm:px-3',
                  name === tab && 'border-primary text-foreground',
                )}
              >
                {SEARCH_TABS[name]} <span className="tabular-nums">({counts[name] > SEARCH_CAP ? CAPPED_COUNT : counts[name]})</span>
              </Link>
            ))}
          </nav>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-muted-foreground">Ordenar por:</span>
            {(Object.keys(SEARCH_ORDERS) as SearchOrder[]).map((name) => (
              <Link
                key={name}
                to={hrefOf({ orden: name })}
                aria-current={name === order ? 'true' : undefined}
                className={cn('rounded-md border px-2.5 py-1 hover:bg-accent', name === order && 'border-primary bg-accent font-medium')}
              >
                {SEARCH_ORDERS[name]}
              </Link>
            ))}
          </div>
          {counts[tab] > SEARCH_CAP ? <p className="text-sm text-muted-foreground">{CAPPED_NOTE[order]}</p> : null}
          {hits.length ? (
            <ol aria-label="Resultados" className="grid gap-3">
              {hits.map((hit) => (
                <li key={`${hit.kind}-${hit.id}`}>
                  <Result hit={hit} />
                </li>
              ))}
            </ol>
          ) : (
            <div role="status" className="rounded-xl border bg-card p-6">
              <p className="font-medium [overflow-wrap:anywhere]">No hay resultados para «{query}».</p>
              <p className="mt-1 text-sm text-muted-foreground">Prueba con menos palabras o sin comillas</p>
            </div>
          )}
          <Pager label="Páginas de resultados" page={page} pageCount={pageCount} hrefOf={(pagina) => hrefOf({ pagina })} />
          {hasAccess ? null : (
            <PremiumPrompt description="Las sesiones, los eventos y el directorio de miembros son parte de la membresía premium: con ella, la búsqueda los encuentra también." />
          )}
        </>
      ) : (
        <p className="text-muted-foreground">Busca en posts, comentarios, sesiones, eventos y miembros de la comunidad.</p>
      )}
    </div>
  )
}

function Result({ hit }: { hit: Hit }) {
  const comment = hit.kind === 'comment' || hit.kind === 'session_comment'
  return (
    <article className="grid gap-1.5 rounded-xl border bg-card p-4 [overflow-wrap:anywhere]">
      <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{KIND_LABELS[hit.kind]}</p>
      <h2 className="flex items-center gap-2 font-semibold">
        {hit.kind === 'member' ? <UserAvatar name={hit.title} avatarUrl={hit.avatarUrl} className="size-8" /> : null}
        <Link to={hit.href} className="hover:underline">
          {comment ? `En «${hit.title}»` : hit.title}
        </Link>
      </h2>
      {hit.snippet ? (
        <p className="text-sm text-slate-700">
          {snippetParts(hit.snippet).map((part, index) =>
            part.marked ? (
              <mark key={index} className="rounded-sm bg-gold/30 px-0.5 text-foreground">
                {part.text}
              </mark>
            ) : (
              part.text
            ),
          )}
        </p>
      ) : null}
      <p className="text-xs text-muted-foreground">
        {hit.author ? `${hit.author} · ` : null}
        {hit.kind === 'member' ? `Miembro desde ${longDate(hit.at)}` : <time dateTime={hit.at}>{longDate(hit.at)}</time>}
      </p>
    </article>
  )
}
