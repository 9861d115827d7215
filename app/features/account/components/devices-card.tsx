import { Laptop } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import type { Failure } from '~/platform/http/result'
import { fullDateTime } from '~/platform/dates'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import type { ReactNode } from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '~/ui/card'
import { PartUnavailable } from '~/ui/error-boundary'
import { HiddenFields } from '~/ui/hidden-fields'

export interface DeviceView {
  id: string
  device: string
  address: string
  signedInAt: string
  lastActiveAt: string
  current: boolean
}

/** 'Seguridad': two-factor sign-in (the children), where the account is signed in, and closing any of them (issue 27). */
export function DevicesCard({
  devices,
  failed,
  failure,
  children,
}: {
  /** null when they could not be loaded: `failed` says so in their place. */
  devices: DeviceView[] | null
  failed: string
  failure?: Failure
  children?: ReactNode
}) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && String(navigation.formData?.get('intent')).startsWith('close-')
  const others = devices?.filter((device) => !device.current) ?? []
  return (
    <Card id="seguridad" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Seguridad</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {children}
        <ActionStatus result={failure} />
        {devices ? (
          <>
            <h3 className="font-semibold">Dispositivos con sesión iniciada</h3>
            <p className="-mt-2 text-sm text-muted-foreground">Si no reconoces alguno, cierra su sesión y cambia tu contraseña.</p>
          </>
        ) : (
          <PartUnavailable failed={failed} inCard />
        )}
        <ul className="grid gap-3 empty:hidden">
          {devices?.map((device) => (
            <li key={device.id} className="flex flex-wrap items-center gap-3 rounded-md border p-3 text-sm">
              <Laptop className="size-5 shrink-0 text-muted-foreground" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {device.device}
                  {device.current ? <Badge variant="secondary">Este dispositivo</Badge> : null}
                </p>
                <p className="text-muted-foreground">
                  Dirección aproximada {device.address} · Última actividad {fullDateTime(device.lastActiveAt)}
                </p>
              </div>
              {device.current ? null : (
                <Form method="post" action="/perfil" preventScrollReset>
                  <HiddenFields values={{ intent: 'close-device', sessionId: device.id }} />
                  <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={`Cerrar sesión en ${device.device}`}>
                    Cerrar sesión
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {/* Closing the others needs no list: it stays when the list could not be loaded. */}
        {others.length || !devices ? (
          <Form method="post" action="/perfil" preventScrollReset>
            <input type="hidden" name="intent" value="close-other-devices" />
            <Button type="submit" variant="outline" disabled={busy}>
              Cerrar las demás
            </Button>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  )
}
