import { Pager } from '~/ui/pager'
import { Search, SlidersHorizontal } from 'lucide-react'
import { Form, Link } from 'react-router'
import { listHref } from '~/platform/http/query'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent } from '~/ui/card'
import { Input } from '~/ui/input'
import { Label } from '~/ui/label'
import { Section } from '~/ui/section'
import { UserAvatar } from '~/ui/user-avatar'

export interface DirectoryMember {
  userId: string
  name: string
  avatarUrl: string | null
  company: string | null
  position: string | null
  isPremium: boolean
  memberSince: string
  postCount: number
}

export interface DirectoryView {
  /** The viewer's own card has no 'Enviar mensaje'. */
  viewerId: string
  members: DirectoryMember[]
  total: number
  page: number
  pageCount: number
  search: string
  company: string
  position: string
}

export function MemberDirectory({ directory }: { directory: DirectoryView }) {
  const filtersActive = Boolean(directory.company || directory.position)
  const pageHref = (page: number) =>
    listHref('/comunidad/miembros', { q: directory.search, empresa: directory.company, cargo: directory.position, pagina: page })
  return (
    <Section id="directory" title="Miembros" titleClassName="sr-only" className="grid gap-4">
      <Form method="get" action="/comunidad/miembros" className="grid gap-3" role="search">
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              type="search"
              name="q"
              defaultValue={directory.search}
              placeholder="Buscar miembros..."
              aria-label="Buscar miembros"
              className="pl-9"
              maxLength={100}
            />
          </div>
          <Button type="submit">Buscar</Button>
        </div>
        <details open={filtersActive} className="group rounded-lg border px-3 py-2">
          <summary className="flex cursor-pointer list-none items-center gap-2 text-sm font-medium">
            <SlidersHorizontal className="size-4" aria-hidden /> Filtros
          </summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <div className="grid gap-1.5">
              <Label htmlFor="filter-company">Empresa</Label>
              <Input id="filter-company" name="empresa" defaultValue={directory.company} maxLength={100} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="filter-position">Cargo</Label>
              <Input id="filter-position" name="cargo" defaultValue={directory.position} maxLength={100} />
            </div>
            <Button type="submit" variant="outline">
              Aplicar filtros
            </Button>
          </div>
        </details>
      </Form>

      <p className="text-sm text-muted-foreground" aria-live="polite">
        {directory.total === 1 ? '1 miembro' : `${directory.total} miembros`}
      </p>

      {directory.members.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
          No hay miembros que coincidan con tu búsqueda.
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {directory.members.map((member) => (
            <li key={member.userId}>
              <Card className="h-full">
                <CardContent className="flex h-full flex-col gap-3 pt-6">
                  <div className="flex items-center gap-3">
                    <UserAvatar avatarUrl={member.avatarUrl} name={member.name} className="size-14 text-lg" />
                    <div className="min-w-0">
                      <Link to={`/usuario/${member.userId}`} className="block truncate font-semibold hover:underline">
                        {member.name}
                      </Link>
                      {member.isPremium ? <Badge variant="premium">Premium</Badge> : null}
                    </div>
                  </div>
                  {/* A member who keeps their work to themselves shows neither (issue 28). */}
                  {member.position && member.company ? (
                    <p className="text-sm">
                      {member.position} en {member.company}
                    </p>
                  ) : null}
                  <p className="mt-auto flex flex-wrap gap-x-3 text-xs text-muted-foreground">
                    <span>{member.postCount === 1 ? '1 post' : `${member.postCount} posts`}</span>
                    <span>Miembro desde {member.memberSince}</span>
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Button asChild variant="outline" size="sm">
                      <Link to={`/usuario/${member.userId}`} aria-label={`Ver Perfil de ${member.name}`}>
                        Ver Perfil
                      </Link>
                    </Button>
                    {member.userId !== directory.viewerId ? (
                      <Button asChild variant="ghost" size="sm">
                        <Link to={`/mensajes/con/${member.userId}`} aria-label={`Enviar mensaje a ${member.name}`}>
                          Enviar mensaje
                        </Link>
                      </Button>
                    ) : null}
                  </div>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <Pager label="Páginas del directorio" page={directory.page} pageCount={directory.pageCount} hrefOf={pageHref} />
    </Section>
  )
}
