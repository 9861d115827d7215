import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { Field, FormError } from '~/components/ui/field'
import { ForgotPasswordSchema } from '~/utils/auth-schemas'

export function ForgotPasswordForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'forgot'
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="forgot" />
      <FormError errors={form.errors} id={form.errorId} />
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
