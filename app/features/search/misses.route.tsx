import { requireAdminConsole } from '~/features/account/guards.server'
import { addDays, toWallTime } from '~/platform/dates'
import { readQuery } from '~/platform/http/query'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Link } from 'react-router'
import { cn } from '~/ui/cn'
import { frequentMisses } from './search.server'
import type { Route } from './+types/misses.route'

const PERIODS = { '7': 'Últimos 7 días', '30': 'Últimos 30 días', '90': 'Últimos 90 días' } as const

/** What members look for and do not find, most frequent first: the words only, never who searched. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const days = readQuery(new URL(request.url).searchParams).choice('dias', PERIODS) || '30'
  // The community's day (Madrid), as the misses are counted.
  const today = toWallTime(new Date()).slice(0, 10)
  return { days, misses: await frequentMisses(addDays(today, -Number(days) + 1)) }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar las búsquedas" />
}

export default function MissesPage({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="misses-title" className="grid gap-4">
      <h2 id="misses-title" className="text-xl font-semibold">
        Búsquedas sin resultado
      </h2>
      <nav aria-label="Periodo" className="flex flex-wrap gap-2 text-sm">
        {(Object.keys(PERIODS) as Array<keyof typeof PERIODS>).map((days) => (
          <Link
            key={days}
            to={`?dias=${days}`}
            aria-current={days === loaderData.days ? 'page' : undefined}
            className={cn(
              'rounded-md border px-2.5 py-1 hover:bg-accent',
              days === loaderData.days && 'border-primary bg-accent font-medium',
            )}
          >
            {PERIODS[days]}
          </Link>
        ))}
      </nav>
      <DataTable
        label="Búsquedas sin resultado"
        columns={[
          { header: 'Búsqueda', cell: (miss) => miss.query },
          { header: 'Veces', numeric: true, cell: (miss) => miss.count },
        ]}
        rows={loaderData.misses}
        rowKey={(miss) => miss.query}
        empty="Ninguna búsqueda sin resultado en este periodo."
      />
    </section>
  )
}
