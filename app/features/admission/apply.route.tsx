import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { CheckCircle2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { getCurrentUser } from '~/features/account/guards.server'
import { getEnv } from '~/platform/env.server'
import { failedSubmission, formErrors } from '~/platform/http/result'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '~/ui/card'
import { Field, FormError, SelectField, TextareaField } from '~/ui/field'
import { answersToChange, applyAction } from './admission.server'
import { APPLICATION_LIMITS as LIMITS, SECTORS } from './limits'
import type { ApplicationSchema } from './schemas'
import type { z } from 'zod'
import type { Route } from './+types/apply.route'

// Title, description and canonical address only: the landing's social cards (site/components/seo.ts) would bring its copy into this page's first load.
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Solicitar admisión · ${site.name}` },
  {
    name: 'description',
    content: 'Solicita tu plaza en la comunidad de profesionales de pharma, biotech y medtech que aspiran a la alta dirección.',
  },
  { tagName: 'link', rel: 'canonical', href: `${loaderData?.origin ?? ''}/admision` },
]

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const received = params.has('enviada')
  // From the private status link ('Cambiar mi solicitud'): the application as it is, to change.
  const link = params.get('solicitud')
  if (link && !received) return { origin: getEnv().APP_URL, received, known: await answersToChange(link), link }
  // A signed-in member (from their profile's 'Solicitar admisión') finds what we know already filled in.
  const viewer = received ? null : await getCurrentUser(request)
  const known = viewer
    ? {
        firstName: viewer.profile?.firstName ?? '',
        lastName: viewer.profile?.lastName ?? '',
        email: viewer.email,
        company: viewer.profile?.company ?? '',
        position: viewer.profile?.position ?? '',
      }
    : undefined
  return { origin: getEnv().APP_URL, received, known, link: null }
}

export const action = ({ request }: Route.ActionArgs) => applyAction(request)

export default function ApplyPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.received) return <Received />
  return <ApplicationForm result={actionData} known={loaderData.known} link={loaderData.link} />
}

function Received() {
  return (
    <div className="mx-auto grid w-full max-w-xl gap-6 px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <CheckCircle2 className="size-8 text-primary" aria-hidden />
          <h1 className="text-2xl font-semibold leading-tight">Solicitud recibida</h1>
          <CardDescription>
            Gracias. Te hemos enviado un email con lo que nos has contado y un enlace privado para ver el estado de tu solicitud.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          <p>
            Revisamos cada solicitud a mano y respondemos en unos días. Si la aprobamos, recibirás una invitación personal para crear tu
            cuenta y suscribirte.
          </p>
          <p className="text-muted-foreground">¿No ves el email? Revisa la carpeta de spam o promociones.</p>
          <Link to="/" className="font-medium text-primary underline underline-offset-4">
            Volver al inicio
          </Link>
        </CardContent>
      </Card>
    </div>
  )
}

function ApplicationForm({
  result,
  known,
  link,
}: {
  result: Route.ComponentProps['actionData']
  known?: Record<string, string>
  link: string | null
}) {
  const busy = useNavigation().state === 'submitting'
  // Checked on the server only: the page ships no Zod (decisions/0012).
  const [form, fields] = useForm<z.input<typeof ApplicationSchema>>({
    id: 'admission',
    defaultValue: known,
    lastResult: busy ? undefined : failedSubmission(result),
    shouldRevalidate: 'onBlur',
  })
  const failure = result && !result.ok ? result : undefined
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-navy">{link ? 'Cambiar mi solicitud' : 'Solicitar admisión'}</h1>
      <p className="mt-3 text-muted-foreground">
        {link
          ? 'Cambia lo que quieras y guárdalo: tu solicitud sigue en revisión con los datos nuevos.'
          : `${site.name} reúne a profesionales de pharma, biotech y medtech que aspiran a la alta dirección. Cuéntanos quién eres: revisamos cada solicitud a mano y te respondemos por email en unos días.`}
      </p>
      <Form method="post" className="mt-8 grid gap-6" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="apply" />
        {link ? <input type="hidden" name="link" value={link} /> : null}
        <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
        {/* Robots fill every field; people never see this one. */}
        <div className="sr-only" aria-hidden>
          <label htmlFor="admission-website">No rellenes este campo</label>
          <input id="admission-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <FieldCard title="Tus datos" columns>
          <Field label="Nombre" field={fields.firstName} autoComplete="given-name" maxLength={LIMITS.name} required />
          <Field label="Apellidos" field={fields.lastName} autoComplete="family-name" maxLength={LIMITS.name} required />
          <Field
            label="Email"
            field={fields.email}
            type="email"
            autoComplete="email"
            maxLength={LIMITS.email}
            required
            readOnly={Boolean(link)}
          />
          <Field label="Teléfono móvil (opcional)" field={fields.phone} autoComplete="tel" inputMode="tel" maxLength={LIMITS.phone} />
          <div className="sm:col-span-2">
            <Field
              label="Perfil de LinkedIn"
              field={fields.linkedinUrl}
              type="url"
              placeholder="https://www.linkedin.com/in/tu-nombre"
              maxLength={LIMITS.url}
              required
            />
          </div>
        </FieldCard>
        <FieldCard title="Tu trayectoria" columns>
          <Field label="Empresa" field={fields.company} autoComplete="organization" maxLength={LIMITS.company} required />
          <Field label="Cargo actual" field={fields.position} autoComplete="organization-title" maxLength={LIMITS.position} required />
          <SelectField label="Sector" field={fields.sector} options={SECTORS} placeholder="Elige tu sector" />
          <Field label="Años de experiencia" field={fields.yearsExperience} type="number" min={0} max={LIMITS.yearsMax} step={1} required />
          <div className="sm:col-span-2">
            <Field
              label="Puesto al que aspiras"
              field={fields.targetRole}
              placeholder="Por ejemplo: CEO, director general, VP de operaciones"
              maxLength={LIMITS.targetRole}
              required
            />
          </div>
        </FieldCard>
        <FieldCard title="La comunidad y tú" description="Unas líneas bastan.">
          <TextareaField label="¿Qué aportarías a la comunidad?" field={fields.contribution} rows={4} maxLength={LIMITS.text} required />
          <TextareaField label="¿Qué esperas de la comunidad?" field={fields.expectations} rows={4} maxLength={LIMITS.text} required />
          <Field label="¿Cómo nos conociste? (opcional)" field={fields.referral} maxLength={LIMITS.referral} />
        </FieldCard>
        <div className="grid gap-1.5">
          <label className="flex items-start gap-2 text-sm">
            <input
              {...getInputProps(fields.consent, { type: 'checkbox', value: 'on' })}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              aria-describedby={fields.consent.errors?.length ? fields.consent.errorId : undefined}
              required
            />
            <span>
              He leído la{' '}
              <Link to="/privacidad" className="font-medium text-primary underline">
                política de privacidad
              </Link>{' '}
              y acepto que tratéis estos datos para estudiar mi solicitud.
            </span>
          </label>
          <p
            id={fields.consent.errorId}
            className="min-h-5 text-sm text-destructive"
            role={fields.consent.errors?.length ? 'alert' : undefined}
          >
            {fields.consent.errors?.[0]}
          </p>
        </div>
        <Button type="submit" size="lg" className="justify-self-start" disabled={busy}>
          {busy ? 'Enviando...' : link ? 'Guardar cambios' : 'Enviar solicitud'}
        </Button>
      </Form>
    </div>
  )
}

/** A part of the form: its heading, and its fields (in two columns from a small screen up when `columns`). */
function FieldCard({
  title,
  description,
  columns,
  children,
}: {
  title: string
  description?: string
  columns?: boolean
  children: ReactNode
}) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold">{title}</h2>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className={columns ? 'grid gap-4 sm:grid-cols-2' : 'grid gap-4'}>{children}</CardContent>
    </Card>
  )
}
