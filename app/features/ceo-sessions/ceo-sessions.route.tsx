import { Plus, Search, Video } from 'lucide-react'
import { useState } from 'react'
import { Form, useFetcher, useNavigate, useSearchParams } from 'react-router'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { guardedAction, orWhenFailed } from '~/platform/http/responses.server'
import { can } from '~/platform/auth/capabilities'
import { toWallTime } from '~/platform/dates'
import type { Result } from '~/platform/http/result'
import { ActionStatus } from '~/ui/action-status'
import { useResultToast } from '~/ui/toast'
import { Button } from '~/ui/button'
import { Input } from '~/ui/input'
import { sessionAction } from './ceo-sessions.server'
import { InProcessPanel } from './components/in-process-panel'
import { SessionCard } from './components/session-card'
import { SessionDialog } from './components/session-dialog'
import { getSessionForEdit, listContinueWatching, listLibrary, listMyInProcess, toCardView } from './library.server'
import type { Route } from './+types/ceo-sessions.route'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { LoadMore, useLoadMore } from '~/ui/load-more'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  // Spec 001 §2: without premium, the tab is the admission prompt; nothing of the library is sent.
  if (!user.hasAccess) return { hasAccess: false as const }
  const params = new URL(request.url).searchParams
  const search = (params.get('buscar') ?? '').slice(0, 100)
  const canCreate = can(user, 'manage-sessions')
  const editId = params.get('editar')
  const [library, continueWatching, inProcess, editing] = await Promise.all([
    listLibrary({ search, cursor: params.get('cursor') }),
    search || params.get('cursor') ? [] : orWhenFailed(listContinueWatching(user.id), [], 'continue watching'),
    canCreate ? listMyInProcess(user.id) : [],
    editId && UUID.test(editId) ? getSessionForEdit(editId) : null,
  ])
  const mayEdit = editing && (editing.createdBy === user.id || can(user, 'manage-sessions'))
  return {
    hasAccess: true as const,
    canCreate,
    search,
    library: { items: library.sessions.map((row) => toCardView(row, user)), next: library.nextCursor },
    continueWatching: continueWatching.map((row) => ({ session: toCardView(row, user), positionSeconds: row.positionSeconds })),
    inProcess: inProcess.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    editing:
      editing && mayEdit
        ? {
            id: editing.id,
            title: editing.title,
            summary: editing.summary,
            description: editing.description,
            ceoName: editing.ceoName,
            ceoPosition: editing.ceoPosition,
            ceoCompany: editing.ceoCompany,
            sessionDate: toWallTime(editing.sessionDate),
            durationMinutes: editing.durationMinutes,
            tags: editing.tags,
            isFeatured: editing.isFeatured,
            pdfName: editing.pdfName,
          }
        : null,
    editMissing: Boolean(editId) && !mayEdit,
  }
}

export const action = guardedAction(requireCompleteProfile, sessionAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar las sesiones" />
}

export default function CeoSessionsPage({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.hasAccess) {
    return <PremiumPrompt description="Las sesiones grabadas con CEOs del sector son parte de la membresía premium." />
  }
  return <Library data={loaderData} actionResult={actionData} />
}

function Library({
  data,
  actionResult,
}: {
  data: Extract<Route.ComponentProps['loaderData'], { hasAccess: true }>
  actionResult: Route.ComponentProps['actionData']
}) {
  const [creating, setCreating] = useState(false)
  // Deletions are answered here: the deleted session's card is gone once the page reloads.
  const remove = useFetcher<Result>()
  useResultToast(remove.state, remove.data)
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const query = (cursor: string, count?: number) =>
    new URLSearchParams({ ...(data.search ? { buscar: data.search } : {}), cursor, ...(count ? { cantidad: String(count) } : {}) })
  const list = useLoadMore({
    first: data.library,
    resetKey: data.search,
    dataHref: (cursor, count) => `/comunidad/sesiones/pagina?${query(cursor, count)}`,
  })
  const closeEdit = () => {
    const next = new URLSearchParams(params)
    next.delete('editar')
    void navigate({ search: next.toString() }, { preventScrollReset: true, replace: true })
  }
  return (
    <>
      <ActionStatus result={actionResult} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="mr-auto text-xl font-semibold">Sesiones con CEOs</h2>
        {data.canCreate ? (
          <Button onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden /> Nueva Sesión
          </Button>
        ) : null}
      </div>
      {data.canCreate ? <InProcessPanel sessions={data.inProcess} /> : null}
      {data.editMissing ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          No se pudo cargar la información de la sesión
        </p>
      ) : null}
      <Form method="get" role="search" className="flex gap-2">
        <label htmlFor="session-search" className="sr-only">
          Buscar sesiones
        </label>
        <Input id="session-search" type="search" name="buscar" defaultValue={data.search} placeholder="Buscar por tema, CEO o empresa..." />
        <Button type="submit" variant="secondary">
          <Search className="size-4" aria-hidden /> Buscar
        </Button>
      </Form>
      {data.continueWatching.length ? (
        <section aria-labelledby="continue-title" className="grid gap-3">
          <h2 id="continue-title" className="font-semibold">
            Continuar viendo
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {data.continueWatching.map(({ session, positionSeconds }) => (
              <li key={session.id} className="grid">
                <SessionCard session={session} progressSeconds={positionSeconds} remove={remove} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="library-title" className="grid gap-3">
        <h2 id="library-title" className="sr-only">
          {data.search ? `Resultados para «${data.search}»` : 'Todas las sesiones'}
        </h2>
        {list.items.length ? (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {list.items.map((session) => (
              <li key={session.id} className="grid">
                <SessionCard session={session} remove={remove} />
              </li>
            ))}
          </ul>
        ) : (
          <div className="rounded-xl border border-dashed bg-card p-8 text-center">
            <Video className="mx-auto size-8 text-muted-foreground" aria-hidden />
            <p className="mt-2 text-muted-foreground">
              {data.search ? `Ninguna sesión coincide con «${data.search}».` : 'No hay sesiones disponibles'}
            </p>
          </div>
        )}
        <LoadMore
          list={list}
          href={(cursor) => `?${query(cursor)}`}
          loaded={(count) => `${count} sesiones más cargadas`}
          end="No hay más sesiones"
        />
      </section>
      {data.canCreate ? <SessionDialog open={creating} onClose={() => setCreating(false)} /> : null}
      {data.editing ? <SessionDialog key={data.editing.id} session={data.editing} open onClose={closeEdit} /> : null}
    </>
  )
}
