import { ArrowLeft, Crown, MessageCircle, ShieldCheck } from 'lucide-react'
import { Form, isRouteErrorResponse, Link, useNavigation, useRouteError } from 'react-router'
import { z } from 'zod'
import { displayName } from '~/features/account/display-name'
import { getProfileByUserId } from '~/features/account/profile.server'
import { AdmissionButton } from '~/features/site/components/admission-button'
import { requireAdmin, requireUser } from '~/features/account/guards.server'
import { can } from '~/platform/auth/capabilities'
import { longDate } from '~/platform/dates'
import { guardedAction, orWhenFailed, refuse } from '~/platform/http/responses.server'
import { refundOffer } from '~/features/billing/refund.server'
import { formatMoney } from '~/features/billing/tax'
import type { Failure } from '~/platform/http/result'
import { logger } from '~/platform/logger.server'
import { ActionStatus } from '~/ui/action-status'
import { GeneralErrorBoundary } from '~/ui/error-boundary'
import { site } from '~/site.config'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { HiddenFields } from '~/ui/hidden-fields'
import { UserAvatar } from '~/ui/user-avatar'
import { Disclosure } from '~/ui/disclosure'
import { lazyPart } from '~/ui/lazy-part'
import { DeletionChoices } from '~/features/account/components/deletion-choices'
import { ReportButton } from '~/features/moderation/components/moderation-controls'
import { memberAction } from './member-action.server'
import { ROLE_NAMES } from './role-names'
import { getUserRoles } from './roles.server'
import type { Route } from './+types/member.route'

// Only admins see the refund card: its form library loads with it, not with every member's page.
const RefundCard = lazyPart(() => import('~/features/billing/components/refund-card').then((module) => module.RefundCard))
import { withBell } from '~/features/notifications/components/notification-bell'
import { hasBlocked } from '~/features/messages/pairs.server'

