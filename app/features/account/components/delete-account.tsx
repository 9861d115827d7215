import { getFormProps, useForm } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { formErrors, type Failure } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { FormError } from '~/ui/field'
import { Section } from '~/ui/section'
import { IdentityFields } from './credential-fields'
import { DeletionChoices } from './deletion-choices'

/** 'Eliminar mi cuenta' in 'Tus datos': the password, a code when two-factor sign-in is on, and the choices. */
export function DeleteAccountSection({ twoFactorEnabled, failure }: { twoFactorEnabled: boolean; failure?: Failure }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete-account'
  const [form, fields] = useForm<{ password: string; code: string }>({
    id: 'delete-account',
    lastResult: busy ? undefined : failure?.submission,
  })
  return (
    <Section
      id="delete-account"
      title="Eliminar mi cuenta"
      heading="h3"
      titleClassName="font-semibold"
      className="grid gap-3 border-t pt-5"
    >
      <p className="text-sm text-muted-foreground">
        Cancelamos tu suscripción si la tienes, dejamos libre tu plaza en los eventos y borramos tu perfil, tu foto, tus likes, tus
        inscripciones y tus notificaciones. Te lo confirmaremos por email.
      </p>
      <Form method="post" action="/perfil" preventScrollReset className="grid gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="delete-account" />
        <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
        <DeletionChoices who="self" />
        <IdentityFields fields={fields} withCode={twoFactorEnabled} />
        <Button type="submit" variant="destructive" disabled={busy} className="justify-self-start">
          {busy ? 'Eliminando...' : 'Eliminar mi cuenta'}
        </Button>
      </Form>
    </Section>
  )
}
