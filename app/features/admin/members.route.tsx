import { Pager } from '~/ui/pager'
import { Download } from 'lucide-react'
import { Form, Link } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { listHref } from '~/platform/http/query'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { ChoiceField, DayField, FilterButtons, SearchBox } from '~/ui/filter-fields'
import { Section } from '~/ui/section'
import { UserAvatar } from '~/ui/user-avatar'
import { ResultCount } from './components/stat'
import { FILTERS, readMemberFilter } from './filters'
import { listMembers } from './members.server'
import type { Route } from './+types/members.route'

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const filter = readMemberFilter(new URL(request.url).searchParams)
  return { filter, ...(await listMembers(filter)) }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los miembros" />
}

const SELECTS = [
  ['premium', 'Premium'],
  ['origen', 'Origen del premium'],
  ['rol', 'Rol'],
  ['perfil', 'Perfil'],
  ['cobro', 'Cobro'],
] as const

// 'Más recientes' is the order when none is chosen.
const { recientes: NEWEST_FIRST, ...OTHER_ORDERS } = FILTERS.orden

export default function MembersPage({ loaderData: d }: Route.ComponentProps) {
  return (
    <Section id="members" title="Miembros" titleClassName="text-xl font-semibold" className="grid gap-4">
      <Form method="get" action="/admin/miembros" role="search" className="grid gap-3 rounded-lg border p-3">
        <SearchBox id="members-q" label="Buscar por nombre, e-mail o empresa" defaultValue={d.filter.q} />
        <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {SELECTS.map(([key, label]) => (
            <ChoiceField key={key} id={`members-${key}`} name={key} label={label} choices={FILTERS[key]} defaultValue={d.filter[key]} />
          ))}
          <ChoiceField
            id="members-orden"
            name="orden"
            label="Ordenar por"
            choices={OTHER_ORDERS}
            all={NEWEST_FIRST}
            defaultValue={d.filter.orden}
          />
          <DayField id="members-desde" name="desde" label="Alta desde" defaultValue={d.filter.desde} />
          <DayField id="members-hasta" name="hasta" label="Alta hasta" defaultValue={d.filter.hasta} />
        </div>
        <FilterButtons clearHref="/admin/miembros">
          <Button asChild variant="outline" className="sm:ml-auto">
            {/* A file download: the browser fetches it itself (served before the router, streamed). */}
            <a href={listHref('/admin/miembros/exportar', { ...d.filter, pagina: null })} download>
              <Download aria-hidden /> Exportar CSV
            </a>
          </Button>
        </FilterButtons>
      </Form>

      <ResultCount total={d.total} one="miembro" many="miembros" />

      <DataTable
        label="Miembros"
        rows={d.members}
        rowKey={(member) => member.userId}
        empty="Ningún miembro coincide con estos filtros."
        columns={[
          {
            header: 'Miembro',
            cell: (member) => (
              <div className="flex min-w-0 items-center gap-3">
                <UserAvatar avatarUrl={member.avatarUrl} name={member.name} className="size-9 shrink-0" />
                <div className="min-w-0">
                  <Link
                    to={`/usuario/${member.userId}`}
                    className="block font-medium underline-offset-4 hover:underline [overflow-wrap:anywhere]"
                  >
                    {member.name}
                  </Link>
                  <span className="block text-muted-foreground [overflow-wrap:anywhere]">{member.email}</span>
                  {member.roles.length ? <span className="block text-xs">{member.roles.join(', ')}</span> : null}
                </div>
              </div>
            ),
          },
          {
            header: 'Empresa y cargo',
            className: '[overflow-wrap:anywhere]',
            cell: (member) =>
              [member.position, member.company].filter(Boolean).join(' en ') || <span className="text-muted-foreground">—</span>,
          },
          {
            header: 'Premium',
            cell: (member) =>
              member.isPremium ? (
                <>
                  <Badge variant="premium">Premium</Badge> <span className="text-muted-foreground">{member.origin}</span>
                </>
              ) : (
                <span className="text-muted-foreground">Sin premium</span>
              ),
          },
          { header: 'Perfil', labelled: true, cell: (member) => (member.isComplete ? 'Completo' : 'Incompleto') },
          { header: 'Alta', labelled: true, className: 'whitespace-nowrap text-muted-foreground', cell: (member) => member.joined },
        ]}
      />

      <Pager
        label="Páginas de miembros"
        page={d.filter.pagina}
        pageCount={d.pageCount}
        hrefOf={(page) => listHref('/admin/miembros', { ...d.filter, pagina: page })}
      />
    </Section>
  )
}
