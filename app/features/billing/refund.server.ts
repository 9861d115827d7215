import { and, asc, eq } from 'drizzle-orm'
import { createElement } from 'react'
import { z } from 'zod'
import { profiles } from '~/features/account/schema'
import type { CurrentUser } from '~/features/account/guards.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { longDate } from '~/platform/dates'
import { getEnv } from '~/platform/env.server'
import { refuse } from '~/platform/http/responses.server'
import { blankToUndefined, isCleanText, INVALID_CHARS } from '~/platform/http/text-fields'
import { redirectWithToast } from '~/platform/http/toast.server'
import { enqueueRenderedMail, renderMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { site } from '~/site.config'
import { applySubscriptionState, testSubscriptionsOf } from './billing.server'
import { type InvoiceState, readInvoices } from './invoices.server'
import { GUARANTEE_DAYS, REFUND_MESSAGES, REFUND_REASON_MAX } from './refund-limits'
import { invoices, refunds } from './schema'
import { getStripe, readSubscriptions, type SubscriptionState } from './stripe.server'
import { formatMoney } from './tax'

const DAY_MS = 86_400_000
/** Stripe statuses that still bill or could bill again: a refund ends each of them now. */
const LIVE = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused'])

/** The intent on /usuario/:id (members/member-action.server.ts): the invoice the card showed, and a reason past the guarantee. */
export const RefundIntent = z.object({
  intent: z.literal('refund'),
  invoiceId: z.string().min(1).max(100),
  reason: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(REFUND_REASON_MAX, REFUND_MESSAGES.reasonTooLong)
      .refine((value) => isCleanText(value, { multiline: true }), INVALID_CHARS)
      .optional(),
  ),
})

/**
 * What the admin's card offers for a member (decisions/0033): within 30 days of their first
 * payment, that payment; past them, their latest paid one, with a reason. Null when they never paid.
 */
export async function refundOffer(userId: string, now = new Date()) {
  const paid = await getDb()
    .select({
      id: invoices.id,
      number: invoices.number,
      totalCents: invoices.totalCents,
      refundedCents: invoices.refundedCents,
      currency: invoices.currency,
      paidAt: invoices.paidAt,
      issuedAt: invoices.issuedAt,
      refundStatus: refunds.status,
    })
    .from(invoices)
    .leftJoin(refunds, eq(refunds.invoiceId, invoices.id))
    .where(and(eq(invoices.userId, userId), eq(invoices.status, 'paid')))
    .orderBy(asc(invoices.issuedAt))
    .limit(100)
  const payments = paid.filter((invoice) => invoice.totalCents > 0)
  const first = payments[0]
  if (!first) return null
  const firstPaidAt = first.paidAt ?? first.issuedAt
  const withinGuarantee = now.getTime() - firstPaidAt.getTime() <= GUARANTEE_DAYS * DAY_MS
  const invoice = withinGuarantee ? first : payments.at(-1)!
  return {
    invoice: { id: invoice.id, number: invoice.number, totalCents: invoice.totalCents, currency: invoice.currency },
    paidAt: invoice.paidAt ?? invoice.issuedAt,
    firstPaidAt,
    withinGuarantee,
    // A claim still pending is a refund a failure interrupted after Stripe (whose webhook may have
    // mirrored the invoice as refunded meanwhile): offered again, to be finished and audited.
    refunded: invoice.refundStatus === 'done' || (invoice.refundStatus === null && invoice.refundedCents >= invoice.totalCents),
  }
}

/**
 * The refund itself, Stripe first: a credit note for the whole invoice with `refund_amount` (Stripe
 * refunds the charge and the invoice shows it), then each live subscription cancelled now. The
 * claim on `refunds` comes before (its primary key: two admins at once refund once) and goes
 * again when Stripe refused, so it can be retried; Stripe's idempotency keys make a retry after
 * a lost answer the same refund. Then one transaction: subscriptions, premium and invoices as
 * Stripe now has them (the webhook's code), the refund done, audited, e-mailed — all or nothing.
 * A claim left pending (the database went away after Stripe refunded) is finished by the next
 * attempt: Stripe answers it with the same credit note, and only one attempt marks it done.
 */
