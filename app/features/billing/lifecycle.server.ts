import { and, desc, eq, inArray, or } from 'drizzle-orm'
import { z } from 'zod'
import type { CurrentUser } from '~/features/account/guards.server'
import { displayName } from '~/features/account/display-name'
import { profiles } from '~/features/account/schema'
import { recordAudit } from '~/platform/audit/audit.server'
import { user as users } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { addDays, dayAndMonth, DEFAULT_TIME_ZONE, fromWallTime, longDate, toWallTime } from '~/platform/dates'
import { getEnv } from '~/platform/env.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { blankToUndefined, isCleanText } from '~/platform/http/text-fields'
import { applySubscriptionState } from './billing.server'
import {
  CANCEL_REASONS,
  type CancelReason,
  MEMBERSHIP_LIMITS,
  MEMBERSHIP_MESSAGES,
  PAUSE_MAX_DAYS,
  PAUSE_MESSAGES,
  membershipEndsText,
  paymentFailedText,
  pausedText,
} from './limits'
import { subscriptions } from './schema'
import { getStripe, PAST_DUE_GRACE_DAYS, readSubscriptions } from './stripe.server'

/**
 * The subscription's life cycle as the member and the console act on it (decisions/0034): what
 * the member is told (a failed payment, a cancellation at the period's end, a pause), keeping a
 * membership that was cancelled, saying why, and the console's pause of a member's payments.
 * Every change goes to Stripe first and is then re-read from it, as the webhook does, so the page
 * shows it at once and the webhook that follows finds nothing left to change.
 */

/** Subscriptions a member still has something to be told about (a running one, or a failing one). */
const CURRENT = ['active', 'trialing', 'past_due', 'unpaid'] as const
const LIVE = ['active', 'trialing', 'past_due'] as const

/** The local test checkout's subscriptions live only in our table ('Modo de prueba', decisions/0007). */
const isTestSubscription = (id: string) => id.startsWith('test_sub_')

export interface Membership {
  /** The failed-payment banner: the sentence, and whether premium is still kept meanwhile. */
  paymentFailed: { text: string; retrying: boolean } | null
  /** 'Tu membresía termina el 12 de enero', with what 'Mantener mi membresía' posts. */
  ending: { text: string; subscriptionId: string; reason: CancelReason | null } | null
  paused: { text: string } | null
}

/** What the member is told about their subscription: the community's banner and /perfil's card. */
export async function membershipOf(userId: string, now = new Date()): Promise<Membership> {
  const rows = await getDb()
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      pausedUntil: subscriptions.pausedUntil,
      cancelReason: subscriptions.cancelReason,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...CURRENT])))
    .orderBy(desc(subscriptions.startedAt))
    .limit(5)
  const failing = rows.find((row) => row.status === 'past_due' || row.status === 'unpaid')
  const graceEnd =
    failing?.status === 'past_due' && failing.currentPeriodEnd
      ? new Date(failing.currentPeriodEnd.getTime() + PAST_DUE_GRACE_DAYS * 86_400_000)
      : null
  const retrying = graceEnd !== null && graceEnd > now
  const ending = rows.find((row) => row.cancelAtPeriodEnd && row.currentPeriodEnd && row.status !== 'unpaid')
  const paused = rows.find((row) => row.pausedUntil && row.pausedUntil > now)
  return {
    paymentFailed: failing ? { text: paymentFailedText(retrying ? longDate(graceEnd!) : null), retrying } : null,
    ending: ending
      ? {
          text: membershipEndsText(dayAndMonth(ending.currentPeriodEnd!)),
          subscriptionId: ending.id,
          reason: (ending.cancelReason as CancelReason | null) ?? null,
        }
      : null,
    paused: paused ? { text: pausedText(longDate(paused.pausedUntil!)) } : null,
  }
}

const subscriptionId = z.string().trim().min(1).max(255)

export const MembershipIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('keep-membership'), subscriptionId }),
  z.object({
    intent: z.literal('cancel-reason'),
    subscriptionId,
    reason: z.enum(Object.keys(CANCEL_REASONS) as [CancelReason, ...CancelReason[]], MEMBERSHIP_MESSAGES.reasonInvalid),
    detail: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .max(MEMBERSHIP_LIMITS.reasonText, MEMBERSHIP_MESSAGES.reasonTooLong)
        .refine((value) => isCleanText(value, { multiline: true }), MEMBERSHIP_MESSAGES.reasonInvalid)
        .optional(),
    ),
  }),
])

