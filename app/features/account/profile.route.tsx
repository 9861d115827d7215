import { getFormProps, getTextareaProps } from '@conform-to/react'
import { useZodForm } from '~/ui/parse-with-zod'
import { Pencil } from 'lucide-react'
import { Form, Link, useNavigation } from 'react-router'
import { requireUser } from '~/features/account/guards.server'
import { guardedAction, orWhenFailed } from '~/platform/http/responses.server'
import { type Failure, formErrors } from '~/platform/http/result'
import { site } from '~/site.config'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { Field, FormError } from '~/ui/field'
import { Label } from '~/ui/label'
import { PartUnavailable } from '~/ui/error-boundary'
import { useHydrated } from '~/ui/use-hydrated'
import { AvatarUploader } from './components/avatar-uploader'
import { PasswordField } from './components/credential-fields'
import { IncompleteProfileCard } from './components/incomplete-profile-card'
import { PreferencesForm } from '~/features/notifications/components/preferences-form'
import { getPreferences } from '~/features/notifications/preferences.server'
import { topicsFor } from '~/features/notifications/preferences'
import { DataCard } from './components/data-card'
import { DevicesCard } from './components/devices-card'
import { type Enrolment, TwoFactorSection } from './components/two-factor-section'
import { currentSessionToken, listDevices } from './security.server'
import { listPasskeys } from './passkeys.server'
import { PasskeysSection } from './components/passkeys'
import { profileAction } from './profile-action.server'
import { PremiumBox } from './components/premium-box'
import { MembershipNotices } from '~/features/billing/components/membership-notices'
import { membershipOf } from '~/features/billing/lifecycle.server'
import { InvoicesCard } from '~/features/billing/components/invoices-card'
import { listInvoices } from '~/features/billing/invoices.server'
import { formatMoney, invoiceStatusLabel } from '~/features/billing/tax'
import { longDate } from '~/platform/dates'
import { displayName } from './display-name'
import { isProfileComplete } from './profile-completeness'
import { ChangeEmailSchema, ChangePasswordSchema, EMAIL_CHANGE_MESSAGES, ProfileSchema } from './profile-schemas'
import type { Route } from './+types/profile.route'
import { withBell } from '~/features/notifications/components/notification-bell'
import { MessagePreferencesCard } from '~/features/messages/components/message-preferences'
import { PushDevices } from '~/features/push/components/push-devices'
import { clockOf } from '~/features/push/quiet-hours'
import { listDevices as listPushDevices } from '~/features/push/subscriptions.server'
import { getEnv } from '~/platform/env.server'
import { getMessagePreferences } from '~/features/messages/conversations.server'

