import { useEffect, useState } from 'react'
import { Form, useRevalidator } from 'react-router'
import { Button } from '~/ui/button'
import { showToast } from '~/ui/toast'

export interface PushDevicesView {
  /** The VAPID public key browsers subscribe with; null: push is not offered on this server. */
  publicKey: string | null
  devices: Array<{ id: string; endpoint: string; label: string; since: string }>
}

/** Every sentence the card may show (asserted in push.test.ts and phone.spec.ts). */
export const PUSH_CARD_TEXT = {
  heading: 'Notificaciones push',
  intro: 'Avisos en este móvil u ordenador aunque no tengas la web abierta, de los temas que elijas abajo.',
  enable: 'Activar notificaciones en este dispositivo',
  enabling: 'Activando...',
  iPhone:
    'En iPhone, primero añade Círculo CEO a la pantalla de inicio (Compartir → Añadir a pantalla de inicio) y ábrelo desde allí para activar las notificaciones.',
  notOffered: 'Las notificaciones push no están disponibles en este servidor.',
  unsupported: 'Este navegador no admite notificaciones push.',
  denied: 'Tu navegador tiene bloqueadas las notificaciones de este sitio: permítelas en sus ajustes y vuelve a intentarlo.',
  failed: 'No se pudieron activar las notificaciones. Vuelve a intentarlo.',
  thisDevice: 'Este dispositivo',
  disable: 'Desactivar',
  none: 'Ningún dispositivo recibe notificaciones push.',
} as const

type Support = 'unknown' | 'yes' | 'no' | 'ios-browser'

/**
 * /perfil → Notificaciones: push is asked for only after a tap ('Activar notificaciones en este
 * dispositivo'), and each device that has it is listed with 'Desactivar'. On an iPhone's Safari
 * (not opened from the Home Screen) push does not exist: the card says how to get it.
 */
export function PushDevices({ publicKey, devices }: PushDevicesView) {
  const revalidator = useRevalidator()
  const [support, setSupport] = useState<Support>('unknown')
  const [endpoint, setEndpoint] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    const standalone =
      window.matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true
    const iOS = /iPhone|iPad|iPod/.test(navigator.userAgent)
    if (iOS && !standalone) setSupport('ios-browser')
    else if ('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window) setSupport('yes')
    else setSupport('no')
    if ('serviceWorker' in navigator) {
      void navigator.serviceWorker.getRegistration().then(async (registration) => {
        const subscription = await registration?.pushManager?.getSubscription()
        setEndpoint(subscription?.endpoint ?? null)
      })
    }
  }, [])

  async function enable() {
    if (!publicKey) return
    setBusy(true)
    setProblem(null)
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        setProblem(PUSH_CARD_TEXT.denied)
        return
      }
      const registration =
        (await navigator.serviceWorker.getRegistration()) ?? (await navigator.serviceWorker.register('/sw.js', { scope: '/' }))
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey })
      const response = await fetch('/notificaciones/push', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(subscription),
      })
      const answer = (await response.json().catch(() => null)) as { ok?: boolean; message?: { title: string } } | null
      if (!response.ok || !answer?.ok) {
        setProblem(answer?.message?.title ?? PUSH_CARD_TEXT.failed)
        return
      }
      setEndpoint(subscription.endpoint)
      if (answer.message) showToast(answer.message)
      await revalidator.revalidate()
    } catch {
      setProblem(PUSH_CARD_TEXT.failed)
    } finally {
      setBusy(false)
    }
  }

  /** Turning this browser's device off also ends its subscription at the push service. */
  async function forgetHere(deviceEndpoint: string) {
    if (deviceEndpoint !== endpoint) return
    const registration = await navigator.serviceWorker.getRegistration()
    await (await registration?.pushManager.getSubscription())?.unsubscribe()
    setEndpoint(null)
  }

  const subscribedHere = endpoint !== null && devices.some((device) => device.endpoint === endpoint)
  return (
    <section aria-labelledby="push-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h3 id="push-heading" className="font-semibold">
          {PUSH_CARD_TEXT.heading}
        </h3>
        <p className="text-sm text-muted-foreground">{PUSH_CARD_TEXT.intro}</p>
      </div>
      {!publicKey ? (
        <p className="text-sm">{PUSH_CARD_TEXT.notOffered}</p>
      ) : support === 'ios-browser' ? (
        <p className="text-sm">{PUSH_CARD_TEXT.iPhone}</p>
      ) : support === 'no' ? (
        <p className="text-sm">{PUSH_CARD_TEXT.unsupported}</p>
      ) : subscribedHere ? null : (
        <Button
          type="button"
          variant="outline"
          className="h-auto min-h-10 justify-self-start whitespace-normal"
          disabled={busy || support !== 'yes'}
          onClick={enable}
        >
          {busy ? PUSH_CARD_TEXT.enabling : PUSH_CARD_TEXT.enable}
        </Button>
      )}
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      {devices.length === 0 ? (
        publicKey ? (
          <p className="text-sm text-muted-foreground">{PUSH_CARD_TEXT.none}</p>
        ) : null
      ) : (
        <ul className="grid gap-2">
          {devices.map((device) => (
            <li key={device.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
              <span>
                <span className="font-medium">{device.label}</span>
                {device.endpoint === endpoint ? ` · ${PUSH_CARD_TEXT.thisDevice}` : null}
                <span className="block text-muted-foreground">Activadas el {device.since}</span>
              </span>
              <Form method="post" action="/notificaciones/push/dispositivos" onSubmit={() => void forgetHere(device.endpoint)}>
                <input type="hidden" name="intent" value="disable" />
                <input type="hidden" name="subscriptionId" value={device.id} />
                <Button type="submit" variant="outline" size="sm" aria-label={`${PUSH_CARD_TEXT.disable}: ${device.label}`}>
                  {PUSH_CARD_TEXT.disable}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