export async function refundPayment({
  actorId,
  targetId,
  invoiceId,
  reason,
  now = new Date(),
}: {
  actorId: string
  targetId: string
  invoiceId: string
  reason?: string
  now?: Date
}) {
  const offer = await refundOffer(targetId, now)
  if (!offer) refuse(404, REFUND_MESSAGES.nothing)
  if (offer.invoice.id !== invoiceId) refuse(409, REFUND_MESSAGES.changed)
  if (offer.refunded) refuse(409, REFUND_MESSAGES.already)
  if (!offer.withinGuarantee && !reason) refuse(400, REFUND_MESSAGES.reasonRequired)
  const [member] = await getDb()
    .select({ email: user.email, firstName: profiles.firstName, customerId: invoices.customerId })
    .from(invoices)
    .innerJoin(user, eq(user.id, invoices.userId))
    .leftJoin(profiles, eq(profiles.userId, invoices.userId))
    .where(eq(invoices.id, invoiceId))
  if (!member) refuse(404, REFUND_MESSAGES.nothing)

  // This process's own attempt still running: a double click waits for its answer, not a second call to Stripe.
  if (inFlight.has(invoiceId)) refuse(409, REFUND_MESSAGES.already, { detail: { invoiceId } })
  inFlight.add(invoiceId)
  try {
    return await claimAndRefund({ actorId, targetId, invoiceId, reason, now, offer, member })
  } finally {
    inFlight.delete(invoiceId)
  }
}

const inFlight = new Set<string>()

async function claimAndRefund({
  actorId,
  targetId,
  invoiceId,
  reason,
  now,
  offer,
  member,
}: {
  actorId: string
  targetId: string
  invoiceId: string
  reason?: string
  now: Date
  offer: NonNullable<Awaited<ReturnType<typeof refundOffer>>>
  member: { email: string; firstName: string | null; customerId: string }
}) {
  const { invoice } = offer
  const claimed = await getDb()
    .insert(refunds)
    .values({
      invoiceId,
      userId: targetId,
      amountCents: invoice.totalCents,
      currency: invoice.currency,
      withinGuarantee: offer.withinGuarantee,
      reason: offer.withinGuarantee ? null : (reason ?? null),
    })
    .onConflictDoNothing()
    .returning({ invoiceId: refunds.invoiceId })
  if (claimed.length === 0) {
    const [claim] = await getDb().select({ status: refunds.status }).from(refunds).where(eq(refunds.invoiceId, invoiceId))
    if (claim?.status !== 'pending') refuse(409, REFUND_MESSAGES.already, { detail: { invoiceId } })
  }

  let outcome: { creditNoteId: string; subscriptions: SubscriptionState[]; invoices: InvoiceState[] | undefined }
  try {
    outcome = await refundAtProvider({ userId: targetId, customerId: member.customerId, invoiceId, amountCents: invoice.totalCents, now })
  } catch (error) {
    // Only the attempt that made the claim takes it back: a pending one it resumed may be Stripe's already.
    if (claimed.length > 0) {
      await getDb()
        .delete(refunds)
        .where(and(eq(refunds.invoiceId, invoiceId), eq(refunds.status, 'pending')))
    }
    throw error
  }

  const amount = formatMoney(invoice.totalCents, invoice.currency)
  const mail = await renderMail({
    to: member.email,
    subject: `Te hemos devuelto tu pago de ${amount}`,
    dedupeKey: `refund:${invoiceId}`,
    email: createElement(NoticeEmail, {
      title: 'Te hemos devuelto tu pago',
      firstName: member.firstName,
      paragraphs: [
        `Hemos reembolsado ${amount} de tu pago del ${longDate(offer.paidAt)}${invoice.number ? ` (factura ${invoice.number})` : ''}. Según tu banco, lo verás en tu cuenta en 5 a 10 días.`,
        `Tu membresía de ${site.name} ha terminado y no se te cobrará nada más. La factura rectificativa queda en tu perfil, en «Facturas».`,
        `Si tienes cualquier pregunta, escríbenos a ${site.contactEmail}.`,
      ],
    }),
  })
  await applySubscriptionState({
    customerId: member.customerId,
    subscriptions: outcome.subscriptions,
    invoices: outcome.invoices,
    alsoInTransaction: async (tx) => {
      const done = await tx
        .update(refunds)
        .set({ status: 'done', creditNoteId: outcome.creditNoteId })
        .where(and(eq(refunds.invoiceId, invoiceId), eq(refunds.status, 'pending')))
        .returning({ invoiceId: refunds.invoiceId })
      // Another attempt finished it first: its audit line and e-mail are the only ones.
      if (done.length === 0) refuse(409, REFUND_MESSAGES.already, { detail: { invoiceId } })
      if (!outcome.invoices) {
        // The test checkout has no Stripe to re-read: its invoice says refunded here.
        await tx.update(invoices).set({ refundedCents: invoice.totalCents, updatedAt: new Date() }).where(eq(invoices.id, invoiceId))
      }
      await recordAudit(
        {
          action: 'payment_refunded',
          actorUserId: actorId,
          targetUserId: targetId,
          details: {
            invoiceId,
            creditNoteId: outcome.creditNoteId,
            amountCents: invoice.totalCents,
            currency: invoice.currency,
            withinGuarantee: offer.withinGuarantee,
            ...(offer.withinGuarantee ? {} : { reason }),
          },
        },
        tx,
      )
      await enqueueRenderedMail(mail, tx)
    },
  })
  return { amount }
}

