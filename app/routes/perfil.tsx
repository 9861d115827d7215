import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Pencil } from 'lucide-react'
import { data, Form, Link, useNavigation } from 'react-router'
import { AvatarUploader } from '~/components/profile/avatar-uploader'
import { IncompleteProfileCard } from '~/components/profile/incomplete-profile-card'
import { PremiumBox } from '~/components/profile/premium-box'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Field, FormError } from '~/components/ui/field'
import { Label } from '~/components/ui/label'
import { saveEmailNotifications, saveProfileFields } from '~/models/profile.server'
import { site } from '~/site.config'
import { getAuth } from '~/utils/auth.server'
import { displayName } from '~/utils/display-name'
import { logger } from '~/utils/logger.server'
import { requireUser } from '~/utils/permissions.server'
import { isProfileComplete } from '~/utils/profile-completeness'
import { ChangePasswordSchema, PROFILE_FORM_FALLBACK_ERROR, ProfileSchema } from '~/utils/profile-schemas'
import { checkRateLimits, clientIp } from '~/utils/rate-limit.server'
import { redirectWithToast } from '~/utils/toast.server'
import { useHydrated } from '~/utils/use-hydrated'
import type { Route } from './+types/perfil'

export const meta: Route.MetaFunction = () => [{ title: `Mi Perfil · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const profile = user.profile
  const editing = new URL(request.url).searchParams.get('editar') === '1'
  return {
    email: user.email,
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
      hasBillingAccount: Boolean(profile?.stripeCustomerId),
    },
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  const formData = await request.formData()
  switch (formData.get('intent')) {
    case 'profile': {
      const submission = parseWithZod(formData, { schema: ProfileSchema })
      if (submission.status !== 'success') {
        const reply = submission.reply()
        const hasFieldErrors = Object.values(reply.error ?? {}).some((errors) => errors?.length)
        return data(
          { intent: 'profile' as const, result: hasFieldErrors ? reply : submission.reply({ formErrors: [PROFILE_FORM_FALLBACK_ERROR] }) },
          { status: 400 },
        )
      }
      try {
        await saveProfileFields(user.id, submission.value)
      } catch (error) {
        logger.error({ err: error, userId: user.id }, 'Profile save failed')
        return data({ intent: 'profile' as const, result: submission.reply({ formErrors: ['Error al guardar el perfil'] }) }, { status: 500 })
      }
      return redirectWithToast('/perfil', { type: 'success', title: 'Perfil actualizado correctamente' })
    }
    case 'notifications': {
      const enabled = formData.get('emailNotifications') === 'on'
      await saveEmailNotifications(user.id, enabled)
      return redirectWithToast('/perfil', {
        type: 'success',
        title: enabled ? 'Notificaciones por email activadas' : 'Notificaciones por email desactivadas',
      })
    }
    case 'password': {
      const submission = parseWithZod(formData, { schema: ChangePasswordSchema })
      const hidden = { hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] }
      if (submission.status !== 'success') return data({ intent: 'password' as const, result: submission.reply(hidden) }, { status: 400 })
      const limited = await checkRateLimits([{ key: `change-password:${user.id}:${clientIp(request)}`, max: 8, windowSeconds: 15 * 60 }])
      if (limited) return data({ intent: 'password' as const, result: submission.reply({ formErrors: [limited.message], ...hidden }) }, { status: 429 })
      try {
        // Other devices are signed out; this one gets a fresh session cookie.
        const { headers } = await getAuth().api.changePassword({
          body: { currentPassword: submission.value.currentPassword, newPassword: submission.value.newPassword, revokeOtherSessions: true },
          headers: request.headers,
          returnHeaders: true,
        })
        const forwarded = new Headers()
        for (const cookie of headers.getSetCookie()) forwarded.append('Set-Cookie', cookie)
        return redirectWithToast('/perfil', { type: 'success', title: 'Contraseña actualizada correctamente' }, { headers: forwarded })
      } catch (error) {
        const code = (error as { body?: { code?: string } }).body?.code
        const message =
          code === 'INVALID_PASSWORD' ? 'La contraseña actual no es correcta' : `Error al actualizar contraseña: ${(error as Error).message}`
        return data({ intent: 'password' as const, result: submission.reply({ formErrors: [message], ...hidden }) }, { status: 400 })
      }
    }
    default:
      throw data('Formulario desconocido', { status: 400 })
  }
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, profile, editing } = loaderData
  const name = displayName(profile, 'Usuario sin nombre')
  const profileResult = actionData?.intent === 'profile' ? actionData.result : undefined
  const passwordResult = actionData?.intent === 'password' ? actionData.result : undefined
  // A refused save keeps the form open with the member's input.
  const showForm = editing || Boolean(profileResult)

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Mi Perfil</h1>
        {profile.isPremium ? <Badge variant="premium">Premium</Badge> : null}
      </div>
      {isProfileComplete(profile) ? null : <IncompleteProfileCard profile={profile} />}

      <Card>
        <CardHeader>
          <CardTitle>Foto de perfil</CardTitle>
          <CardDescription>Una foto profesional ayuda a que otros miembros te reconozcan.</CardDescription>
        </CardHeader>
        <CardContent>
          <AvatarUploader avatarUrl={profile.avatarUrl} email={email} name={name} />
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
            <ProfileForm profile={profile} email={email} lastResult={profileResult} />
          ) : (
            <ProfileDetails profile={profile} email={email} />
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Configuración de la cuenta</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-8">
          <NotificationsForm enabled={profile.emailNotifications} />
          <ChangePasswordForm lastResult={passwordResult} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Membresía</CardTitle>
        </CardHeader>
        <CardContent>
          <PremiumBox isPremium={profile.isPremium} hasBillingAccount={profile.hasBillingAccount} />
        </CardContent>
      </Card>
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

function ProfileForm({ profile, email, lastResult }: { profile: ProfileData; email: string; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'profile'
  const [form, fields] = useForm({
    id: 'profile',
    lastResult,
    defaultValue: {
      firstName: profile.firstName ?? '',
      lastName: profile.lastName ?? '',
      company: profile.company ?? '',
      position: profile.position ?? '',
      bio: profile.bio ?? '',
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const bioErrorId = `${fields.bio.id}-error`
  return (
    <Form method="post" action="/perfil" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="profile" />
      <FormError errors={form.errors} id={form.errorId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Nombre" errors={fields.firstName.errors} inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name' }} />
        <Field label="Apellido" errors={fields.lastName.errors} inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name' }} />
        <Field label="Empresa actual" errors={fields.company.errors} inputProps={{ ...getInputProps(fields.company, { type: 'text' }), autoComplete: 'organization' }} />
        <Field label="Cargo" errors={fields.position.errors} inputProps={{ ...getInputProps(fields.position, { type: 'text' }), autoComplete: 'organization-title' }} />
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

function ChangePasswordForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'password'
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" action="/perfil" className="grid gap-3" {...getFormProps(form)}>
      <h3 className="font-semibold">Cambiar contraseña</h3>
      <input type="hidden" name="intent" value="password" />
      <FormError errors={form.errors} id={form.errorId} />
      <Field
        label="Contraseña actual"
        errors={fields.currentPassword.errors}
        inputProps={{ ...getInputProps(fields.currentPassword, { type: 'password' }), autoComplete: 'current-password' }}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Nueva contraseña" errors={fields.newPassword.errors} inputProps={{ ...getInputProps(fields.newPassword, { type: 'password' }), autoComplete: 'new-password' }} />
        <Field
          label="Confirmar contraseña"
          errors={fields.confirmPassword.errors}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
        />
      </div>
      <Button type="submit" variant="outline" disabled={saving} className="justify-self-start">
        {saving ? 'Guardando...' : 'Cambiar contraseña'}
      </Button>
    </Form>
  )
}
