import { Form, useNavigation } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { fullDateTime } from '~/platform/dates'
import { redactSecrets } from '~/platform/env.server'
import { guardedAction } from '~/platform/http/responses.server'
import { jobLabel, listFailedJobs, pendingJobsByName } from '~/platform/jobs/jobs.server'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/ui/card'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Section } from '~/ui/section'
import { jobsAction } from './console.server'
import type { Route } from './+types/jobs.route'

/** What an error may show of itself: enough to act on, never a secret (redactSecrets) nor a wall of stack. */
const ERROR_SHOWN = 600

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const [failed, pending] = await Promise.all([listFailedJobs(100), pendingJobsByName()])
  return {
    failed: failed.map((job) => ({
      id: job.id,
      kind: jobLabel(job.name),
      name: job.name,
      attempts: job.attempts,
      error: job.lastError ? redactSecrets(job.lastError).slice(0, ERROR_SHOWN) : null,
      createdAt: fullDateTime(job.createdAt),
      finishedAt: job.finishedAt ? fullDateTime(job.finishedAt) : null,
    })),
    pending: pending.map((row) => ({ ...row, kind: jobLabel(row.name) })),
  }
}

export const action = guardedAction(requireAdminConsole, jobsAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los trabajos" />
}

export default function JobsPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== 'idle'
  return (
    <>
      <ActionStatus result={actionData} />
      <Section id="pending" title="En cola y en curso" titleClassName="text-xl font-semibold" className="grid gap-3">
        <DataTable
          label="Trabajos en cola y en curso"
          rows={d.pending}
          rowKey={(row) => row.name}
          empty="No hay trabajos pendientes."
          className="max-w-xl"
          columns={[
            { header: 'Tipo', cell: (row) => row.kind },
            { header: 'En cola', numeric: true, labelled: true, cell: (row) => row.queued },
            { header: 'En curso', numeric: true, labelled: true, cell: (row) => row.running },
          ]}
        />
      </Section>
      <Section id="failed" title="Fallidos" titleClassName="text-xl font-semibold" className="grid gap-3">
        {d.failed.length === 0 ? (
          <p className="text-sm text-muted-foreground">Ningún trabajo ha fallado.</p>
        ) : (
          <ul className="grid gap-3">
            {d.failed.map((job) => (
              <li key={job.id}>
                <Card>
                  <CardHeader>
                    <CardTitle className="text-base">
                      {job.kind} <span className="font-normal text-muted-foreground">n.º {job.id}</span>
                    </CardTitle>
                  </CardHeader>
                  <CardContent className="grid gap-3 text-sm">
                    <p className="text-muted-foreground">
                      Creado el {job.createdAt}; {job.attempts === 1 ? '1 intento' : `${job.attempts} intentos`}
                      {job.finishedAt ? `; abandonado el ${job.finishedAt}` : ''}.
                    </p>
                    {job.error ? (
                      <pre className="max-h-40 overflow-auto whitespace-pre-wrap rounded-md bg-muted p-2 text-xs [overflow-wrap:anywhere]">
                        {job.error}
                      </pre>
                    ) : null}
                    <Form method="post" className="flex flex-wrap gap-2">
                      <input type="hidden" name="jobId" value={job.id} />
                      <Button type="submit" name="intent" value="retry-job" size="sm" disabled={busy}>
                        Reintentar
                      </Button>
                      <Button type="submit" name="intent" value="discard-job" size="sm" variant="outline" disabled={busy}>
                        Descartar
                      </Button>
                    </Form>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  )
}
