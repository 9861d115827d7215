import { getFormProps, useForm } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import type { z } from 'zod'
import { requireAdminConsole } from '~/platform/auth/guards.server'
import { guardedAction } from '~/platform/http/responses.server'
import { failedSubmission } from '~/platform/http/result'
import { ANNOUNCEMENT_MAX, REJECTION_TEXT_MAX } from '~/platform/settings/limits'
import { getSettings } from '~/platform/settings/settings.server'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Field, TextareaField } from '~/ui/field'
import { settingsAction, type SettingsForm } from './console.server'
import type { Route } from './+types/settings.route'

const RADIO = 'size-4 shrink-0 accent-primary'

/** Where 'Solicitar admisión' leads. */
const ADMISSION_MODES = {
  in_app: 'El formulario de la comunidad (/admision), con la cola de solicitudes en la consola',
  external: 'Un formulario externo, en una pestaña nueva',
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const settings = await getSettings()
  return {
    // With its seconds (the field steps by one second): saving other settings never moves it.
    admissionLaunchAt: settings.admissionLaunchAt,
    admissionMode: settings.admissionMode,
    admissionFormUrl: settings.admissionFormUrl,
    admissionRequired: settings.admissionRequired ? 'on' : '',
    rejectionText: settings.rejectionText,
    announcementText: settings.announcement?.text ?? '',
    announcementUntil: settings.announcement?.until ?? '',
  }
}

export const action = guardedAction(requireAdminConsole, settingsAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los ajustes" />
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== 'idle'
  const [form, fields] = useForm<z.input<typeof SettingsForm>>({
    id: 'settings',
    lastResult: busy ? undefined : failedSubmission(actionData),
    defaultValue: loaderData,
    shouldRevalidate: 'onBlur',
  })
  return (
    <Form method="post" className="grid max-w-2xl gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save-settings" />
      <ActionStatus result={actionData} />
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Admisión</CardTitle>
          <CardDescription>
            La cuenta atrás de la barra de admisión, adónde lleva &lsquo;Solicitar admisión&rsquo; y quién puede suscribirse.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Field label="Fecha y hora de la cuenta atrás" field={fields.admissionLaunchAt} type="datetime-local" step={1} />
          <p className="-mt-2 text-xs text-muted-foreground">
            Cada visitante la ve en su hora local. Cuando pasa, la barra dice &lsquo;Admisión abierta&rsquo;.
          </p>
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium">&lsquo;Solicitar admisión&rsquo; lleva a</legend>
            {Object.entries(ADMISSION_MODES).map(([mode, text]) => (
              <label key={mode} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={fields.admissionMode.name}
                  value={mode}
                  defaultChecked={loaderData.admissionMode === mode}
                  className={RADIO}
                />
                {text}
              </label>
            ))}
          </fieldset>
          <Field label="Formulario externo de admisión" field={fields.admissionFormUrl} type="url" maxLength={500} />
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name={fields.admissionRequired.name}
              defaultChecked={loaderData.admissionRequired === 'on'}
              className="mt-0.5 size-4 shrink-0 accent-primary"
            />
            <span>
              <span className="font-medium">Admisión obligatoria</span>: solo quien tenga su solicitud aprobada (o el premium concedido por
              un admin) puede suscribirse.
            </span>
          </label>
          <TextareaField label="Texto del email de rechazo" field={fields.rejectionText} rows={5} maxLength={REJECTION_TEXT_MAX} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Aviso en la comunidad</CardTitle>
          <CardDescription>
            Una línea encima de las pestañas de la comunidad, hasta el día que indiques. Déjalo vacío para no mostrar ninguno.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Field label="Texto del aviso" field={fields.announcementText} maxLength={ANNOUNCEMENT_MAX} />
          <Field label="Mostrar hasta (incluido)" field={fields.announcementUntil} type="date" />
        </CardContent>
      </Card>
      <Button type="submit" className="justify-self-start" disabled={busy}>
        {busy ? 'Guardando...' : 'Guardar ajustes'}
      </Button>
    </Form>
  )
}
