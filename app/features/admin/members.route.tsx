import { Pager } from '~/ui/pager'
import { Download } from 'lucide-react'
import { Form, Link } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { SELECT_CLASS } from '~/ui/input'
import { Label } from '~/ui/label'
import { UserAvatar } from '~/ui/user-avatar'
import { DayField, FilterButtons, SearchBox } from './components/filter-fields'
import { formatNumber } from './components/stat'
import { FILTERS, memberFilterQuery, readMemberFilter } from './filters'
import { listMembers } from './members.server'
import type { Route } from './+types/members.route'

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const filter = readMemberFilter(new URL(request.url).searchParams)
  const result = await listMembers(filter)
  return { filter, ...result, exportQuery: memberFilterQuery(filter) }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los miembros" />
}

const SELECTS = [
  ['premium', 'Premium'],
  ['origen', 'Origen del premium'],
  ['rol', 'Rol'],
  ['perfil', 'Perfil'],
  ['orden', 'Ordenar por'],
] as const

export default function MembersPage({ loaderData: d }: Route.ComponentProps) {
  const pageHref = (page: number) => {
    const query = memberFilterQuery(d.filter, page)
    return `/admin/miembros${query ? `?${query}` : ''}`
  }
  return (
    <section aria-labelledby="members-title" className="grid gap-4">
      <h2 id="members-title" className="text-xl font-semibold">
        Miembros
      </h2>
      <Form method="get" action="/admin/miembros" role="search" className="grid gap-3 rounded-lg border p-3">
        <SearchBox id="members-q" label="Buscar por nombre, e-mail o empresa" defaultValue={d.filter.q} />
        <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {SELECTS.map(([key, label]) => (
            <div key={key} className="grid min-w-0 gap-1.5">
              <Label htmlFor={`members-${key}`}>{label}</Label>
              <select id={`members-${key}`} name={key} defaultValue={d.filter[key]} className={`${SELECT_CLASS} min-w-0`}>
                <option value="">{key === 'orden' ? 'Más recientes' : 'Todos'}</option>
                {Object.entries(FILTERS[key])
                  .filter(([value]) => value !== 'recientes')
                  .map(([value, text]) => (
                    <option key={value} value={value}>
                      {text}
                    </option>
                  ))}
              </select>
            </div>
          ))}
          <DayField id="members-desde" name="desde" label="Alta desde" defaultValue={d.filter.desde} />
          <DayField id="members-hasta" name="hasta" label="Alta hasta" defaultValue={d.filter.hasta} />
        </div>
        <FilterButtons clearHref="/admin/miembros">
          <Button asChild variant="outline" className="sm:ml-auto">
            {/* A file download: the browser fetches it itself (served before the router, streamed). */}
            <a href={`/admin/miembros/exportar${d.exportQuery ? `?${d.exportQuery}` : ''}`} download>
              <Download aria-hidden /> Exportar CSV
            </a>
          </Button>
        </FilterButtons>
      </Form>

      <p className="text-sm text-muted-foreground" aria-live="polite">
        {d.total === 1 ? '1 miembro' : `${formatNumber(d.total)} miembros`}
      </p>

      {d.members.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">Ningún miembro coincide con estos filtros.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          {/* A table on a wide screen; on a phone each row stacks as a card (its cells as lines). */}
          <table className="w-full text-sm">
            <thead className="hidden bg-muted/50 text-left md:table-header-group">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Miembro
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Empresa y cargo
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Premium
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Perfil
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Alta
                </th>
              </tr>
            </thead>
            <tbody>
              {d.members.map((member) => (
                <tr key={member.userId} className="grid gap-1 border-t p-3 first:border-t-0 md:table-row md:p-0">
                  <td className="md:px-3 md:py-2">
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
                  </td>
                  <td className="[overflow-wrap:anywhere] md:px-3 md:py-2">
                    {[member.position, member.company].filter(Boolean).join(' en ') || <span className="text-muted-foreground">—</span>}
                  </td>
                  <td className="md:px-3 md:py-2">
                    {member.isPremium ? (
                      <>
                        <Badge variant="premium">Premium</Badge> <span className="text-muted-foreground">{member.origin}</span>
                      </>
                    ) : (
                      <span className="text-muted-foreground">Sin premium</span>
                    )}
                  </td>
                  <td className="md:px-3 md:py-2">
                    <span className="md:hidden">Perfil: </span>
                    {member.isComplete ? 'Completo' : 'Incompleto'}
                  </td>
                  <td className="whitespace-nowrap text-muted-foreground md:px-3 md:py-2">
                    <span className="md:hidden">Alta: </span>
                    {member.joined}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pager label="Páginas de miembros" page={d.filter.pagina} pageCount={d.pageCount} hrefOf={pageHref} />
    </section>
  )
}