export const meta: Route.MetaFunction = () => [{ title: `Mi Perfil · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export const handle = withBell

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const profile = user.profile
  const editing = new URL(request.url).searchParams.get('editar') === '1'
  // Each card's own read: one that fails leaves the rest of the page, and that card says so (ADR 0012).
  const [preferences, devices, passkeys, membership, invoices, messagePreferences, pushDevices] = await Promise.all([
    orWhenFailed(getPreferences(user.id), null, 'notification preferences'),
    orWhenFailed(listDevices(user.id, currentSessionToken(request)), null, 'devices'),
    orWhenFailed(listPasskeys(user.id), null, 'passkeys'),
    orWhenFailed(membershipOf(user.id), null, 'membership'),
    orWhenFailed(listInvoices(user.id), null, 'invoices'),
    orWhenFailed(getMessagePreferences(user.id), null, 'message preferences'),
    orWhenFailed(listPushDevices(user.id), null, 'push devices'),
  ])
  return {
    // 'Facturas' (decisions/0033): Stripe's PDF, or our printable page for the test checkout's.
    invoices:
      invoices?.map((invoice) => ({
        id: invoice.id,
        number: invoice.number ?? 'Sin número',
        date: longDate(invoice.issuedAt),
        amount: formatMoney(invoice.totalCents, invoice.currency),
        status: invoiceStatusLabel(invoice),
        reverseCharge: invoice.reverseCharge,
        href: invoice.pdfUrl ?? `/perfil/facturas/${invoice.id}`,
        external: Boolean(invoice.pdfUrl),
      })) ?? null,
    preferences: preferences && preferencesFor(user, preferences),
    messagePreferences,
    push: pushDevices && {
      publicKey: getEnv().vapid?.publicKey ?? null,
      devices: pushDevices.map((device) => ({
        id: device.id,
        endpoint: device.endpoint,
        label: device.deviceLabel,
        since: longDate(device.createdAt),
      })),
    },
    email: user.email,
    roles: user.roles,
    twoFactorEnabled: user.twoFactorEnabled,
    mustEnrolTwoFactor: user.mustEnrolTwoFactor,
    devices,
    membership,
    passkeys: passkeys?.map((key) => ({ ...key, createdAt: key.createdAt?.toISOString() ?? null })) ?? null,
    // Back from the link that confirmed a new address (better-auth's callback).
    emailChanged: new URL(request.url).searchParams.get('email') === 'cambiado',
    editing,
    profile: {
      firstName: profile?.firstName ?? null,
      lastName: profile?.lastName ?? null,
      displayName: profile?.displayName ?? null,
      company: profile?.company ?? null,
      position: profile?.position ?? null,
      bio: profile?.bio ?? null,
      avatarUrl: profile?.avatarUrl ?? null,
      isPremium: profile?.isPremium ?? false,
      emailNotifications: profile?.emailNotifications ?? true,
      listedInDirectory: profile?.listedInDirectory ?? true,
      showsWork: profile?.showsWork ?? true,
      hasBillingAccount: Boolean(profile?.stripeCustomerId),
      premiumByAdmin: profile?.premiumSource === 'admin',
    },
  }
}

export const action = guardedAction(requireUser, profileAction)

/** Only the topics this member sets (an admin's own, new applications, only to admins). */
function preferencesFor(
  user: Parameters<typeof topicsFor>[0],
  { digest, timeZone, quietStart, quietEnd, ...channels }: Awaited<ReturnType<typeof getPreferences>>,
) {
  const topics = Object.fromEntries(topicsFor(user).map(({ key }) => [key, channels[key]])) as Partial<typeof channels>
  return { topics, digest, timeZone, quietStart: clockOf(quietStart), quietEnd: clockOf(quietEnd) }
}

/** What each card of the page says when its part could not be loaded. */
export const PROFILE_PART_FAILED = {
  preferences: 'No se pudieron cargar tus preferencias de notificación',
  devices: 'No se pudieron cargar los dispositivos con sesión iniciada',
  passkeys: 'No se pudieron cargar tus llaves de acceso',
  messages: 'No se pudieron cargar tus preferencias de mensajes',
  push: 'No se pudieron cargar tus dispositivos con notificaciones push',
} as const

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, profile, editing, preferences } = loaderData
  // A failure belongs to the form that posted it.
  const failure = actionData && !actionData.ok ? actionData : undefined
  const submitted = failure?.submission?.initialValue?.intent
  const profileResult = submitted === 'profile' ? failure : undefined
  const passwordResult = submitted === 'password' ? failure : undefined
  const emailResult = submitted === 'email' ? failure : undefined
  const devicesResult = submitted === 'close-device' || submitted === 'close-other-devices' ? failure : undefined
  const dataResult = submitted === 'export-data' ? failure : undefined
  const deletionResult = submitted === 'delete-account' ? failure : undefined
  const twoFactorResult = typeof submitted === 'string' && submitted.startsWith('two-factor') ? failure : undefined
  // The enrolment: the first step's answer, or back with a refused code (the form sent it along).
  const sent = twoFactorResult?.submission?.initialValue as Partial<Enrolment> | undefined
  const enrolment: Enrolment | undefined =
    actionData?.ok && 'enrolment' in actionData
      ? actionData.enrolment
      : submitted === 'two-factor-confirm' && sent?.totpURI && sent.qr && sent.backupCodes
        ? { totpURI: sent.totpURI, qr: sent.qr, backupCodes: sent.backupCodes }
        : undefined
  // A refused save keeps the form open with the member's input.
  const showForm = editing || Boolean(profileResult)

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Mi Perfil</h1>
        {profile.isPremium ? <Badge variant="premium">Premium</Badge> : null}
      </div>
      {loaderData.emailChanged ? (
        <ActionStatus result={{ ok: true, message: { type: 'success', title: `${EMAIL_CHANGE_MESSAGES.changed}: ${email}` } }} />
      ) : null}
      {/* Without JavaScript the photo form posts the page: its answer is shown here. */}
      <ActionStatus result={actionData?.ok || submitted === 'avatar' ? actionData : undefined} />
      {isProfileComplete(profile) ? null : <IncompleteProfileCard profile={profile} />}

      <Card>
        <CardHeader>
          <CardTitle>Foto de perfil</CardTitle>
          <CardDescription>Una foto profesional ayuda a que otros miembros te reconozcan.</CardDescription>
        </CardHeader>
        <CardContent>
          <AvatarUploader avatarUrl={profile.avatarUrl} name={displayName(profile, email)} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Información personal</CardTitle>
            <CardDescription>Así te verán los demás miembros.</CardDescription>
          </div>
          {showForm ? null : (
            <Button asChild variant="outline" size="sm">
              <Link to="/perfil?editar=1" preventScrollReset>
                <Pencil aria-hidden /> Editar
              </Link>
            </Button>
          )}
        </CardHeader>
        <CardContent>
          {showForm ? (
            <ProfileForm profile={profile} email={email} failure={profileResult} />
          ) : (
            <ProfileDetails profile={profile} email={email} />
          )}
          <DirectoryPrivacyForm listed={profile.listedInDirectory} showsWork={profile.showsWork} />
        </CardContent>
      </Card>

      <Card id="notificaciones" className="scroll-mt-20">
        <CardHeader>
          <CardTitle>Notificaciones</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-6">
          <NotificationsForm enabled={profile.emailNotifications} />
          {loaderData.push ? <PushDevices {...loaderData.push} /> : <PartUnavailable failed={PROFILE_PART_FAILED.push} inCard />}
          {preferences ? (
            <PreferencesForm preferences={preferences} emailOn={profile.emailNotifications} roles={loaderData.roles} />
          ) : (
            <PartUnavailable failed={PROFILE_PART_FAILED.preferences} inCard />
          )}
        </CardContent>
      </Card>

      {loaderData.messagePreferences ? (
        <MessagePreferencesCard preferences={loaderData.messagePreferences} />
      ) : (
        <PartUnavailable failed={PROFILE_PART_FAILED.messages} />
      )}

      <Card>
        <CardHeader>
          <CardTitle>Configuración de la cuenta</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-8">
          <ChangePasswordForm failure={passwordResult} />
          <ChangeEmailForm email={email} failure={emailResult} />
        </CardContent>
      </Card>

      <DevicesCard devices={loaderData.devices} failed={PROFILE_PART_FAILED.devices} failure={devicesResult}>
        <TwoFactorSection
          enabled={loaderData.twoFactorEnabled}
          required={loaderData.mustEnrolTwoFactor}
          enrolment={enrolment}
          failure={twoFactorResult}
        />
        {loaderData.passkeys ? (
          <PasskeysSection passkeys={loaderData.passkeys} twoFactorEnabled={loaderData.twoFactorEnabled} />
        ) : (
          <PartUnavailable failed={PROFILE_PART_FAILED.passkeys} inCard />
        )}
      </DevicesCard>

      <DataCard failure={dataResult} deletionFailure={deletionResult} twoFactorEnabled={loaderData.twoFactorEnabled} />

      <Card>
        <CardHeader>
          <CardTitle>Membresía</CardTitle>
        </CardHeader>
        <CardContent>
          <PremiumBox isPremium={profile.isPremium} hasBillingAccount={profile.hasBillingAccount} grantedByAdmin={profile.premiumByAdmin} />
          <MembershipNotices membership={loaderData.membership} />
        </CardContent>
      </Card>
      {profile.hasBillingAccount || loaderData.invoices?.length !== 0 ? (
        <InvoicesCard invoices={loaderData.invoices} hasBillingAccount={profile.hasBillingAccount} />
      ) : null}
    </div>
  )
}

type ProfileData = Route.ComponentProps['loaderData']['profile']

function ProfileDetails({ profile, email }: { profile: ProfileData; email: string }) {
  const rows: Array<[string, string | null]> = [
    ['Nombre', profile.firstName],
    ['Apellido', profile.lastName],
    ['Email', email],
    ['Empresa', profile.company],
    ['Cargo', profile.position],
  ]
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
          <dd className="break-words">{value || <span className="text-muted-foreground">Sin completar</span>}</dd>
        </div>
      ))}
      <div className="sm:col-span-2">
        <dt className="text-sm font-medium text-muted-foreground">Biografía</dt>
        <dd className="whitespace-pre-line break-words">{profile.bio || <span className="text-muted-foreground">Sin completar</span>}</dd>
      </div>
    </dl>
  )
}

function ProfileForm({ profile, email, failure }: { profile: ProfileData; email: string; failure?: Failure }) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'profile'
  const [form, fields] = useZodForm(ProfileSchema, {
    id: 'profile',
    failure,
    defaultValue: {
      firstName: profile.firstName ?? '',
      lastName: profile.lastName ?? '',
      company: profile.company ?? '',
      position: profile.position ?? '',
      bio: profile.bio ?? '',
    },
    shouldValidate: 'onBlur',
  })
  const bioErrorId = `${fields.bio.id}-error`
  return (
    <Form method="post" action="/perfil" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="profile" />
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Nombre" field={fields.firstName} autoComplete="given-name" />
        <Field label="Apellido" field={fields.lastName} autoComplete="family-name" />
        <Field label="Empresa actual" field={fields.company} autoComplete="organization" />
        <Field label="Cargo" field={fields.position} autoComplete="organization-title" />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="profile-email">Email</Label>
        <input id="profile-email" value={email} readOnly className="h-10 rounded-md border bg-muted px-3 text-sm text-muted-foreground" />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={fields.bio.id}>Biografía</Label>
        <textarea
          {...getTextareaProps(fields.bio)}
          rows={5}
          aria-invalid={fields.bio.errors ? true : undefined}
          aria-describedby={fields.bio.errors ? bioErrorId : undefined}
          className="rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive md:text-sm"
        />
        <p id={bioErrorId} className="min-h-5 text-sm text-destructive" role={fields.bio.errors ? 'alert' : undefined}>
          {fields.bio.errors?.[0]}
        </p>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? 'Guardando...' : 'Guardar'}
        </Button>
        <Button asChild variant="ghost">
          <Link to="/perfil" preventScrollReset>
            Cancelar
          </Link>
        </Button>
      </div>
    </Form>
  )
}

function NotificationsForm({ enabled }: { enabled: boolean }) {
  // With JavaScript the switch saves on change; without it, the button submits.
  const hydrated = useHydrated()
  return (
    <Form method="post" action="/perfil" className="flex flex-wrap items-center justify-between gap-3">
      <input type="hidden" name="intent" value="notifications" />
      <label className="flex items-center gap-3 text-sm">
        <input
          type="checkbox"
          name="emailNotifications"
          defaultChecked={enabled}
          className="size-4 accent-primary"
          onChange={(event) => event.currentTarget.form?.requestSubmit()}
        />
        Recibir notificaciones por email
      </label>
      {hydrated ? null : (
        <Button type="submit" variant="outline" size="sm">
          Guardar preferencia
        </Button>
      )}
    </Form>
  )
}

/** Issue 28: whether the member is in the directory, and whether other members see their company and position. */
function DirectoryPrivacyForm({ listed, showsWork }: { listed: boolean; showsWork: boolean }) {
  return (
    <Form method="post" action="/perfil" className="mt-4 grid gap-3 border-t pt-5" preventScrollReset>
      <input type="hidden" name="intent" value="privacy" />
      <h3 className="font-semibold">Privacidad</h3>
      <label className="flex items-start gap-3 text-sm">
        <input type="checkbox" name="listedInDirectory" defaultChecked={listed} className="mt-0.5 size-4 shrink-0 accent-primary" />
        Aparecer en el directorio de miembros
      </label>
      <label className="flex items-start gap-3 text-sm">
        <input type="checkbox" name="showsWork" defaultChecked={showsWork} className="mt-0.5 size-4 shrink-0 accent-primary" />
        Mostrar a los demás miembros dónde trabajo y mi puesto
      </label>
      <Button type="submit" variant="outline" size="sm" className="justify-self-start">
        Guardar privacidad
      </Button>
    </Form>
  )
}

function ChangeEmailForm({ email, failure }: { email: string; failure?: Failure }) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'email'
  const [form, fields] = useZodForm(ChangeEmailSchema, { id: 'change-email', failure })
  return (
    <Form method="post" action="/perfil" className="grid gap-3 border-t pt-6" {...getFormProps(form)}>
      <h3 className="font-semibold">Cambiar email</h3>
      <p className="text-sm text-muted-foreground">
        Ahora usas <span className="font-medium text-foreground [overflow-wrap:anywhere]">{email}</span>. Te enviaremos un enlace al nuevo
        email para confirmarlo, y avisaremos al actual.
      </p>
      <input type="hidden" name="intent" value="email" />
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Nuevo email" field={fields.newEmail} type="email" autoComplete="email" />
        <PasswordField label="Contraseña actual" field={fields.currentPassword} current />
      </div>
      <Button type="submit" variant="outline" disabled={saving} className="justify-self-start">
        {saving ? 'Enviando...' : 'Cambiar email'}
      </Button>
    </Form>
  )
}

function ChangePasswordForm({ failure }: { failure?: Failure }) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'password'
  const [form, fields] = useZodForm(ChangePasswordSchema, { id: 'change-password', failure })
  return (
    <Form method="post" action="/perfil" className="grid gap-3" {...getFormProps(form)}>
      <h3 className="font-semibold">Cambiar contraseña</h3>
      <input type="hidden" name="intent" value="password" />
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <PasswordField label="Contraseña actual" field={fields.currentPassword} current />
      <div className="grid gap-3 sm:grid-cols-2">
        <PasswordField label="Nueva contraseña" field={fields.newPassword} />
        <PasswordField label="Confirmar contraseña" field={fields.confirmPassword} />
      </div>
      <Button type="submit" variant="outline" disabled={saving} className="justify-self-start">
        {saving ? 'Guardando...' : 'Cambiar contraseña'}
      </Button>
    </Form>
  )
}