/** The member's own subscription only: an id of someone else's is as unknown as a made-up one. */
async function ownSubscription(userId: string, id: string) {
  const [row] = await getDb()
    .select({
      id: subscriptions.id,
      customerId: subscriptions.customerId,
      status: subscriptions.status,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      canceledAt: subscriptions.canceledAt,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)))
  if (!row) refuse(404, MEMBERSHIP_MESSAGES.noSubscription, { detail: { subscriptionId: id } })
  return row
}

/** Stripe's state of the customer, written as the webhook writes it (premium, the subscriptions' rows), with what goes with it. */
async function rereadFromStripe(customerId: string, alsoInTransaction?: (tx: DbExecutor) => Promise<void>) {
  await applySubscriptionState({ customerId, subscriptions: await readSubscriptions(customerId), alsoInTransaction })
}

/** Billing is the admins' decision, not moderation's: a member in read-only mode may still keep their membership. */
export const MEMBERSHIP_OPEN_WHILE_SUSPENDED = ['keep-membership', 'cancel-reason'] as const satisfies ReadonlyArray<
  z.output<typeof MembershipIntent>['intent']
>

/** 'Mantener mi membresía' and the optional 'why' (docs/decisions/0012), from /perfil or the community. */
export function membershipAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    MembershipIntent,
    {
      'keep-membership': {
        invalid: MEMBERSHIP_MESSAGES.keepFailed,
        async run({ subscriptionId }) {
          const row = await ownSubscription(user.id, subscriptionId)
          if (!row.cancelAtPeriodEnd || !(LIVE as readonly string[]).includes(row.status)) {
            refuse(409, MEMBERSHIP_MESSAGES.nothingToKeep, { detail: { subscriptionId, status: row.status } })
          }
          // Kept, the reason no longer explains a cancellation: the churn figures count only real ones.
          const forget = { cancelReason: null, cancelReasonText: null, cancelReasonAt: null }
          if (isTestSubscription(row.id)) {
            await getDb()
              .update(subscriptions)
              .set({ cancelAtPeriodEnd: false, canceledAt: null, ...forget, updatedAt: new Date() })
              .where(eq(subscriptions.id, row.id))
          } else {
            if (getEnv().PAYMENTS_PROVIDER !== 'stripe') refuse(409, MEMBERSHIP_MESSAGES.keepFailed, { detail: { provider: 'not stripe' } })
            // Two clicks of the same cancellation are one request to Stripe; a later cancellation is another.
            const cancellation = row.canceledAt?.getTime() ?? 'sin-fecha'
            await getStripe().subscriptions.update(
              row.id,
              { cancel_at_period_end: false },
              { idempotencyKey: `keep-membership:${row.id}:${cancellation}` },
            )
            await getDb().update(subscriptions).set(forget).where(eq(subscriptions.id, row.id))
            await rereadFromStripe(row.customerId)
          }
          return success({ kept: row.id }, { title: MEMBERSHIP_MESSAGES.kept })
        },
      },
      'cancel-reason': {
        invalid: MEMBERSHIP_MESSAGES.reasonInvalid,
        async run({ subscriptionId, reason, detail }) {
          await ownSubscription(user.id, subscriptionId)
          // Only a cancellation has a reason: a running subscription's answer would be counted as churn.
          const saved = await getDb()
            .update(subscriptions)
            .set({ cancelReason: reason, cancelReasonText: detail ?? null, cancelReasonAt: new Date() })
            .where(
              and(
                eq(subscriptions.id, subscriptionId),
                eq(subscriptions.userId, user.id),
                or(eq(subscriptions.cancelAtPeriodEnd, true), eq(subscriptions.status, 'canceled')),
              ),
            )
            .returning({ id: subscriptions.id })
          if (saved.length === 0) refuse(409, MEMBERSHIP_MESSAGES.nothingToKeep, { detail: { subscriptionId } })
          return success({ reason }, { title: MEMBERSHIP_MESSAGES.reasonSaved })
        },
      },
    },
    { openWhileSuspended: MEMBERSHIP_OPEN_WHILE_SUSPENDED },
  )
}

/* --- The console: a member's payments, paused and resumed --- */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, PAUSE_MESSAGES.invalid)

export const PauseIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('pause-collection'), resumesOn: day }),
  z.object({ intent: z.literal('resume-collection') }),
])

