import { getFormProps, useForm } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { formatEuros, formatNumber } from '~/features/admin/components/stat'
import { longDate } from '~/platform/dates'
import { guardedAction } from '~/platform/http/responses.server'
import { failedSubmission } from '~/platform/http/result'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Field, SelectField } from '~/ui/field'
import { Section } from '~/ui/section'
import { codesAction, listCodes } from './codes.server'
import { CODE_KINDS, CODE_LIMITS, DURATIONS } from './limits'
import type { Route } from './+types/codes.route'

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const codes = await listCodes()
  return {
    codes: codes.map((code) => ({
      id: code.id,
      code: code.code,
      discount: code.percentOff !== null ? `${code.percentOff} %` : formatEuros(code.amountOffCents ?? 0),
      duration:
        code.duration === 'repeating' ? `${code.durationMonths} ${code.durationMonths === 1 ? 'mes' : 'meses'}` : DURATIONS[code.duration],
      uses:
        code.maxRedemptions === null
          ? formatNumber(code.redemptions)
          : `${formatNumber(code.redemptions)} de ${formatNumber(code.maxRedemptions)}`,
      mrr: formatEuros(code.mrrCents),
      endsOn: code.expiresAt ? longDate(code.expiresAt) : 'Sin fecha de fin',
      state: code.state,
    })),
  }
}

export const action = guardedAction(requireAdminConsole, codesAction)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los códigos" />
}

const STATES = { active: 'Activo', exhausted: 'Agotado', expired: 'Caducado', inactive: 'Desactivado' } as const

export default function CodesPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const [form, fields] = useForm<Record<string, string>>({
    id: 'create-code',
    lastResult: busy ? undefined : failedSubmission(actionData),
    defaultValue: { kind: 'percent', duration: 'once' },
    shouldRevalidate: 'onBlur',
  })
  return (
    <>
      <ActionStatus result={actionData} />
      <Section id="new-code" title="Nuevo código" titleClassName="text-xl font-semibold" className="grid gap-3">
        <Card className="max-w-2xl">
          <CardHeader>
            <CardTitle className="text-lg">Crear un código promocional</CardTitle>
            <CardDescription>
              Se aplica en el pago (Stripe Checkout), una vez por suscripción y solo a quien no ha pagado antes. Cada código queda en el
              registro.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-4 sm:grid-cols-2" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="create-code" />
              <Field
                label="Código"
                field={fields.code!}
                maxLength={CODE_LIMITS.codeMax}
                autoCapitalize="characters"
                placeholder="SOCIO-2027"
                className="uppercase"
              />
              <SelectField label="Tipo de descuento" field={fields.kind!} options={CODE_KINDS} />
              <Field label="Porcentaje (si es porcentaje)" field={fields.percentOff!} type="number" min={1} max={100} step={1} />
              <Field label="Importe en euros (si es importe fijo)" field={fields.amountOff!} type="number" min={0.01} step={0.01} />
              <SelectField label="Duración" field={fields.duration!} options={DURATIONS} />
              <Field
                label="Meses (si dura unos meses)"
                field={fields.durationMonths!}
                type="number"
                min={1}
                max={CODE_LIMITS.monthsMax}
                step={1}
              />
              <Field label="Usos máximos (opcional)" field={fields.maxRedemptions!} type="number" min={1} step={1} />
              <Field label="Válido hasta (opcional)" field={fields.endsOn!} type="date" />
              <div className="sm:col-span-2">
                <Button type="submit" disabled={busy}>
                  {busy && navigation.formData?.get('intent') === 'create-code' ? 'Creando...' : 'Crear código'}
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
      </Section>
      <Section id="codes" title="Códigos" titleClassName="text-xl font-semibold" className="grid gap-3">
        <DataTable
          label="Códigos promocionales"
          rows={d.codes}
          rowKey={(row) => row.id}
          empty="Aún no hay códigos."
          columns={[
            { header: 'Código', cell: (row) => <span className="font-mono font-semibold [overflow-wrap:anywhere]">{row.code}</span> },
            { header: 'Descuento', labelled: true, cell: (row) => `${row.discount} · ${row.duration}` },
            { header: 'Usos', numeric: true, labelled: true, cell: (row) => row.uses },
            { header: 'Ingresos al mes', numeric: true, labelled: true, cell: (row) => row.mrr },
            { header: 'Válido hasta', labelled: true, cell: (row) => row.endsOn },
            {
              header: 'Estado',
              labelled: true,
              cell: (row) => (
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant={row.state === 'active' ? 'default' : 'secondary'}>{STATES[row.state]}</Badge>
                  {row.state !== 'inactive' ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="deactivate-code" />
                      <input type="hidden" name="codeId" value={row.id} />
                      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Desactivar ${row.code}`}>
                        Desactivar
                      </Button>
                    </Form>
                  ) : null}
                </div>
              ),
            },
          ]}
        />
      </Section>
    </>
  )
}
