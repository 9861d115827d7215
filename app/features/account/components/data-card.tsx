import { Form, Link, useNavigation } from 'react-router'
import type { Failure } from '~/platform/http/result'
import { ActionStatus } from '~/ui/action-status'
import { Button } from '~/ui/button'
import { DeleteAccountSection } from './delete-account'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'

/** 'Tus datos': a copy of everything the app holds about the member, and the deletion of their account (issue 27). */
export function DataCard({
  failure,
  deletionFailure,
  twoFactorEnabled,
}: {
  failure?: Failure
  deletionFailure?: Failure
  twoFactorEnabled: boolean
}) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'export-data'
  return (
    <Card id="tus-datos" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Tus datos</CardTitle>
        <CardDescription>
          Un archivo ZIP con todo lo que guardamos sobre ti (perfil, publicaciones, comentarios, likes, inscripciones, notificaciones,
          pagos, tu solicitud de admisión…) y tus archivos. Te llega por email un enlace válido 48 horas. Una vez al día.{' '}
          <Link to="/privacidad#derechos" className="font-medium text-primary underline">
            Tus derechos
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ActionStatus result={failure} />
        <Form method="post" action="/perfil" preventScrollReset>
          <input type="hidden" name="intent" value="export-data" />
          <Button type="submit" variant="outline" disabled={busy}>
            {busy ? 'Pidiendo...' : 'Descargar mis datos'}
          </Button>
        </Form>
        <DeleteAccountSection twoFactorEnabled={twoFactorEnabled} failure={deletionFailure} />
      </CardContent>
    </Card>
  )
}
