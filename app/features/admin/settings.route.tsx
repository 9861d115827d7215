import { type FieldMetadata, getFormProps, useForm } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { guardedAction } from '~/platform/http/responses.server'
import { failedSubmission } from '~/platform/http/result'
import type { SettingControl } from '~/platform/settings/settings.server'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Field, TextareaField } from '~/ui/field'
import { settingsAction, settingsPage } from './console.server'
import type { Route } from './+types/settings.route'

const RADIO = 'size-4 shrink-0 accent-primary'

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  return settingsPage()
}

export const action = guardedAction(requireAdminConsole, settingsAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los ajustes" />
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== 'idle'
  const [form, fields] = useForm<Record<string, string>>({
    id: 'settings',
    lastResult: busy ? undefined : failedSubmission(actionData),
    defaultValue: loaderData.values,
    shouldRevalidate: 'onBlur',
  })
  return (
    <Form method="post" className="grid max-w-2xl gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save-settings" />
      <ActionStatus result={actionData} />
      {loaderData.cards.map((card) => (
        <Card key={card.title}>
          <CardHeader>
            <CardTitle className="text-lg">{card.title}</CardTitle>
            <CardDescription>{card.description}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {card.fields.map(({ name, control }) => (
              <SettingField key={name} control={control} field={fields[name]!} value={loaderData.values[name]} />
            ))}
          </CardContent>
        </Card>
      ))}
      <Button type="submit" className="justify-self-start" disabled={busy}>
        {busy ? 'Guardando...' : 'Guardar ajustes'}
      </Button>
    </Form>
  )
}

/** One field as its feature declared it (platform/settings: `SettingControl`). */
function SettingField({ control, field, value }: { control: SettingControl; field: FieldMetadata<string>; value?: string }) {
  switch (control.kind) {
    case 'textarea':
      return <TextareaField label={control.label} field={field} rows={control.rows} maxLength={control.maxLength} />
    case 'choice':
      return (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">{control.label}</legend>
          {Object.entries(control.options).map(([option, label]) => (
            <label key={option} className="flex items-center gap-2 text-sm">
              <input type="radio" name={field.name} value={option} defaultChecked={value === option} className={RADIO} />
              {label}
            </label>
          ))}
        </fieldset>
      )
    case 'checkbox':
      return (
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name={field.name} defaultChecked={value === 'on'} className="mt-0.5 size-4 shrink-0 accent-primary" />
          <span>
            <span className="font-medium">{control.label}</span>: {control.description}
          </span>
        </label>
      )
    default:
      return (
        <>
          <Field label={control.label} field={field} type={control.kind} step={control.step} maxLength={control.maxLength} />
          {control.hint ? <p className="-mt-2 text-xs text-muted-foreground">{control.hint}</p> : null}
        </>
      )
  }
}
