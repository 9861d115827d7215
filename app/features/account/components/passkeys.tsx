import { getFormProps, useForm } from '@conform-to/react'
import { KeyRound } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Form, useFetcher, useNavigation } from 'react-router'
import { formErrors, type Result } from '~/platform/http/result'
import { longDate } from '~/platform/dates'
import { Button } from '~/ui/button'
import { FormError } from '~/ui/field'
import { HiddenFields } from '~/ui/hidden-fields'
import { lazyModule } from '~/ui/lazy-part'
import { Section } from '~/ui/section'
import { useHydrated } from '~/ui/use-hydrated'
import { IdentityFields } from './credential-fields'

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
 * A passkey ceremony from a button or a form: the action's options (and challenge cookie; adding
 * one sends the form's password and code with them), the browser's dialog (@simplewebauthn/browser,
 * loaded on the first click), then the answer to the same action, whose redirect the page follows.
 * Only once the page runs in a browser that has passkeys.
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
  const asked = useRef<HTMLFormElement | null>(null)
  const hydrated = useHydrated()

  useEffect(() => {
    const data = options.data
    if (options.state !== 'idle' || !data || handled.current === data) return
    handled.current = data
    if (!data.ok || !data.passkeyOptions) return
    // The password has done its part: it does not stay in the page.
    asked.current?.reset()
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
  const failure = refused && !refused.ok ? refused : undefined
  return {
    supported: hydrated && typeof window !== 'undefined' && 'PublicKeyCredential' in window,
    busy: options.state !== 'idle' || answer.state !== 'idle' || asking,
    /** The action's refusal of the options or of the answer (a wrong password, a passkey it could not check). */
    failure,
    /** What the browser refused (cancelled, already there), in Spanish. */
    browserError,
    error: browserError ?? failure?.message.title ?? null,
    /** With a form, its fields go with the options' request (its `intent` is 'passkey-options'). */
    start(form?: HTMLFormElement) {
      setBrowserError(null)
      asked.current = form ?? null
      options.submit(form ?? { intent: 'passkey-options' }, { method: 'post', action })
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
      <Button
        type="button"
        variant="outline"
        onClick={() => passkey.start()}
        disabled={passkey.busy}
        className="h-auto min-h-10 whitespace-normal"
      >
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

/**
 * 'Llaves de acceso' in 'Seguridad': the member's passkeys, adding one (with JavaScript), removing
 * any. Adding one asks for the password, and a code when two-factor sign-in is on, as every change
 * to how one signs in does: a passkey signs in without either, so a device left signed in must not
 * be enough to add one.
 */
export function PasskeysSection({ passkeys, twoFactorEnabled }: { passkeys: PasskeyView[]; twoFactorEnabled: boolean }) {
  const passkey = usePasskey({ action: '/perfil', ceremony: 'register' })
  const navigation = useNavigation()
  const removing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'passkey-remove'
  const [form, fields] = useForm<{ password: string; code: string }>({
    id: 'passkey-add',
    lastResult: passkey.busy ? undefined : passkey.failure?.submission,
  })
  const errors = formErrors(form.errors, passkey.failure)
  return (
    <Section id="passkeys" title="Llaves de acceso" heading="h3" titleClassName="font-semibold" className="grid gap-3 border-b pb-5">
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
                <HiddenFields values={{ intent: 'passkey-remove', passkeyId: key.id }} />
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
        <form
          {...getFormProps(form)}
          method="post"
          action="/perfil"
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault()
            passkey.start(event.currentTarget)
          }}
        >
          <input type="hidden" name="intent" value="passkey-options" />
          <p className="text-sm text-muted-foreground">Para añadir una, escribe tu contraseña{twoFactorEnabled ? ' y un código' : ''}.</p>
          <FormError errors={passkey.browserError ? [passkey.browserError] : errors} id={form.errorId} />
          <IdentityFields fields={fields} withCode={twoFactorEnabled} />
          <Button type="submit" variant="outline" disabled={passkey.busy} className="h-auto min-h-10 justify-self-start whitespace-normal">
            <KeyRound aria-hidden /> {passkey.busy ? 'Esperando a la llave de acceso...' : 'Añadir una llave de acceso'}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">Para añadir una llave de acceso hace falta un navegador con JavaScript.</p>
      )}
    </Section>
  )
}
