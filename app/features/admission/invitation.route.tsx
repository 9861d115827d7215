import { data, Form, Link } from 'react-router'
import { getCurrentUser } from '~/features/account/guards.server'
import { site } from '~/site.config'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '~/ui/card'
import { HiddenFields } from '~/ui/hidden-fields'
import { openInvitation } from './admission.server'
import { ADMISSION_MESSAGES } from './limits'
import type { Route } from './+types/invitation.route'

export const meta: Route.MetaFunction = () => [{ title: `Tu invitación · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const REFUSED = {
  invalid: { status: 404, message: ADMISSION_MESSAGES.invitationInvalid },
  expired: { status: 410, message: ADMISSION_MESSAGES.invitationExpired },
  used: { status: 409, message: ADMISSION_MESSAGES.invitationUsed },
  'other-email': { status: 403, message: ADMISSION_MESSAGES.invitationOtherEmail },
} as const

/** The approved applicant's way in: create the account (or sign in) with the invited e-mail, then choose a plan. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const view = await openInvitation(params.token, await getCurrentUser(request))
  if (view.state in REFUSED) {
    const refused = REFUSED[view.state as keyof typeof REFUSED]
    return data({ ...view, message: refused.message }, { status: refused.status })
  }
  return view
}

export default function InvitationPage({ loaderData: view, params }: Route.ComponentProps) {
  const here = `/admision/invitacion/${params.token}`
  return (
    <div className="mx-auto grid w-full max-w-2xl gap-6 px-4 py-10 sm:py-16">
      {'message' in view ? (
        <Card>
          <CardHeader>
            <h1 className="text-2xl font-semibold leading-tight">{view.message}</h1>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-3">
            {view.state === 'other-email' ? (
              <Form method="post" action="/logout">
                <HiddenFields values={{ intent: 'logout', redirectTo: here }} />
                <Button type="submit">Cerrar sesión</Button>
              </Form>
            ) : (
              <Button asChild variant="outline">
                <Link to="/">Volver al inicio</Link>
              </Button>
            )}
          </CardContent>
        </Card>
      ) : view.state === 'ready' ? (
        <>
          <div className="text-center">
            <h1 className="text-3xl font-bold tracking-tight text-navy">Bienvenido, {view.firstName}</h1>
            <p className="mt-3 text-muted-foreground">
              {view.isPremium
                ? 'Ya eres miembro premium: la comunidad te espera.'
                : 'Tu solicitud está aprobada. Elige tu plan, mensual o anual, para entrar en la comunidad.'}
            </p>
          </div>
          {/* The prices page has the plans and the checkout (sharing its card here would split the landing's chunks). */}
          <Button asChild size="lg" className="justify-self-center">
            {view.isPremium ? <Link to="/comunidad">Entrar en la comunidad</Link> : <Link to="/pricing">Elegir mi plan</Link>}
          </Button>
        </>
      ) : view.state === 'sign-in' || view.state === 'sign-up' ? (
        <Card>
          <CardHeader>
            <h1 className="text-2xl font-semibold leading-tight">Tu invitación a {site.name}</h1>
            <CardDescription>
              {view.state === 'sign-up'
                ? `Crea tu cuenta con ${view.email}, la dirección invitada. Después eliges tu plan.`
                : `Ya tienes una cuenta con ${view.email}: inicia sesión para elegir tu plan.`}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              {view.state === 'sign-up' ? (
                <Link to={`/auth?${new URLSearchParams({ tab: 'registro', invitacion: view.token })}`}>Crear mi cuenta</Link>
              ) : (
                <Link to={`/auth?${new URLSearchParams({ redirectTo: here })}`} state={{ email: view.email }}>
                  Iniciar sesión
                </Link>
              )}
            </Button>
          </CardContent>
        </Card>
      ) : null}
    </div>
  )
}
