import { Link, redirect } from 'react-router'
import { z } from 'zod'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { guardedAction, handleIntent } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { ReportForm } from './components/moderation-controls'
import { reportItem, requestReview } from './moderation.server'
import { REPORT_OPEN_WHILE_SUSPENDED, ReportIntent } from './schemas'
import type { Route } from './+types/report.route'

export const meta: Route.MetaFunction = () => [{ title: `Informar · ${site.name}` }, { name: 'robots', content: 'noindex' }]

/** 'Informar' and 'Pedir revisión' (issue 28): a fetcher posts here; without JavaScript the answer is this page. */
export const action = guardedAction(requireCompleteProfile, (request, member) =>
  handleIntent(
    request,
    ReportIntent,
    {
      report: { invalid: 'Revisa el motivo del informe', run: (input) => reportItem(member, input) },
      'request-review': { invalid: 'No se pudo pedir la revisión', run: (input) => requestReview(member, input.kind, input.itemId) },
    },
    { openWhileSuspended: REPORT_OPEN_WHILE_SUSPENDED },
  ),
)

const Reported = z.object({ tipo: z.enum(['post', 'comment', 'session_comment', 'member']), id: z.uuid() })

/** Opened from 'Informar' before the page's JavaScript runs: the form; any other address goes back to the community. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireCompleteProfile(request)
  const asked = Reported.safeParse(Object.fromEntries(new URL(request.url).searchParams))
  if (!asked.success) throw redirect('/comunidad')
  return { kind: asked.data.tipo, itemId: asked.data.id }
}

export default function ReportPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid w-full max-w-xl gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold tracking-tight">Informar al equipo de moderación</h1>
      <ActionStatus result={actionData} />
      {actionData?.ok ? null : <ReportForm kind={loaderData.kind} itemId={loaderData.itemId} />}
      <Button asChild variant="outline" className="justify-self-start">
        <Link to="/comunidad">Volver a la comunidad</Link>
      </Button>
    </div>
  )
}
