import { getFormProps, useForm } from '@conform-to/react'
import { Form, Link, useNavigation } from 'react-router'
import { refuse } from '~/platform/http/responses.server'
import { failedSubmission } from '~/platform/http/result'
import { fullDateTime } from '~/platform/dates'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '~/ui/card'
import { SmallPageErrorBoundary } from '~/ui/error-boundary'
import { TextareaField } from '~/ui/field'
import { applicantAction, readStatusLink } from './admission.server'
import { ADMISSION_MESSAGES, APPLICANT_STATUS, APPLICATION_LIMITS } from './limits'
import type { Route } from './+types/status.route'

export const meta: Route.MetaFunction = () => [{ title: `Tu solicitud · ${site.name}` }, { name: 'robots', content: 'noindex' }]

/** The link is the credential (signed, expiring): no session is needed, and a wrong or old one says so plainly. */
export async function loader({ params }: Route.LoaderArgs) {
  const link = await readStatusLink(params.token)
  if (link.status !== 'valid')
    return refuse(
      link.status === 'expired' ? 410 : 404,
      link.status === 'expired' ? ADMISSION_MESSAGES.expiredLink : ADMISSION_MESSAGES.badLink,
    )
  return link.application
}

export const action = ({ request, params }: Route.ActionArgs) => applicantAction(request, params.token)

const EXPLANATION: Record<keyof typeof APPLICANT_STATUS, string> = {
  pending: 'Estamos revisando tu solicitud. Te escribiremos a tu email con nuestra decisión.',
  info_requested: 'Necesitamos algo más para decidir. Responde a nuestra pregunta aquí abajo.',
  waitlisted: 'Tu perfil nos interesa, pero las plazas de esta convocatoria están completas. Te escribiremos en cuanto haya una para ti.',
  approved: 'Te hemos enviado por email una invitación personal para crear tu cuenta y suscribirte.',
  rejected: 'Por ahora no podemos ofrecerte una plaza. Te lo explicamos en el email que te enviamos.',
  withdrawn: 'Retiraste esta solicitud. Si cambias de idea, puedes enviar una nueva cuando quieras.',
}

export default function StatusPage({ loaderData: application, actionData, params }: Route.ComponentProps) {
  const busy = useNavigation().state === 'submitting'
  const open = application.status === 'pending' || application.status === 'info_requested' || application.status === 'waitlisted'
  const [form, fields] = useForm<{ answer: string }>({ id: 'answer', lastResult: busy ? undefined : failedSubmission(actionData) })
  return (
    <div className="mx-auto grid w-full max-w-xl gap-6 px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <p className="text-sm text-muted-foreground">Solicitud de admisión de {application.firstName}</p>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold leading-tight">
            Estado:{' '}
            <Badge variant={application.status === 'approved' ? 'default' : 'secondary'}>{APPLICANT_STATUS[application.status]}</Badge>
          </h1>
          <CardDescription>{EXPLANATION[application.status]}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <ActionStatus result={actionData} />
          <p className="text-sm text-muted-foreground">Enviada el {fullDateTime(application.createdAt)}.</p>
          {application.history.length ? (
            <section aria-labelledby="conversation" className="grid gap-3">
              <h2 id="conversation" className="font-semibold">
                Preguntas y respuestas
              </h2>
              <ol className="grid gap-3">
                {application.history.map((entry, index) => (
                  <li key={index} className="rounded-md border p-3 text-sm">
                    <p className="font-medium">{entry.kind === 'answered' ? 'Tu respuesta' : `Nuestra pregunta`}</p>
                    <p className="mt-1 whitespace-pre-line break-words">{entry.body}</p>
                    <p className="mt-1 text-xs text-muted-foreground">{fullDateTime(entry.createdAt)}</p>
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          {application.status === 'info_requested' ? (
            <Form method="post" className="grid gap-3" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="answer" />
              <TextareaField label="Tu respuesta" field={fields.answer} rows={5} maxLength={APPLICATION_LIMITS.note} required />
              <Button type="submit" className="justify-self-start" disabled={busy}>
                {busy ? 'Enviando...' : 'Enviar respuesta'}
              </Button>
            </Form>
          ) : null}
          {open ? (
            <p className="text-sm">
              <Link to={`/admision?solicitud=${params.token}`} className="font-medium text-primary underline underline-offset-4">
                Cambiar mi solicitud
              </Link>
            </p>
          ) : null}
          {open ? (
            <Form method="post" className="border-t pt-3">
              <input type="hidden" name="intent" value="withdraw" />
              <p className="mb-3 text-sm text-muted-foreground">Si ya no quieres que estudiemos tu solicitud, puedes retirarla.</p>
              <Button type="submit" variant="outline" disabled={busy}>
                Retirar mi solicitud
              </Button>
            </Form>
          ) : null}
        </CardContent>
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <SmallPageErrorBoundary to="/admision" label="Ir al formulario de admisión" />
}
