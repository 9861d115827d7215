import { getFormProps, useForm } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { formErrors, type Failure } from '~/platform/http/result'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Field, FormError } from '~/ui/field'
import { HiddenFields } from '~/ui/hidden-fields'
import { IdentityFields, PasswordField } from './credential-fields'

export interface Enrolment {
  totpURI: string
  /** The QR code's modules, rows of 0 and 1 separated by '/'. */
  qr: string
  /** The 10 recovery codes, separated by spaces. */
  backupCodes: string
}

/** The key inside the otpauth:// address, in groups of four for typing it into an app by hand. */
function keyOf(totpURI: string) {
  try {
    return (new URL(totpURI).searchParams.get('secret') ?? '').replace(/(.{4})/g, '$1 ').trim()
  } catch {
    return ''
  }
}

/** The QR code drawn from its modules: one path, crisp at any size, nothing to load. */
function QrCode({ rows }: { rows: string }) {
  const lines = rows.split('/')
  const size = lines.length
  const path = lines.flatMap((line, y) => [...line].flatMap((bit, x) => (bit === '1' ? [`M${x + 4} ${y + 4}h1v1h-1z`] : []))).join('')
  return (
    <svg
      viewBox={`0 0 ${size + 8} ${size + 8}`}
      className="size-48 rounded-md border bg-white"
      role="img"
      aria-label="Código QR para tu aplicación de autenticación"
    >
      <path d={path} fill="#000" shapeRendering="crispEdges" />
    </svg>
  )
}

/**
 * 'Verificación en dos pasos' in the 'Seguridad' card: off (the password starts it), the enrolment
 * (QR code, key, recovery codes shown once and the code that confirms), or on (the password and a
 * code turn it off). The enrolment comes from the first step's answer, or back from a refused code.
 */
export function TwoFactorSection({
  enabled,
  required,
  enrolment,
  failure,
}: {
  enabled: boolean
  /** An admin who must turn it on before using the console (ADMIN_TWO_FACTOR). */
  required: boolean
  enrolment?: Enrolment
  failure?: Failure
}) {
  const navigation = useNavigation()
  const pending = String(navigation.formData?.get('intent') ?? '')
  const busy = navigation.state !== 'idle' && pending.startsWith('two-factor')
  const [form, fields] = useForm<{ password: string; code: string }>({
    id: 'two-factor',
    lastResult: busy ? undefined : failure?.submission,
  })
  const errors = formErrors(form.errors, failure)
  return (
    <section aria-labelledby="two-factor-title" className="grid gap-3 border-b pb-5">
      <h3 id="two-factor-title" className="flex flex-wrap items-center gap-2 font-semibold">
        Verificación en dos pasos {enabled ? <Badge>Activada</Badge> : <Badge variant="secondary">Desactivada</Badge>}
      </h3>
      {required ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          Eres administrador: activa la verificación en dos pasos para usar la consola y las herramientas de administración.
        </p>
      ) : null}
      {enabled ? (
        <Form method="post" action="/perfil" preventScrollReset className="grid gap-3" {...getFormProps(form)}>
          <p className="text-sm text-muted-foreground">
            Al iniciar sesión te pedimos un código de tu aplicación de autenticación. Para desactivarla, escribe tu contraseña y un código.
          </p>
          <input type="hidden" name="intent" value="two-factor-disable" />
          <FormError errors={errors} id={form.errorId} />
          <IdentityFields fields={fields} withCode />
          <Button type="submit" variant="outline" disabled={busy} className="justify-self-start">
            Desactivar
          </Button>
        </Form>
      ) : enrolment ? (
        <Form method="post" action="/perfil" preventScrollReset className="grid gap-4" {...getFormProps(form)}>
          <HiddenFields
            values={{ intent: 'two-factor-confirm', totpURI: enrolment.totpURI, qr: enrolment.qr, backupCodes: enrolment.backupCodes }}
          />
          <ol className="grid list-decimal gap-4 pl-5 text-sm">
            <li className="grid gap-2">
              Escanea este código con tu aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…).
              <QrCode rows={enrolment.qr} />
              <span>
                O escribe esta clave: <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono">{keyOf(enrolment.totpURI)}</code>
              </span>
            </li>
            <li className="grid gap-2">
              Guarda tus códigos de recuperación: cada uno sirve una vez si pierdes el teléfono. No los volveremos a mostrar.
              <ul className="grid grid-cols-2 gap-1 font-mono sm:grid-cols-5" aria-label="Códigos de recuperación">
                {enrolment.backupCodes.split(' ').map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
              <a
                className="justify-self-start font-medium text-primary underline"
                download="codigos-de-recuperacion-circulo-ceo.txt"
                href={`data:text/plain;charset=utf-8,${encodeURIComponent(`Códigos de recuperación de Círculo CEO (cada uno sirve una vez):\n${enrolment.backupCodes.split(' ').join('\n')}\n`)}`}
              >
                Descargar los códigos
              </a>
            </li>
            <li className="grid gap-2">
              Escribe el código de 6 cifras que muestra la aplicación.
              <FormError errors={errors} id={form.errorId} />
              <div className="max-w-xs">
                <Field label="Código" field={fields.code} inputMode="numeric" autoComplete="one-time-code" maxLength={7} />
              </div>
            </li>
          </ol>
          <Button type="submit" disabled={busy} className="justify-self-start">
            {busy ? 'Comprobando...' : 'Activar'}
          </Button>
        </Form>
      ) : (
        <Form method="post" action="/perfil" preventScrollReset className="grid gap-3" {...getFormProps(form)}>
          <p className="text-sm text-muted-foreground">
            Además de tu contraseña, al iniciar sesión te pediremos un código de una aplicación de tu teléfono. Así nadie entra con tu
            contraseña sola.
          </p>
          <input type="hidden" name="intent" value="two-factor-enable" />
          <FormError errors={errors} id={form.errorId} />
          <div className="max-w-sm">
            <PasswordField label="Contraseña actual" field={fields.password} current />
          </div>
          <Button type="submit" variant="outline" disabled={busy} className="justify-self-start">
            {busy ? 'Preparando...' : 'Activar la verificación en dos pasos'}
          </Button>
        </Form>
      )}
    </section>
  )
}
