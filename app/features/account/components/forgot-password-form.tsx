import { getFormProps } from '@conform-to/react'
import { useZodForm } from '~/ui/parse-with-zod'
import { Form, useNavigation } from 'react-router'
import { Button } from '~/ui/button'
import { type Failure, formErrors } from '~/platform/http/result'
import { FormError } from '~/ui/field'
import { ForgotPasswordSchema } from '~/features/account/auth-schemas'
import { EmailField } from './credential-fields'

export function ForgotPasswordForm({ action, failure }: { action: string; failure?: Failure }) {
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'forgot'
  const [form, fields] = useZodForm(ForgotPasswordSchema, { id: 'forgot-password', failure })
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="forgot" />
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <EmailField field={fields.email} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Enviando...' : 'Enviar email de recuperación'}
      </Button>
    </Form>
  )
}
