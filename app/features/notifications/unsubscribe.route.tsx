import { MailX } from 'lucide-react'
import { Form, Link, useNavigation } from 'react-router'
import { refuse, success } from '~/platform/http/responses.server'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '~/ui/card'
import { SmallPageErrorBoundary } from '~/ui/error-boundary'
import { listLabel } from './preferences'
import { unsubscribe } from './preferences.server'
import { readUnsubscribeToken } from './unsubscribe.server'
import type { Route } from './+types/unsubscribe.route'

export const meta: Route.MetaFunction = () => [{ title: `Darse de baja · ${site.name}` }, { name: 'robots', content: 'noindex' }]

/** The link is the credential: no session is needed, and a wrong or old one says so plainly. */
function requireToken(token: string) {
  const read = readUnsubscribeToken(token)
  if (read.status !== 'valid') {
    const expired = read.status === 'expired'
    refuse(expired ? 410 : 400, expired ? 'Este enlace ha caducado' : 'Enlace no válido', { detail: { unsubscribeLink: read.status } })
  }
  return read
}

export async function loader({ params }: Route.LoaderArgs) {
  const { lists } = requireToken(params.token)
  // Opening the link changes nothing (mail scanners open every link); the button or the mail
  // client's own one-click POST (RFC 8058) does.
  return { labels: lists.map(listLabel), digest: lists.includes('digest') }
}

export async function action({ params }: Route.ActionArgs) {
  const { userId, lists } = requireToken(params.token)
  await unsubscribe(userId, lists)
  return success({ done: true }, { title: 'Listo: ya no recibirás estos emails' })
}

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const sending = navigation.state === 'submitting'
  const done = Boolean(actionData?.ok)
  return (
    <div className="mx-auto grid w-full max-w-xl gap-6 px-4 py-10">
      <Card>
        <CardHeader>
          <MailX className="size-8 text-primary" aria-hidden />
          <h1 className="text-2xl font-semibold leading-tight">
            {done ? 'Listo: ya no recibirás estos emails' : 'Dejar de recibir emails'}
          </h1>
          <CardDescription>
            {done
              ? loaderData.digest && loaderData.labels.length === 1
                ? 'No te enviaremos más el resumen de la comunidad.'
                : 'Seguirás viendo estas novedades en la campana de la web.'
              : 'Dejarás de recibir por email:'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ul className="list-disc pl-5 text-sm">
            {loaderData.labels.map((label) => (
              <li key={label}>{label}</li>
            ))}
          </ul>
          {done ? null : (
            <Form method="post">
              <Button type="submit" disabled={sending}>
                {sending ? 'Guardando...' : 'Confirmar la baja'}
              </Button>
            </Form>
          )}
          <p className="text-sm text-muted-foreground">
            Puedes elegir qué recibes, tema por tema, en{' '}
            <Link to="/perfil#notificaciones" className="font-medium text-primary underline">
              tu perfil
            </Link>
            .
          </p>
        </CardContent>
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return (
    <SmallPageErrorBoundary
      to="/perfil#notificaciones"
      label="Ir a mis preferencias"
      describe={(status) =>
        status === 410
          ? 'Por seguridad, los enlaces para darse de baja caducan. Entra en tu cuenta y elige qué emails recibes en tu perfil.'
          : 'El enlace está incompleto o no es correcto. Cópialo entero desde el email, o elige qué emails recibes en tu perfil.'
      }
    />
  )
}
