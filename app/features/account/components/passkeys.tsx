import { KeyRound } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Form, useFetcher, useNavigation } from 'react-router'
import type { Result } from '~/platform/http/result'
import { longDate } from '~/platform/dates'
import { Button } from '~/ui/button'
import { lazyModule } from '~/ui/lazy-part'
import { useHydrated } from '~/ui/use-hydrated'

type Options = Result<{ passkeyOptions?: Record<string, unknown> }>

/** The browser side of WebAuthn, loaded on the first click. */
const webAuthn = lazyModule(() => import('@simplewebauthn/browser'))

/** What the browser's refusals mean to a member (DOMException names: cancelled or timed out, already there). */
function browserMessage(error: unknown, ceremony: 'register' | 'sign-in') {
  const name = (error as { name?: string } | null)?.name
  if (name === 'InvalidStateError' && ceremony === 'register') return 'Esta llave de acceso ya está en tu cuenta.'
  if (name === 'NotAllowedError' || name === 'AbortError') return 'Se canceló o caducó la llave de acceso. Vuelve a intentarlo.'
  return 'Este navegador no pudo usar la llave de acceso. Prueba con otro o inicia sesión con tu contraseña.'
}

/**
 * A passkey ceremony from a button: the action's options (and challenge cookie), the browser's
 * dialog (@simplewebauthn/browser, loaded on the first click), then the answer to the same action,
 * whose redirect the page follows. Only once the page runs in a browser that has passkeys.
 */
function usePasskey({
  action,
  ceremony,
  fields = {},
}: {
  action: string
  ceremony: 'register' | 'sign-in'
  fields?: Record<string, string>
}) {
  const options = useFetcher<Options>()
  const answer = useFetcher<Result>()
  const [browserError, setBrowserError] = useState<string | null>(null)
  const [asking, setAsking] = useState(false)
  const handled = useRef<Options | undefined>(undefined)
  const hydrated = useHydrated()

  useEffect(() => {
    const data = options.data
    if (options.state !== 'idle' || !data || handled.current === data) return
    handled.current = data
    if (!data.ok || !data.passkeyOptions) return
    const optionsJSON = data.passkeyOptions
    setAsking(true)
    webAuthn
      .load()
      .then((browser): Promise<object> =>
        ceremony === 'register'
          ? browser.startRegistration({ optionsJSON: optionsJSON as never })
          : browser.startAuthentication({ optionsJSON: optionsJSON as never }),
      )
      .then((response) =>
        answer.submit(
          { intent: ceremony === 'register' ? 'passkey-add' : 'passkey-signin', response: JSON.stringify(response), ...fields },
          { method: 'post', action },
        ),
      )
      .catch((error: unknown) => setBrowserError(browserMessage(error, ceremony)))
      .finally(() => setAsking(false))
  }, [options.state, options.data, answer, action, ceremony, fields])

  const refused = [options.data, answer.data].find((data) => data && !data.ok)
  return {
    supported: hydrated && typeof window !== 'undefined' && 'PublicKeyCredential' in window,
    busy: options.state !== 'idle' || answer.state !== 'idle' || asking,
    error: browserError ?? (refused && !refused.ok ? refused.message.title : null),
    start() {
      setBrowserError(null)
      options.submit({ intent: 'passkey-options' }, { method: 'post', action })
    },
  }
}

function PasskeyError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="text-sm text-destructive">
      {error}
    </p>
  ) : null
}

/** /auth: 'Entrar con una llave de acceso', under the password form. */
export function PasskeySignIn({ redirectTo }: { redirectTo?: string }) {
  const fields = redirectTo ? { redirectTo } : undefined
  const passkey = usePasskey({ action: '/auth', ceremony: 'sign-in', fields })
  if (!passkey.supported) return null
  return (
    <div className="grid gap-2">
      <Button type="button" variant="outline" onClick={passkey.start} disabled={passkey.busy} className="h-auto min-h-10 whitespace-normal">
        <KeyRound aria-hidden /> {passkey.busy ? 'Esperando a la llave de acceso...' : 'Entrar con una llave de acceso'}
      </Button>
      <PasskeyError error={passkey.error} />
    </div>
  )
}

export interface PasskeyView {
  id: string
  name: string | null
  createdAt: string | null
  backedUp: boolean
}

/** 'Llaves de acceso' in 'Seguridad': the member's passkeys, adding one (with JavaScript), removing any. */
export function PasskeysSection({ passkeys }: { passkeys: PasskeyView[] }) {
  const passkey = usePasskey({ action: '/perfil', ceremony: 'register' })
  const navigation = useNavigation()
  const removing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'passkey-remove'
  return (
    <section aria-labelledby="passkeys-title" className="grid gap-3 border-b pb-5">
      <h3 id="passkeys-title" className="font-semibold">
        Llaves de acceso
      </h3>
      <p className="text-sm text-muted-foreground">
        Inicia sesión con la huella, la cara o el PIN de tu dispositivo, sin contraseña ni código. Cada llave queda en el dispositivo (o en
        tu gestor de contraseñas) donde la crees.
      </p>
      {passkeys.length ? (
        <ul className="grid gap-2">
          {passkeys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center gap-3 rounded-md border p-3 text-sm">
              <KeyRound className="size-5 shrink-0 text-muted-foreground" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-medium">{key.name ?? 'Llave de acceso'}</p>
                <p className="text-muted-foreground">
                  {key.createdAt ? `Añadida el ${longDate(key.createdAt)}` : 'Añadida'}
                  {key.backedUp ? ' · Sincronizada' : ''}
                </p>
              </div>
              <Form method="post" action="/perfil" preventScrollReset>
                <input type="hidden" name="intent" value="passkey-remove" />
                <input type="hidden" name="passkeyId" value={key.id} />
                <Button
                  type="submit"
                  variant="outline"
                  size="sm"
                  disabled={removing}
                  aria-label={`Eliminar la llave ${key.name ?? ''}`.trim()}
                >
                  Eliminar
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {passkey.supported ? (
        <Button
          type="button"
          variant="outline"
          onClick={passkey.start}
          disabled={passkey.busy}
          className="h-auto min-h-10 justify-self-start whitespace-normal"
        >
          <KeyRound aria-hidden /> {passkey.busy ? 'Esperando a la llave de acceso...' : 'Añadir una llave de acceso'}
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">Para añadir una llave de acceso hace falta un navegador con JavaScript.</p>
      )}
      <PasskeyError error={passkey.error} />
    </section>
  )
}
