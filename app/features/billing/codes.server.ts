import { and, desc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { CurrentUser } from '~/features/account/guards.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { DEFAULT_TIME_ZONE, fromWallTime, toWallTime } from '~/platform/dates'
import { getEnv } from '~/platform/env.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { blankToUndefined, CONTROL_CHARS } from '~/platform/http/text-fields'
import { CODE_LIMITS as LIMITS, CODE_MESSAGES as MESSAGES, REDEEM_MESSAGES } from './limits'
import { promotionCodes, subscriptions } from './schema'
import { getStripe } from './stripe.server'

/**
 * The console's promotion codes (/admin/codigos, decisions/0034): each one a Stripe coupon (the
 * discount and how long it lasts) and its promotion code (what is typed at Checkout, how many
 * times, until when). Checkout accepts them (`allow_promotion_codes`); Stripe applies at most one
 * per subscription, and `first_time_transaction` keeps a code to customers who never paid, so a
 * member cannot bring a code to a subscription they already had.
 */

const optionalNumber = <T extends z.ZodType<number>>(schema: T) => z.preprocess(blankToUndefined, schema.optional())

/** One message per code, the first problem found: what Stripe accepts is letters, digits and dashes. */
function codeProblem(value: string) {
  if (!value) return MESSAGES.codeRequired
  if (CONTROL_CHARS.test(value) || !/^[A-Za-z0-9-]+$/.test(value)) return MESSAGES.codeChars
  if (value.length < LIMITS.codeMin) return MESSAGES.codeTooShort
  if (value.length > LIMITS.codeMax) return MESSAGES.codeTooLong
  return null
}

export const CodeIntent = z.discriminatedUnion('intent', [
  z
    .object({
      intent: z.literal('create-code'),
      code: z
        .string({ error: MESSAGES.codeRequired })
        .trim()
        .superRefine((value, context) => {
          const problem = codeProblem(value)
          if (problem) context.addIssue({ code: 'custom', message: problem })
        })
        .transform((value) => value.toUpperCase()),
      kind: z.enum(['percent', 'amount'], MESSAGES.kind),
      percentOff: optionalNumber(
        z.coerce.number({ error: MESSAGES.percent }).int(MESSAGES.percent).min(1, MESSAGES.percent).max(100, MESSAGES.percent),
      ),
      amountOff: optionalNumber(
        z.coerce
          .number({ error: MESSAGES.amount })
          .gt(0, MESSAGES.amount)
          .max(LIMITS.amountMaxEuros, MESSAGES.amount)
          .refine(
            (value) => Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
            MESSAGES.amount,
          ),
      ),
      duration: z.enum(['once', 'repeating', 'forever'], MESSAGES.duration),
      durationMonths: optionalNumber(
        z.coerce.number({ error: MESSAGES.months }).int(MESSAGES.months).min(1, MESSAGES.months).max(LIMITS.monthsMax, MESSAGES.months),
      ),
      maxRedemptions: optionalNumber(
        z.coerce
          .number({ error: MESSAGES.maxRedemptions })
          .int(MESSAGES.maxRedemptions)
          .min(1, MESSAGES.maxRedemptions)
          .max(LIMITS.redemptionsMax, MESSAGES.maxRedemptions),
      ),
      endsOn: z.preprocess(
        blankToUndefined,
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, MESSAGES.endsOn)
          .optional(),
      ),
    })
    .superRefine((input, context) => {
      if (input.kind === 'percent' && input.percentOff === undefined)
        context.addIssue({ code: 'custom', path: ['percentOff'], message: MESSAGES.percent })
      if (input.kind === 'amount' && input.amountOff === undefined)
        context.addIssue({ code: 'custom', path: ['amountOff'], message: MESSAGES.amount })
      if (input.duration === 'repeating' && input.durationMonths === undefined)
        context.addIssue({ code: 'custom', path: ['durationMonths'], message: MESSAGES.months })
      // A malformed day already has its message (the field's own check); Zod runs this refinement anyway.
      if (input.endsOn && /^\d{4}-\d{2}-\d{2}$/.test(input.endsOn)) {
        const end = fromWallTime(`${input.endsOn}T23:59`, DEFAULT_TIME_ZONE)
        if (!end || Number.isNaN(end.getTime())) context.addIssue({ code: 'custom', path: ['endsOn'], message: MESSAGES.endsOn })
        else if (input.endsOn <= toWallTime(new Date(), DEFAULT_TIME_ZONE).slice(0, 10)) {
          context.addIssue({ code: 'custom', path: ['endsOn'], message: MESSAGES.endsOnPast })
        }
      }
    }),
  z.object({ intent: z.literal('deactivate-code'), codeId: z.string().trim().min(1).max(255) }),
])

type CreateInput = Extract<z.output<typeof CodeIntent>, { intent: 'create-code' }>

