import { and, eq, inArray, isNull } from 'drizzle-orm'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { profiles } from '~/features/account/schema'
import { ensureProfile } from '~/features/account/profile.server'
import { stripeEvents, subscriptions as subscriptionsTable, testCheckoutSessions } from './schema'
import { user } from '~/platform/auth/schema'
import { getEnv } from '~/platform/env.server'
import { enqueue } from '~/platform/jobs/jobs.server'
import { type InvoiceState, keepInvoices } from './invoices.server'
import { paymentMailJob } from './payment-mail.server'
import { getStripe, grantsPremium, type Plan, priceIdFor, readSubscriptions, type SubscriptionState, taxParams } from './stripe.server'
import { TAX_WORDING } from './tax'

/** The member's Stripe customer, created on first checkout and kept on the profile. */
async function ensureStripeCustomer(userId: string) {
  const db = getDb()
  const [row] = await db
    .select({ customerId: profiles.stripeCustomerId, email: user.email })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId))
  if (!row) throw new Error('Unknown user')
  if (row.customerId) return row.customerId
  const customer = await getStripe().customers.create({ email: row.email, metadata: { userId } }, { idempotencyKey: `customer-${userId}` })
  // Only the first writer wins; a parallel checkout reuses what was stored.
  await db
    .update(profiles)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(profiles.userId, userId), isNull(profiles.stripeCustomerId)))
  const [stored] = await db.select({ customerId: profiles.stripeCustomerId }).from(profiles).where(eq(profiles.userId, userId))
  return stored?.customerId ?? customer.id
}

/** Where the pricing button sends the member: Stripe Checkout, or the local test checkout. */
export async function startCheckout(userId: string, plan: Plan) {
  const env = getEnv()
  if (env.PAYMENTS_PROVIDER === 'test') {
    const id = `test_cs_${crypto.randomUUID()}`
    await getDb().insert(testCheckoutSessions).values({ id, userId, plan })
    return `/billing/test-checkout?session=${id}`
  }
  if (env.PAYMENTS_PROVIDER !== 'stripe') return null
  const customer = await ensureStripeCustomer(userId)
  const session = await getStripe().checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: userId,
    line_items: [{ price: priceIdFor(plan), quantity: 1, ...taxParams().lineItem }],
    locale: 'es',
    // Invoices name the buyer (RD 1619/2012): the address always, a company's tax id when it has one,
    // written onto the customer so every renewal's invoice carries them too.
    billing_address_collection: 'required',
    tax_id_collection: { enabled: true },
    customer_update: { name: 'auto', address: 'auto' },
    // Stripe's page says it too, above the pay button.
    custom_text: { submit: { message: TAX_WORDING.priceNote } },
    ...taxParams().session,
    allow_promotion_codes: true,
    metadata: { userId, plan },
    subscription_data: { metadata: { userId } },
    success_url: `${env.APP_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${env.APP_URL}/canceled`,
  })
  if (!session.url) throw new Error('Stripe returned a checkout session without a URL')
  return session.url
}

export async function startBillingPortal(customerId: string) {
  const env = getEnv()
  if (env.PAYMENTS_PROVIDER === 'test') return '/billing/test-portal'
  if (env.PAYMENTS_PROVIDER !== 'stripe') return null
  const portal = await getStripe().billingPortal.sessions.create({ customer: customerId, return_url: `${env.APP_URL}/perfil` })
  return portal.url
}

/**
 * Sets premium from the subscriptions' current state, for the profile that owns the
 * customer (linking it first when the checkout names the user). Used by the Stripe
 * webhook and by the test checkout alike, so both run the same activation code.
 * Returns the premium value it wrote, or null when no profile matches.
 */
export async function applySubscriptionState({
  claim,
  alsoInTransaction,
  ...state
}: SubscriptionStateChange & {
  /**
   * What the caller takes in the same transaction before anything is written (the test checkout:
   * its session, and the last use of a code); it refuses by throwing, and nothing is written.
   */
  claim?: (tx: DbExecutor) => Promise<void>
  /**
   * What the caller records with the new state (a refund done, a pause, their audit lines): in the
   * same transaction, so the database never holds the one without the other.
   */
  alsoInTransaction?: (tx: DbExecutor) => Promise<void>
}) {
  return getDb().transaction(async (tx) => {
    await claim?.(tx)
    const outcome = await writeSubscriptionState(tx, state)
    if (outcome !== 'duplicate') await alsoInTransaction?.(tx)
    return outcome
  })
}