async function refundAtProvider({
  userId,
  customerId,
  invoiceId,
  amountCents,
  now,
}: {
  userId: string
  customerId: string
  invoiceId: string
  amountCents: number
  now: Date
}) {
  if (getEnv().PAYMENTS_PROVIDER !== 'stripe') {
    // The local test checkout: its subscriptions end now, as test-portal.route.tsx ends them.
    const seconds = Math.floor(now.getTime() / 1000)
    const subscriptions = (await testSubscriptionsOf(userId)).map((subscription) => ({
      ...subscription,
      status: 'canceled' as const,
      currentPeriodEnd: null,
      startedAt: Math.floor(subscription.startedAt.getTime() / 1000),
      canceledAt: seconds,
      endedAt: seconds,
    }))
    return { creditNoteId: `test_cn_${invoiceId}`, subscriptions, invoices: undefined }
  }
  const stripe = getStripe()
  const note = await stripe.creditNotes.create(
    {
      invoice: invoiceId,
      amount: amountCents,
      refund_amount: amountCents,
      reason: 'product_unsatisfactory',
      memo: `Reembolso íntegro (garantía de ${GUARANTEE_DAYS} días o decisión de ${site.name})`,
    },
    { idempotencyKey: `refund:${invoiceId}` },
  )
  for (const subscription of await readSubscriptions(customerId)) {
    if (!subscription.id || !LIVE.has(subscription.status)) continue
    await stripe.subscriptions.cancel(subscription.id, { prorate: false }, { idempotencyKey: `refund-cancel:${subscription.id}` })
  }
  return { creditNoteId: note.id, subscriptions: await readSubscriptions(customerId), invoices: await readInvoices(customerId) }
}

/** The 'refund' intent's handler (members/member-action.server.ts). */
export async function refundIntent(admin: CurrentUser, targetId: string, input: z.infer<typeof RefundIntent>) {
  const { amount } = await refundPayment({ actorId: admin.id, targetId, invoiceId: input.invoiceId, reason: input.reason })
  return redirectWithToast(`/usuario/${targetId}`, { type: 'success', title: REFUND_MESSAGES.done, description: `${amount} devueltos` })
}