/** Each code with its redemptions and what the subscriptions that redeemed it bring in a month. */
export async function listCodes(now = new Date()) {
  const redeemed = getDb()
    .select({
      codeId: subscriptions.promotionCodeId,
      redemptions: sql<number>`count(*)::int`.as('redemptions'),
      mrrCents:
        sql<number>`coalesce(sum(${subscriptions.monthlyCents}) filter (where ${subscriptions.status} in ('active', 'past_due')), 0)::int`.as(
          'mrr_cents',
        ),
    })
    .from(subscriptions)
    .where(sql`${subscriptions.promotionCodeId} is not null`)
    .groupBy(subscriptions.promotionCodeId)
    .as('redeemed')
  const rows = await getDb()
    .select({
      id: promotionCodes.id,
      code: promotionCodes.code,
      percentOff: promotionCodes.percentOff,
      amountOffCents: promotionCodes.amountOffCents,
      duration: promotionCodes.duration,
      durationMonths: promotionCodes.durationMonths,
      maxRedemptions: promotionCodes.maxRedemptions,
      expiresAt: promotionCodes.expiresAt,
      active: promotionCodes.active,
      createdAt: promotionCodes.createdAt,
      redemptions: sql<number>`coalesce(${redeemed.redemptions}, 0)`.mapWith(Number),
      mrrCents: sql<number>`coalesce(${redeemed.mrrCents}, 0)`.mapWith(Number),
    })
    .from(promotionCodes)
    .leftJoin(redeemed, eq(redeemed.codeId, promotionCodes.id))
    .orderBy(desc(promotionCodes.createdAt))
    .limit(200)
  return rows.map((row) => ({
    ...row,
    state: !row.active
      ? ('inactive' as const)
      : row.maxRedemptions !== null && row.redemptions >= row.maxRedemptions
        ? ('exhausted' as const)
        : row.expiresAt && row.expiresAt <= now
          ? ('expired' as const)
          : ('active' as const),
  }))
}

export function codesAction(request: Request, admin: CurrentUser) {
  return handleIntent(request, CodeIntent, {
    'create-code': { invalid: MESSAGES.invalid, failed: MESSAGES.failed, run: (input) => createCode(admin, input) },
    'deactivate-code': {
      invalid: MESSAGES.deactivateFailed,
      async run({ codeId }) {
        const [code] = await getDb()
          .select({ id: promotionCodes.id, code: promotionCodes.code, active: promotionCodes.active })
          .from(promotionCodes)
          .where(eq(promotionCodes.id, codeId))
        if (!code) refuse(404, MESSAGES.notFound, { detail: { codeId } })
        if (!code.active) refuse(409, MESSAGES.alreadyInactive, { detail: { codeId } })
        if (!isTestCode(code.id)) {
          if (getEnv().PAYMENTS_PROVIDER !== 'stripe') refuse(409, MESSAGES.manual)
          await getStripe().promotionCodes.update(code.id, { active: false })
        }
        // Two admins at once: the second finds it already done and is told so.
        const changed = await getDb().transaction(async (tx) => {
          const updated = await tx
            .update(promotionCodes)
            .set({ active: false })
            .where(sql`${promotionCodes.id} = ${code.id} and ${promotionCodes.active}`)
            .returning({ id: promotionCodes.id })
          if (updated.length === 0) refuse(409, MESSAGES.alreadyInactive, { detail: { codeId } })
          await recordAudit(
            { action: 'promotion_code_deactivated', actorUserId: admin.id, details: { codeId: code.id, code: code.code } },
            tx,
          )
          return updated.length
        })
        return success({ deactivated: changed }, { title: MESSAGES.deactivated })
      },
    },
  })
}

/** The local test checkout's codes never reach Stripe ('Modo de prueba'). */
const isTestCode = (id: string) => id.startsWith('test_promo_')