interface SubscriptionStateChange {
  customerId: string
  userId?: string | null
  subscriptions: SubscriptionState[]
  eventId?: string
  eventType?: string
  /** The customer's invoices, re-read with the subscriptions (or the test checkout's): kept in the same transaction. */
  invoices?: InvoiceState[]
}

async function writeSubscriptionState(
  tx: DbExecutor,
  { customerId, userId, subscriptions, eventId, eventType, invoices }: SubscriptionStateChange,
) {
  const premium = grantsPremium(subscriptions)
  if (eventId) {
    const fresh = await tx
      .insert(stripeEvents)
      .values({ id: eventId, type: eventType ?? 'unknown' })
      .onConflictDoNothing()
      .returning()
    if (fresh.length === 0) return 'duplicate' as const
  }
  const ownerOf = () =>
    tx
      .select({ userId: profiles.userId, isPremium: profiles.isPremium, premiumSource: profiles.premiumSource })
      .from(profiles)
      .where(eq(profiles.stripeCustomerId, customerId))
      .for('update')
  let [profile] = await ownerOf()
  // A customer already linked stays with its member: a checkout naming someone else cannot move it.
  if (!profile && userId) {
    // The profile is normally made at the first confirmed sign-in; should that have failed,
    // a paid checkout still finds a row to activate instead of being acknowledged and lost.
    await ensureProfile(tx, userId)
    await tx
      .update(profiles)
      .set({ stripeCustomerId: customerId })
      .where(and(eq(profiles.userId, userId), isNull(profiles.stripeCustomerId)))
    ;[profile] = await ownerOf()
  }
  if (!profile) return null
  const { failingInvoices, failedBefore } = await keepSubscriptions(tx, profile.userId, customerId, subscriptions)
  // One e-mail per failing invoice, whichever event told us first and however often Stripe retries.
  for (const invoiceId of failingInvoices) {
    await enqueue(paymentMailJob, { userId: profile.userId, kind: 'failed' }, { executor: tx, dedupeKey: `failed:${invoiceId}` })
  }
  if (invoices) await keepInvoices(tx, profile.userId, customerId, invoices)
  // Premium an admin granted is the admin's to take back: a subscription ending does not.
  if (!premium && profile.premiumSource === 'admin') return profile.isPremium
  if (profile.isPremium && !premium && failedBefore) {
    // Stripe gave up on the invoice (or the grace period ran out): the member is told why access went.
    await enqueue(paymentMailJob, { userId: profile.userId, kind: 'lost' }, { executor: tx, dedupeKey: `lost:${failedBefore}` })
  }
  if (profile.isPremium !== premium) {
    await tx
      .update(profiles)
      .set({ isPremium: premium, premiumSource: premium ? (profile.premiumSource ?? 'subscription') : null })
      .where(eq(profiles.userId, profile.userId))
    await recordAudit(
      {
        action: premium ? 'premium_granted' : 'premium_removed',
        targetUserId: profile.userId,
        details: { source: eventId ? 'stripe' : 'test-checkout', customerId, eventId, statuses: subscriptions.map((s) => s.status) },
      },
      tx,
    )
  }
  return premium
}

const dateOf = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null)

/** Stripe statuses of a renewal that failed: retried (past_due) or given up without cancelling (unpaid). */
const FAILING = new Set(['past_due', 'unpaid'])

/**
 * Each subscription as Stripe now describes it, rewritten whole, with the premium it decides. What
 * the events do not describe stays: when a payment first failed, the invoice the member was told
 * about, the promotion code once its discount has run out, and the member's reason to cancel.
 * Returns the failing invoices not yet e-mailed about, and the failing invoice of a subscription
 * that was failing before this event (what a loss of premium now is explained by).
 */
