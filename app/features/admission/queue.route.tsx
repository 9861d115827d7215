import { Form, Link } from 'react-router'
import { addDays } from '~/features/admin/dashboard.server'
import { DayField, FilterButtons, SearchBox } from '~/features/admin/components/filter-fields'
import { formatNumber } from '~/features/admin/components/stat'
import { requireAdminConsole } from '~/features/account/guards.server'
import { fromWallTime, fullDateTime } from '~/platform/dates'
import { Badge } from '~/ui/badge'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { SELECT_CLASS } from '~/ui/input'
import { Label } from '~/ui/label'
import { Pager } from '~/ui/pager'
import { listApplications, QUEUE_PAGE_SIZE } from './admission.server'
import { ADMIN_STATUS, type ApplicationStatus, SECTORS, type Sector } from './limits'
import type { Route } from './+types/queue.route'

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The queue's filter from its query string: unknown values are ignored, texts cut at 100 characters. */
function readFilter(params: URLSearchParams) {
  const pick = <T extends string>(value: string | null, options: Record<T, string>) =>
    value && Object.hasOwn(options, value) ? (value as T) : null
  const day = (name: string) => {
    const value = params.get(name) ?? ''
    return DAY.test(value) && fromWallTime(`${value}T00:00`) ? value : ''
  }
  const page = Number.parseInt(params.get('pagina') ?? '1', 10)
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    estado: pick<ApplicationStatus>(params.get('estado'), ADMIN_STATUS),
    sector: pick<Sector>(params.get('sector'), SECTORS),
    desde: day('desde'),
    hasta: day('hasta'),
    pagina: Number.isFinite(page) && page > 0 ? Math.min(page, 10_000) : 1,
  }
}

function queryOf(filter: ReturnType<typeof readFilter>, changes: Record<string, string | number | null> = {}) {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries({ ...filter, pagina: 1, ...changes })) {
    if (value && !(key === 'pagina' && value === 1)) params.set(key, String(value))
  }
  const query = params.toString()
  return `/admin/admisiones${query ? `?${query}` : ''}`
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const filter = readFilter(new URL(request.url).searchParams)
  const result = await listApplications({
    q: filter.q,
    status: filter.estado,
    sector: filter.sector,
    from: filter.desde ? fromWallTime(`${filter.desde}T00:00`) : null,
    // 'Hasta' includes its day.
    to: filter.hasta ? fromWallTime(`${addDays(filter.hasta, 1)}T00:00`) : null,
    page: filter.pagina,
  })
  return { filter, ...result, pageCount: Math.ceil(result.total / QUEUE_PAGE_SIZE) }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar las solicitudes" />
}

export default function QueuePage({ loaderData: d }: Route.ComponentProps) {
  const all = Object.values(d.counts).reduce((sum, n) => sum + (n ?? 0), 0)
  return (
    <section aria-labelledby="queue-title" className="grid gap-4">
      <h2 id="queue-title" className="text-xl font-semibold">
        Solicitudes de admisión
      </h2>
      <nav aria-label="Solicitudes por estado" className="flex flex-wrap gap-2">
        {([null, ...Object.keys(ADMIN_STATUS)] as Array<ApplicationStatus | null>).map((status) => (
          <Link
            key={status ?? 'all'}
            to={queryOf(d.filter, { estado: status })}
            aria-current={d.filter.estado === status ? 'page' : undefined}
            className="rounded-full border px-3 py-1 text-sm hover:bg-accent aria-[current=page]:border-primary aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground"
          >
            {status ? ADMIN_STATUS[status] : 'Todas'} ({formatNumber(status ? (d.counts[status] ?? 0) : all)})
          </Link>
        ))}
      </nav>
      <Form method="get" action="/admin/admisiones" role="search" className="grid gap-3 rounded-lg border p-3">
        {d.filter.estado ? <input type="hidden" name="estado" value={d.filter.estado} /> : null}
        <SearchBox id="queue-q" label="Buscar por nombre, email o empresa" defaultValue={d.filter.q} />
        <div className="grid gap-3 sm:grid-cols-3">
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor="queue-sector">Sector</Label>
            <select id="queue-sector" name="sector" defaultValue={d.filter.sector ?? ''} className={`${SELECT_CLASS} min-w-0`}>
              <option value="">Todos</option>
              {Object.entries(SECTORS).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
          <DayField id="queue-desde" name="desde" label="Recibidas desde" defaultValue={d.filter.desde} />
          <DayField id="queue-hasta" name="hasta" label="Recibidas hasta" defaultValue={d.filter.hasta} />
        </div>
        <FilterButtons clearHref="/admin/admisiones" />
      </Form>

      <p className="text-sm text-muted-foreground" aria-live="polite">
        {d.total === 1 ? '1 solicitud' : `${formatNumber(d.total)} solicitudes`}
      </p>

      {d.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
          Ninguna solicitud coincide con estos filtros.
        </p>
      ) : (
        <ul className="grid gap-2">
          {d.rows.map((row) => (
            <li key={row.id} className="grid gap-1 rounded-lg border p-3 text-sm md:grid-cols-[1fr_1fr_auto] md:items-center md:gap-4">
              <div className="min-w-0">
                <Link
                  to={`/admin/admisiones/${row.id}`}
                  className="font-medium underline-offset-4 hover:underline [overflow-wrap:anywhere]"
                >
                  {row.firstName} {row.lastName}
                </Link>
                <span className="block text-muted-foreground [overflow-wrap:anywhere]">{row.email}</span>
              </div>
              <div className="min-w-0 [overflow-wrap:anywhere]">
                {row.position} en {row.company}
                <span className="block text-muted-foreground">
                  {SECTORS[row.sector]} · {row.yearsExperience} años
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-2 md:justify-end">
                <Badge variant={row.status === 'pending' ? 'default' : 'secondary'}>{ADMIN_STATUS[row.status]}</Badge>
                <span className="whitespace-nowrap text-muted-foreground">{fullDateTime(row.createdAt)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}

      <Pager
        label="Páginas de solicitudes"
        page={d.filter.pagina}
        pageCount={d.pageCount}
        hrefOf={(page) => queryOf(d.filter, { pagina: page })}
      />
    </section>
  )
}
