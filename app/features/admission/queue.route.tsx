import { Form, Link } from 'react-router'
import { formatNumber, ResultCount } from '~/features/admin/components/stat'
import { requireAdminConsole } from '~/features/account/guards.server'
import { dayRange, fullDateTime } from '~/platform/dates'
import { listHref, readQuery } from '~/platform/http/query'
import { Badge } from '~/ui/badge'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { ChoiceField, DayField, FilterButtons, SearchBox } from '~/ui/filter-fields'
import { Pager } from '~/ui/pager'
import { Section } from '~/ui/section'
import { listApplications, QUEUE_PAGE_SIZE } from './admission.server'
import { ADMIN_STATUS, type ApplicationStatus, SECTORS } from './limits'
import type { Route } from './+types/queue.route'

function readFilter(params: URLSearchParams) {
  const read = readQuery(params)
  return {
    q: read.text('q'),
    estado: read.choice('estado', ADMIN_STATUS),
    sector: read.choice('sector', SECTORS),
    desde: read.day('desde'),
    hasta: read.day('hasta'),
    pagina: read.page(),
  }
}

/** The queue with its filter, changed by `changes` (on the first page unless one is given). */
const queueHref = (filter: ReturnType<typeof readFilter>, changes: Record<string, string | number | null>) =>
  listHref('/admin/admisiones', { ...filter, pagina: 1, ...changes })

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const filter = readFilter(new URL(request.url).searchParams)
  const result = await listApplications({
    q: filter.q,
    status: filter.estado || null,
    sector: filter.sector || null,
    ...dayRange(filter.desde, filter.hasta),
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
    <Section id="queue" title="Solicitudes de admisión" titleClassName="text-xl font-semibold" className="grid gap-4">
      <nav aria-label="Solicitudes por estado" className="flex flex-wrap gap-2">
        {(['', ...Object.keys(ADMIN_STATUS)] as Array<ApplicationStatus | ''>).map((status) => (
          <Link
            key={status || 'all'}
            to={queueHref(d.filter, { estado: status })}
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
          <ChoiceField id="queue-sector" name="sector" label="Sector" choices={SECTORS} defaultValue={d.filter.sector} />
          <DayField id="queue-desde" name="desde" label="Recibidas desde" defaultValue={d.filter.desde} />
          <DayField id="queue-hasta" name="hasta" label="Recibidas hasta" defaultValue={d.filter.hasta} />
        </div>
        <FilterButtons clearHref="/admin/admisiones" />
      </Form>

      <ResultCount total={d.total} one="solicitud" many="solicitudes" />

      <DataTable
        label="Solicitudes"
        rows={d.rows}
        rowKey={(row) => row.id}
        empty="Ninguna solicitud coincide con estos filtros."
        columns={[
          {
            header: 'Candidato',
            cell: (row) => (
              <>
                <Link
                  to={`/admin/admisiones/${row.id}`}
                  className="font-medium underline-offset-4 hover:underline [overflow-wrap:anywhere]"
                >
                  {row.firstName} {row.lastName}
                </Link>
                <span className="block text-muted-foreground [overflow-wrap:anywhere]">{row.email}</span>
              </>
            ),
          },
          {
            header: 'Trayectoria',
            className: '[overflow-wrap:anywhere]',
            cell: (row) => (
              <>
                {row.position} en {row.company}
                <span className="block text-muted-foreground">
                  {SECTORS[row.sector]} · {row.yearsExperience} años
                </span>
              </>
            ),
          },
          {
            header: 'Estado',
            cell: (row) => (
              <span className="flex flex-wrap items-center gap-2">
                <Badge variant={row.status === 'pending' ? 'default' : 'secondary'}>{ADMIN_STATUS[row.status]}</Badge>
                <span className="whitespace-nowrap text-muted-foreground">{fullDateTime(row.createdAt)}</span>
              </span>
            ),
          },
        ]}
      />

      <Pager
        label="Páginas de solicitudes"
        page={d.filter.pagina}
        pageCount={d.pageCount}
        hrefOf={(page) => queueHref(d.filter, { pagina: page })}
      />
    </Section>
  )
}