async function createCode(admin: CurrentUser, input: CreateInput) {
  const provider = getEnv().PAYMENTS_PROVIDER
  if (provider !== 'stripe' && provider !== 'test') refuse(409, MESSAGES.manual)
  const [taken] = await getDb().select({ id: promotionCodes.id }).from(promotionCodes).where(eq(promotionCodes.code, input.code))
  if (taken) refuse(409, MESSAGES.codeTaken, { detail: { code: input.code } })
  const percentOff = input.kind === 'percent' ? input.percentOff! : null
  const amountOffCents = input.kind === 'amount' ? Math.round(input.amountOff! * 100) : null
  const durationMonths = input.duration === 'repeating' ? input.durationMonths! : null
  const maxRedemptions = input.maxRedemptions ?? null
  // The code ends at the end of its last day in Madrid.
  const expiresAt = input.endsOn ? fromWallTime(`${input.endsOn}T23:59`, DEFAULT_TIME_ZONE) : null
  // What the table keeps and the audit line says of the code, the same words for both.
  const terms = { percentOff, amountOffCents, duration: input.duration, durationMonths, maxRedemptions }
  let ids: { id: string; couponId: string }
  if (provider === 'test') {
    ids = { id: `test_promo_${crypto.randomUUID()}`, couponId: `test_coupon_${crypto.randomUUID()}` }
  } else {
    const stripe = getStripe()
    // One key per code: a retried request (the SDK's, or the admin's double click) makes one coupon.
    const coupon = await stripe.coupons.create(
      {
        name: input.code,
        ...(percentOff !== null ? { percent_off: percentOff } : { amount_off: amountOffCents!, currency: 'eur' }),
        duration: input.duration,
        ...(durationMonths !== null ? { duration_in_months: durationMonths } : {}),
        metadata: { createdBy: 'console' },
      },
      { idempotencyKey: `coupon:${input.code}:${percentOff ?? amountOffCents}:${input.duration}:${durationMonths ?? ''}` },
    )
    const promotion = await stripe.promotionCodes.create(
      {
        promotion: { type: 'coupon', coupon: coupon.id },
        code: input.code,
        ...(maxRedemptions !== null ? { max_redemptions: maxRedemptions } : {}),
        ...(expiresAt ? { expires_at: Math.floor(expiresAt.getTime() / 1000) } : {}),
        restrictions: { first_time_transaction: true },
      },
      { idempotencyKey: `promotion-code:${input.code}:${coupon.id}` },
    )
    ids = { id: promotion.id, couponId: coupon.id }
  }
  await getDb().transaction(async (tx) => {
    const inserted = await tx
      .insert(promotionCodes)
      .values({ ...ids, code: input.code, ...terms, expiresAt })
      .onConflictDoNothing()
      .returning({ id: promotionCodes.id })
    // The same code created twice at once: Stripe made one (the idempotency key), the table keeps one.
    if (inserted.length === 0) refuse(409, MESSAGES.codeTaken, { detail: { code: input.code } })
    await recordAudit(
      {
        action: 'promotion_code_created',
        actorUserId: admin.id,
        details: { codeId: ids.id, code: input.code, ...terms, endsOn: input.endsOn ?? null },
      },
      tx,
    )
  })
  return success({ code: input.code }, { title: MESSAGES.created })
}

/* --- A code redeemed at the local test checkout ('Modo de prueba') --- */

/**
 * What a buyer may type as a code: at most a code's length, letters, digits and dashes. Anything
 * else (control characters, 500 characters) cannot be one of ours and gets the same answer as an
 * unknown code.
 */
export const TypedCode = z
  .string()
  .trim()
  .max(LIMITS.codeMax, REDEEM_MESSAGES.invalid)
  .regex(/^[A-Za-z0-9-]*$/, REDEEM_MESSAGES.invalid)
  .optional()
  .transform((value) => value || null)

export interface RedeemableCode {
  id: string
  code: string
  percentOff: number | null
  amountOffCents: number | null
}

/**
 * Stripe Checkout's checks of a typed code, in its order, for the test checkout (Stripe makes them
 * itself for real payments): one of ours and active, not expired, uses left, and
 * `first_time_transaction` (a member who ever had a subscription is not a first-time customer).
 * With `lock` (inside the redeeming transaction) the code's row is locked first, so two buyers
 * taking its last use at once are counted one after the other: the second finds it exhausted.
 */
export async function redeemableCode(
  executor: DbExecutor,
  typed: string,
  userId: string,
  { lock = false, now = new Date() } = {},
): Promise<{ code: RedeemableCode } | { refusal: string }> {
  const query = executor
    .select({
      id: promotionCodes.id,
      code: promotionCodes.code,
      percentOff: promotionCodes.percentOff,
      amountOffCents: promotionCodes.amountOffCents,
      maxRedemptions: promotionCodes.maxRedemptions,
      expiresAt: promotionCodes.expiresAt,
      active: promotionCodes.active,
    })
    .from(promotionCodes)
    .where(eq(promotionCodes.code, typed.toUpperCase()))
  const [row] = lock ? await query.for('update') : await query
  // Stripe's codes are redeemed at Stripe Checkout, never here.
  if (!row || !row.active || !isTestCode(row.id)) return { refusal: REDEEM_MESSAGES.invalid }
  if (row.expiresAt && row.expiresAt <= now) return { refusal: REDEEM_MESSAGES.expired }
  if (row.maxRedemptions !== null) {
    const [used] = await executor
      .select({ count: sql<number>`count(*)::int` })
      .from(subscriptions)
      .where(and(eq(subscriptions.promotionCodeId, row.id), sql`${subscriptions.promotionCodeId} is not null`))
    if ((used?.count ?? 0) >= row.maxRedemptions) return { refusal: REDEEM_MESSAGES.exhausted }
  }
  const [before] = await executor.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1)
  if (before) return { refusal: REDEEM_MESSAGES.notFirstTime }
  return { code: { id: row.id, code: row.code, percentOff: row.percentOff, amountOffCents: row.amountOffCents } }
}

/** What the code takes off a tax-inclusive price, as Stripe computes it: never more than the price. */
export function discountCentsOf(code: Pick<RedeemableCode, 'percentOff' | 'amountOffCents'>, totalCents: number) {
  if (code.percentOff !== null) return Math.round((totalCents * code.percentOff) / 100)
  return Math.min(code.amountOffCents ?? 0, totalCents)
}
