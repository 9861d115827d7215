import { getFormProps, useForm } from '@conform-to/react'
import { ArrowLeft, ExternalLink } from 'lucide-react'
import { Form, Link, useNavigation } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { fullDateTime } from '~/platform/dates'
import { guardedAction, refuse } from '~/platform/http/responses.server'
import { failedSubmission } from '~/platform/http/result'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/ui/card'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { TextareaField } from '~/ui/field'
import { HiddenFields } from '~/ui/hidden-fields'
import { answersOf, getApplication, reviewAction } from './admission.server'
import { ADMIN_STATUS, APPLICATION_LIMITS, HISTORY_LABELS } from './limits'
import type { Route } from './+types/application.route'

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const application = await getApplication(params.applicationId)
  if (!application) refuse(404, 'Esa solicitud no existe')
  return { application, answers: answersOf(application) }
}

export const action = guardedAction(requireAdminConsole, (request, admin, { params }: Route.ActionArgs) =>
  reviewAction(request, admin, params.applicationId),
)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudo cargar la solicitud" />
}

export default function ApplicationPage({ loaderData: { application, answers }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const pendingIntent = navigation.formData?.get('intent')
  const { status } = application
  const open = status === 'pending' || status === 'info_requested' || status === 'waitlisted'
  const lastResult = busy ? undefined : failedSubmission(actionData)
  const decision = (intent: string, label: string, variant: 'default' | 'outline' | 'destructive' = 'outline') => (
    <Form method="post">
      <HiddenFields values={{ intent, seen: status }} />
      <Button type="submit" variant={variant} disabled={busy}>
        {pendingIntent === intent ? 'Guardando...' : label}
      </Button>
    </Form>
  )
  return (
    <section aria-labelledby="application-title" className="grid gap-4">
      <Link to="/admin/admisiones" className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft className="size-4" aria-hidden /> Todas las solicitudes
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="application-title" className="text-xl font-semibold [overflow-wrap:anywhere]">
          {application.firstName} {application.lastName}
        </h2>
        <Badge variant={status === 'pending' ? 'default' : 'secondary'}>{ADMIN_STATUS[status]}</Badge>
      </div>
      <ActionStatus result={actionData} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Respuestas</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            <p>
              Recibida el {fullDateTime(application.createdAt)}.{' '}
              {application.accountId ? (
                <>
                  Este email ya tiene cuenta:{' '}
                  <Link to={`/usuario/${application.accountId}`} className="font-medium text-primary underline">
                    ver su perfil
                  </Link>
                  .
                </>
              ) : (
                'Este email aún no tiene cuenta.'
              )}
            </p>
            <dl className="grid gap-2">
              {answers.map(([label, value]) => (
                <div key={label} className="grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
                  <dt className="font-medium text-muted-foreground">{label}</dt>
                  <dd className="whitespace-pre-line [overflow-wrap:anywhere]">
                    {label === 'LinkedIn' ? (
                      <a
                        href={value}
                        target="_blank"
                        rel="noopener noreferrer nofollow"
                        className="inline-flex items-center gap-1 text-primary underline"
                      >
                        {value} <ExternalLink className="size-3.5 shrink-0" aria-hidden />
                        <span className="sr-only">(se abre en una pestaña nueva)</span>
                      </a>
                    ) : (
                      value
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
        <div className="grid content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">Decisión</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              {open ? (
                <>
                  <div className="flex flex-wrap gap-2">
                    {decision('approve', 'Aprobar', 'default')}
                    {decision('reject', 'Rechazar', 'destructive')}
                    {status !== 'waitlisted' ? decision('waitlist', 'Lista de espera') : null}
                  </div>
                  <p className="text-xs text-muted-foreground">
                    &lsquo;Aprobar&rsquo; envía una invitación personal para suscribirse (válida 14 días); &lsquo;Rechazar&rsquo;, el email
                    de rechazo de los ajustes.
                  </p>
                  {status !== 'info_requested' ? (
                    <TextForm
                      intent="ask-info"
                      name="question"
                      seen={status}
                      label="Pedir más información"
                      submit="Enviar la pregunta"
                      pending="Enviando..."
                      lastResult={lastResult}
                    />
                  ) : (
                    <p className="text-sm text-muted-foreground">Esperando la respuesta del candidato.</p>
                  )}
                </>
              ) : (
                <p className="text-sm">Esta solicitud está cerrada: {ADMIN_STATUS[status].toLowerCase()}.</p>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">Historial</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <ol className="grid gap-3 text-sm">
                {application.history.map((entry) => (
                  <li key={entry.id} className="border-l pl-3">
                    <p className="font-medium">{HISTORY_LABELS[entry.kind]}</p>
                    {entry.body ? <p className="mt-0.5 whitespace-pre-line [overflow-wrap:anywhere]">{entry.body}</p> : null}
                    <p className="mt-0.5 text-xs text-muted-foreground">
                      {fullDateTime(entry.createdAt)}
                      {entry.actor ? ` · ${entry.actor}` : ''}
                    </p>
                  </li>
                ))}
              </ol>
              <TextForm
                intent="note"
                name="note"
                label="Nota interna (solo la ven los admins)"
                submit="Guardar la nota"
                pending="Guardando..."
                lastResult={lastResult}
              />
            </CardContent>
          </Card>
        </div>
      </div>
    </section>
  )
}

/** A text the admin sends or keeps (the question to the candidate, an internal note): one intent, one field. */
function TextForm({
  intent,
  name,
  seen,
  label,
  submit,
  pending,
  lastResult,
}: {
  intent: 'ask-info' | 'note'
  name: 'question' | 'note'
  /** The state the admin decided on, for a form that changes it. */
  seen?: string
  label: string
  submit: string
  pending: string
  lastResult: ReturnType<typeof failedSubmission>
}) {
  const navigation = useNavigation()
  const [form, fields] = useForm<Record<typeof name, string>>({ id: intent, lastResult })
  return (
    <Form method="post" className="grid gap-2 border-t pt-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {seen ? <input type="hidden" name="seen" value={seen} /> : null}
      <TextareaField label={label} field={fields[name]} rows={3} maxLength={APPLICATION_LIMITS.note} />
      <Button type="submit" variant="outline" className="justify-self-start" disabled={navigation.state !== 'idle'}>
        {navigation.formData?.get('intent') === intent ? pending : submit}
      </Button>
    </Form>
  )
}