/** The member's billing as the console shows it (/admin/miembros/:userId/cobro). */
export async function memberBilling(userId: string) {
  const db = getDb()
  const [member] = await db
    .select({
      userId: users.id,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      displayName: profiles.displayName,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
  if (!member) return null
  const rows = await db
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      plan: subscriptions.plan,
      monthlyCents: subscriptions.monthlyCents,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      pausedUntil: subscriptions.pausedUntil,
      paymentFailedAt: subscriptions.paymentFailedAt,
      startedAt: subscriptions.startedAt,
    })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.startedAt))
    .limit(10)
  return { member: { userId: member.userId, name: displayName(member, member.email), email: member.email }, subscriptions: rows }
}

/** The running subscription a pause applies to (the newest, should a member have two). */
async function liveSubscriptionOf(userId: string) {
  const [row] = await getDb()
    .select({ id: subscriptions.id, customerId: subscriptions.customerId, pausedUntil: subscriptions.pausedUntil })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE])))
    .orderBy(desc(subscriptions.startedAt))
    .limit(1)
  if (!row) refuse(409, PAUSE_MESSAGES.noSubscription, { detail: { userId } })
  return row
}

/**
 * 'Pausar cobro' until a day (Madrid's midnight): Stripe voids the invoices meanwhile and resumes
 * collection itself at `resumes_at`. The status stays `active`, so the member keeps premium: a
 * courtesy pause (parental leave, a sabbatical), not a suspension (decisions/0034).
 */
export function memberBillingAction(request: Request, admin: CurrentUser, memberId: string) {
  return handleIntent(request, PauseIntent, {
    'pause-collection': {
      invalid: PAUSE_MESSAGES.invalid,
      failed: PAUSE_MESSAGES.failed,
      async run({ resumesOn }) {
        const resumesAt = fromWallTime(`${resumesOn}T00:00`, DEFAULT_TIME_ZONE)
        if (!resumesAt || Number.isNaN(resumesAt.getTime())) refuse(400, PAUSE_MESSAGES.invalid, { detail: { resumesOn } })
        const today = toWallTime(new Date(), DEFAULT_TIME_ZONE).slice(0, 10)
        if (resumesOn <= today) refuse(400, PAUSE_MESSAGES.dateInPast, { detail: { resumesOn } })
        if (resumesOn > addDays(today, PAUSE_MAX_DAYS)) refuse(400, PAUSE_MESSAGES.dateTooFar, { detail: { resumesOn } })
        const subscription = await liveSubscriptionOf(memberId)
        await setCollection(subscription, resumesAt, (tx) =>
          recordAudit(
            {
              action: 'billing_paused',
              actorUserId: admin.id,
              targetUserId: memberId,
              details: { subscriptionId: subscription.id, resumesOn },
            },
            tx,
          ),
        )
        return success({ resumesOn }, { title: PAUSE_MESSAGES.paused })
      },
    },
    'resume-collection': {
      invalid: PAUSE_MESSAGES.failed,
      failed: PAUSE_MESSAGES.failed,
      async run() {
        const subscription = await liveSubscriptionOf(memberId)
        if (!subscription.pausedUntil) refuse(409, PAUSE_MESSAGES.notPaused, { detail: { subscriptionId: subscription.id } })
        await setCollection(subscription, null, (tx) =>
          recordAudit(
            { action: 'billing_resumed', actorUserId: admin.id, targetUserId: memberId, details: { subscriptionId: subscription.id } },
            tx,
          ),
        )
        return success({ resumed: true }, { title: PAUSE_MESSAGES.resumed })
      },
    },
  })
}

/** The pause set (or lifted) and its audit line, in one transaction: never the one without the other. */
async function setCollection(
  subscription: { id: string; customerId: string },
  resumesAt: Date | null,
  audit: (tx: DbExecutor) => Promise<void>,
) {
  if (isTestSubscription(subscription.id)) {
    await getDb().transaction(async (tx) => {
      await tx.update(subscriptions).set({ pausedUntil: resumesAt, updatedAt: new Date() }).where(eq(subscriptions.id, subscription.id))
      await audit(tx)
    })
    return
  }
  if (getEnv().PAYMENTS_PROVIDER !== 'stripe') refuse(409, PAUSE_MESSAGES.manual)
  await getStripe().subscriptions.update(subscription.id, {
    // '' unsets it: collection resumes with the next invoice.
    pause_collection: resumesAt ? { behavior: 'void', resumes_at: Math.floor(resumesAt.getTime() / 1000) } : '',
  })
  // Stripe's pause is the same request again on a retry (the same day asked): the retry records it once.
  await rereadFromStripe(subscription.customerId, audit)
}