export const meta: Route.MetaFunction = () => [{ title: `Perfil de Usuario · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const UserIdSchema = z.uuid()

export const handle = withBell

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request)
  const parsedId = UserIdSchema.safeParse(params.userId)
  if (!parsedId.success) refuse(400, 'ID de usuario no válido')
  const userId = parsedId.data
  // Opening another member's profile is a premium feature (spec 001 §6).
  if (userId !== viewer.id && !viewer.hasAccess) refuse(403, 'Acceso Premium Requerido')

  const profile = await getProfileByUserId(userId)
  if (!profile) refuse(404, 'Usuario no encontrado')
  // The admin card (roles, premium, data, deletion), and the work a member keeps to themselves.
  const managesMembers = can(viewer, 'manage-members')
  // Without its roles the profile still shows; the admin card says what is missing.
  const roles = managesMembers
    ? await getUserRoles(userId).catch((error: unknown) => {
        logger.error({ err: error, userId }, 'Loading roles failed')
        return 'failed' as const
      })
    : null
  // The refund card (decisions/0033): admins only; without it the rest of the page still shows.
  const offer = managesMembers
    ? await orWhenFailed<Awaited<ReturnType<typeof refundOffer>> | 'failed'>(refundOffer(userId), 'failed', 'refund offer')
    : null
  return {
    refund:
      offer && offer !== 'failed'
        ? {
            invoiceId: offer.invoice.id,
            number: offer.invoice.number,
            amount: formatMoney(offer.invoice.totalCents, offer.invoice.currency),
            paidOn: longDate(offer.paidAt),
            firstPaidOn: longDate(offer.firstPaidAt),
            withinGuarantee: offer.withinGuarantee,
            refunded: offer.refunded,
          }
        : offer,
    isOwn: userId === viewer.id,
    // 'Bloquear' or 'Desbloquear' beside 'Enviar mensaje' (issue 41).
    blocked: userId === viewer.id ? false : await hasBlocked(viewer.id, userId),
    viewerIsAdmin: managesMembers,
    member: {
      userId,
      name: displayName(profile, 'Usuario sin nombre'),
      avatarUrl: profile.avatarUrl,
      isPremium: profile.isPremium,
      // Kept to themselves (issue 28): shown to them and to admins only.
      company: profile.showsWork || userId === viewer.id || managesMembers ? profile.company : null,
      position: profile.showsWork || userId === viewer.id || managesMembers ? profile.position : null,
      bio: profile.bio,
      memberSince: longDate(profile.createdAt),
    },
    roles,
  }
}

export const action = guardedAction(requireAdmin, (request, admin, { params }: Route.ActionArgs) => {
  const target = UserIdSchema.safeParse(params.userId)
  if (!target.success) refuse(400, 'ID de usuario no válido')
  return memberAction(request, admin, target.data)
})

function BackLink() {
  return (
    <Button asChild variant="ghost" size="sm" className="justify-self-start">
      <Link to="/comunidad/miembros">
        <ArrowLeft aria-hidden /> Volver
      </Link>
    </Button>
  )
}

/** A refused profile (invalid id, no access, unknown member) keeps the page's frame and way back. */
export function ErrorBoundary() {
  const error = useRouteError()
  // A 404 from elsewhere (an unknown route) is the site's 404 page; everything else stays in this frame.
  if (isRouteErrorResponse(error) && error.status === 404 && !(error.data as Partial<Failure> | undefined)?.message) {
    return <GeneralErrorBoundary />
  }
  const refusal = isRouteErrorResponse(error) ? (error.data as Partial<Failure> | undefined) : undefined
  const reasons: Record<number, string> = {
    400: 'El enlace no corresponde a ningún perfil. Revisa la dirección.',
    403: 'Ver los perfiles de otros miembros es parte de la membresía premium.',
    404: 'Es posible que la cuenta se haya eliminado o que el enlace sea incorrecto.',
  }
  const status = isRouteErrorResponse(error) ? error.status : 500
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <BackLink />
      <h1 className="text-3xl font-bold tracking-tight">Perfil de Usuario</h1>
      <Card>
        <CardHeader>
          {/* Spec 000 §8: a profile that could not be loaded says so. */}
          <CardTitle>{refusal?.message?.title ?? 'Error al cargar el perfil'}</CardTitle>
          <CardDescription>{reasons[status] ?? 'Vuelve a intentarlo en unos segundos.'}</CardDescription>
        </CardHeader>
        {status === 403 ? (
          <CardContent>
            <AdmissionButton label="Solicitar Admisión" />
          </CardContent>
        ) : null}
      </Card>
    </div>
  )
}

export default function MemberProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { member, roles, viewerIsAdmin, isOwn, refund, blocked } = loaderData
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <BackLink />
      <h1 className="text-3xl font-bold tracking-tight">Perfil de Usuario</h1>
      <Card>
        <CardContent className="flex flex-col gap-6 pt-6 sm:flex-row">
          <UserAvatar avatarUrl={member.avatarUrl} name={member.name} className="size-28 text-4xl" />
          <div className="grid gap-2">
            <h2 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
              {member.name} {member.isPremium ? <Badge variant="premium">Premium</Badge> : null}
            </h2>
            {member.position || member.company ? (
              <p className="text-muted-foreground">{[member.position, member.company].filter(Boolean).join(' en ')}</p>
            ) : null}
            {member.bio ? <p className="whitespace-pre-line break-words">{member.bio}</p> : null}
            <p className="text-sm text-muted-foreground">Miembro desde {member.memberSince}</p>
            {isOwn ? (
              <Link to="/perfil" className="text-sm text-primary underline-offset-4 hover:underline">
                Editar mi perfil
              </Link>
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <Button asChild size="sm">
                  <Link to={`/mensajes/con/${member.userId}`}>
                    <MessageCircle aria-hidden /> Enviar mensaje
                  </Link>
                </Button>
                <Form method="post" action="/mensajes">
                  <HiddenFields values={{ intent: blocked ? 'unblock' : 'block', memberId: member.userId }} />
                  <Button type="submit" variant="outline" size="sm">
                    {blocked ? 'Desbloquear' : 'Bloquear'}
                  </Button>
                </Form>
                <ReportButton kind="member" itemId={member.userId} />
              </div>
            )}
          </div>
        </CardContent>
      </Card>
      {/* The admin's forms navigate: a refused change comes back here as the action's result. */}
      <ActionStatus result={actionData && !actionData.ok ? actionData : undefined} />
      {viewerIsAdmin && roles ? <AdminControls isPremium={member.isPremium} roles={roles} /> : null}
      {viewerIsAdmin ? (
        <Link to={`/admin/miembros/${member.userId}/cobro`} className="text-sm text-primary underline underline-offset-4">
          Cobro: pausar o reanudar
        </Link>
      ) : null}
      {viewerIsAdmin ? (
        <RefundCard
          offer={refund}
          failure={actionData && !actionData.ok && actionData.submission?.initialValue?.intent === 'refund' ? actionData : undefined}
        />
      ) : null}
      {viewerIsAdmin ? <MemberDataControls /> : null}
    </div>
  )
}

function AdminControls({ isPremium, roles }: { isPremium: boolean; roles: string[] | 'failed' }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5" aria-hidden /> Gestión de roles
        </CardTitle>
        <CardDescription>Solo visible para administradores. Cada cambio queda registrado.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {roles === 'failed' ? (
          <p role="alert" className="text-sm text-destructive">
            Error al cargar los roles del usuario
          </p>
        ) : null}
        <Form method="post" className="flex flex-wrap items-center justify-between gap-3">
          <HiddenFields values={{ intent: 'premium', premium: String(!isPremium) }} />
          <span className="flex items-center gap-2">
            <Crown className="size-4 text-gold" aria-hidden /> Premium: <strong>{isPremium ? 'activo' : 'no'}</strong>
          </span>
          <Button type="submit" variant={isPremium ? 'outline' : 'gold'} size="sm" disabled={busy}>
            {isPremium ? 'Quitar Premium' : 'Activar Premium'}
          </Button>
        </Form>
        {(roles === 'failed' ? [] : (['admin', 'moderator'] as const)).map((role) => {
          const has = roles !== 'failed' && roles.includes(role)
          return (
            <Form key={role} method="post" className="flex flex-wrap items-center justify-between gap-3">
              <HiddenFields values={{ intent: 'role', role, grant: String(!has) }} />
              <span>
                Rol <strong>{ROLE_NAMES[role]}</strong>: {has ? 'asignado' : 'no asignado'}
              </span>
              <Button type="submit" variant="outline" size="sm" disabled={busy}>
                {has ? `Quitar rol ${ROLE_NAMES[role]}` : `Asignar rol ${ROLE_NAMES[role]}`}
              </Button>
            </Form>
          )
        })}
      </CardContent>
    </Card>
  )
}

/** At the member's request (GDPR): a copy of their data, e-mailed to them, and the deletion of their account. Audited. */
function MemberDataControls() {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sus datos</CardTitle>
        <CardDescription>
          Solo a petición del miembro. El enlace de descarga le llega a su email; la eliminación cancela su suscripción y se lo confirma por
          email. Todo queda registrado.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Form method="post">
          <input type="hidden" name="intent" value="export-data" />
          <Button type="submit" variant="outline" size="sm" disabled={busy}>
            Enviarle sus datos
          </Button>
        </Form>
        <Disclosure summary="Eliminar su cuenta" summaryClassName="text-sm font-medium text-destructive hover:underline">
          <Form method="post" className="mt-3 grid gap-4">
            <input type="hidden" name="intent" value="delete-account" />
            <DeletionChoices who="admin" />
            <Button type="submit" variant="destructive" size="sm" disabled={busy} className="justify-self-start">
              Eliminar su cuenta
            </Button>
          </Form>
        </Disclosure>
      </CardContent>
    </Card>
  )
}
