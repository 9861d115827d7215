import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '~/ui/parse-with-zod'
import { Form, useNavigation } from 'react-router'
import { Button } from '~/ui/button'
import { type Failure, formErrors } from '~/platform/http/result'
import { Field, FormError } from '~/ui/field'
import { ForgotPasswordSchema } from '~/features/account/auth-schemas'

export function ForgotPasswordForm({ action, failure }: { action: string; failure?: Failure }) {
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'forgot'
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult: failure?.submission,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="forgot" />
      <FormError errors={formErrors(form.errors, failure)} id={form.errorId} />
      <Field
        label="Email"
        errors={fields.email.errors}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', placeholder: 'tu@empresa.com' }}
      />
      <Button type="submit" disabled={pending}>
        {pending ? 'Enviando...' : 'Enviar email de recuperación'}
      </Button>
    </Form>
  )
}