async function keepSubscriptions(tx: DbExecutor, userId: string, customerId: string, states: SubscriptionState[]) {
  const ids = states.flatMap((state) => (state.id ? [state.id] : []))
  const before = new Map(
    (ids.length
      ? await tx
          .select({
            id: subscriptionsTable.id,
            paymentFailedAt: subscriptionsTable.paymentFailedAt,
            failingInvoiceId: subscriptionsTable.failingInvoiceId,
            failureNotifiedInvoiceId: subscriptionsTable.failureNotifiedInvoiceId,
            promotionCodeId: subscriptionsTable.promotionCodeId,
          })
          .from(subscriptionsTable)
          .where(inArray(subscriptionsTable.id, ids))
      : []
    ).map((row) => [row.id, row]),
  )
  const failingInvoices: string[] = []
  let failedBefore: string | null = null
  for (const state of states) {
    if (!state.id) continue
    const previous = before.get(state.id)
    const failing = FAILING.has(state.status)
    const invoiceId = failing ? (state.latestInvoiceId ?? previous?.failingInvoiceId ?? null) : null
    let notified = previous?.failureNotifiedInvoiceId ?? null
    if (state.status === 'past_due' && invoiceId && invoiceId !== notified) {
      failingInvoices.push(invoiceId)
      notified = invoiceId
    }
    if (previous?.paymentFailedAt || failing) failedBefore ??= `${state.id}:${invoiceId ?? previous?.failingInvoiceId ?? 'sin-factura'}`
    const row = {
      userId,
      customerId,
      status: state.status,
      plan: state.plan ?? null,
      monthlyCents: state.monthlyCents ?? 0,
      currency: state.currency ?? 'eur',
      currentPeriodEnd: dateOf(state.currentPeriodEnd),
      cancelAtPeriodEnd: state.cancelAtPeriodEnd ?? false,
      startedAt: dateOf(state.startedAt) ?? new Date(),
      canceledAt: dateOf(state.canceledAt),
      endedAt: dateOf(state.endedAt),
      updatedAt: new Date(),
      paymentFailedAt: failing ? (previous?.paymentFailedAt ?? new Date()) : null,
      failingInvoiceId: invoiceId,
      failureNotifiedInvoiceId: notified,
      pausedUntil: dateOf(state.pausedUntil),
      // A discount 'once' leaves the subscription after the first invoice; the redemption stays counted.
      promotionCodeId: state.promotionCodeId ?? previous?.promotionCodeId ?? null,
    }
    await tx
      .insert(subscriptionsTable)
      .values({ id: state.id, ...row })
      .onConflictDoUpdate({ target: subscriptionsTable.id, set: row })
  }
  return { failingInvoices, failedBefore }
}

/** The local test checkout's subscriptions of a member (the test portal cancels them). */
export async function testSubscriptionsOf(userId: string) {
  return getDb()
    .select({
      id: subscriptionsTable.id,
      plan: subscriptionsTable.plan,
      monthlyCents: subscriptionsTable.monthlyCents,
      startedAt: subscriptionsTable.startedAt,
    })
    .from(subscriptionsTable)
    .where(and(eq(subscriptionsTable.userId, userId), eq(subscriptionsTable.customerId, `test_cus_${userId}`)))
}

export async function isEventProcessed(eventId: string) {
  const [row] = await getDb().select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, eventId))
  return Boolean(row)
}

export { readSubscriptions }

/** The member's own open test checkout (the local stand-in for Stripe Checkout). */
export async function getOpenTestCheckout(id: string, userId: string) {
  const [session] = await getDb()
    .select({ id: testCheckoutSessions.id, plan: testCheckoutSessions.plan, status: testCheckoutSessions.status })
    .from(testCheckoutSessions)
    .where(and(eq(testCheckoutSessions.id, id), eq(testCheckoutSessions.userId, userId), eq(testCheckoutSessions.status, 'open')))
  return session ?? null
}

export async function setTestCheckoutStatus(id: string, status: 'paid' | 'canceled', executor: DbExecutor = getDb()) {
  const changed = await executor
    .update(testCheckoutSessions)
    .set({ status })
    .where(and(eq(testCheckoutSessions.id, id), eq(testCheckoutSessions.status, 'open')))
    .returning({ id: testCheckoutSessions.id })
  return changed.length > 0
}
