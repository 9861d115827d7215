import { Link, redirect } from 'react-router'
import { requireCompleteProfile } from '~/platform/auth/guards.server'
import { guardedAction, handleIntent } from '~/platform/http/responses.server'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { reportItem, requestReview } from './moderation.server'
import { ReportIntent } from './schemas'
import type { Route } from './+types/report.route'

/** 'Informar' and 'Pedir revisión' (issue 28): a fetcher posts here; without JavaScript the answer is this page. */
export const action = guardedAction(requireCompleteProfile, (request, member) =>
  handleIntent(request, ReportIntent, {
    report: { invalid: 'Revisa el motivo del informe', run: (input) => reportItem(member, input) },
    'request-review': { invalid: 'No se pudo pedir la revisión', run: (input) => requestReview(member, input.kind, input.itemId) },
  }),
)

/** Opened by address, the page has nothing to show: back to the community. */
export async function loader() {
  return redirect('/comunidad')
}

export default function ReportAnswer({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid w-full max-w-xl gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold tracking-tight">Moderación</h1>
      <ActionStatus result={actionData} />
      <Button asChild variant="outline" className="justify-self-start">
        <Link to="/comunidad">Volver a la comunidad</Link>
      </Button>
    </div>
  )
}
