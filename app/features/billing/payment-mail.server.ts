import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob } from '~/platform/jobs/jobs.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { site } from '~/site.config'

/** The e-mails of a failed renewal: the first failure of an invoice, and premium lost when Stripe gives up. */
export const PAYMENT_MAILS = {
  failed: {
    subject: 'No hemos podido cobrar tu cuota',
    title: 'No hemos podido cobrar tu cuota',
    paragraphs: [
      'Tu banco ha rechazado el cobro de tu membresía. Volveremos a intentarlo automáticamente en los próximos días y, mientras tanto, conservas tu acceso premium.',
      'Para que el próximo intento salga bien, actualiza tu método de pago desde tu perfil.',
    ],
    button: 'Actualizar método de pago',
  },
  lost: {
    subject: 'Tu acceso premium se ha detenido',
    title: 'Tu acceso premium se ha detenido',
    paragraphs: [
      'No hemos podido cobrar tu cuota después de varios intentos, así que tu acceso premium se ha detenido.',
      'Tu cuenta y todo lo que has publicado siguen ahí: en cuanto actualices tu método de pago y se cobre la cuota, recuperarás el acceso al momento.',
    ],
    button: 'Actualizar método de pago',
  },
} as const

export type PaymentMailKind = keyof typeof PAYMENT_MAILS

/**
 * Queued by the webhook's transaction (so it exists only if the state it describes committed; its
 * dedupe key is the invoice), rendered here, outside any transaction. The link leads to /perfil,
 * whose 'Actualizar método de pago' opens the billing portal: a portal session's own link expires
 * within minutes, an e-mail may be read days later.
 */
export const paymentMailJob = defineJob<{ userId: string; kind: PaymentMailKind }>({
  name: 'billing.payment-mail',
  label: 'Aviso de un cobro fallido',
  async run({ userId, kind }) {
    const [account] = await getDb().select({ email: user.email, firstName: user.firstName }).from(user).where(eq(user.id, userId))
    if (!account) return
    const mail = PAYMENT_MAILS[kind]
    await enqueueMail({
      to: account.email,
      subject: `${mail.subject} · ${site.name}`,
      email: createElement(NoticeEmail, {
        title: mail.title,
        firstName: account.firstName,
        paragraphs: [...mail.paragraphs],
        button: { label: mail.button, url: `${getEnv().APP_URL}/perfil#membresia` },
      }),
    })
  },
})
