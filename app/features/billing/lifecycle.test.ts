import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { profiles } from '~/features/account/schema'
import { auditLog } from '~/platform/audit/schema'
import { getDb } from '~/platform/db/client.server'
import { dayAndMonth } from '~/platform/dates'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import * as profileRoute from '~/features/account/profile.route'
import * as communityLayout from '~/features/community/layout.route'
import { loadDashboard } from '~/features/admin/dashboard.server'
import { listMembers } from '~/features/admin/members.server'
import { readMemberFilter } from '~/features/admin/filters'
import * as codesRoute from './codes.route'
import * as memberBillingRoute from './member-billing.route'
import * as membershipRoute from './membership.route'
import { listCodes } from './codes.server'
import { membershipOf } from './lifecycle.server'
import { CODE_MESSAGES, MEMBERSHIP_MESSAGES, PAUSE_MESSAGES } from './limits'
import { PAYMENT_MAILS } from './payment-mail.server'
import { promotionCodes, subscriptions } from './schema'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { type FakeSubscription, useFakeStripe } from '../../../tests/setup/fake-stripe'
import { deliverWebhook, isPremium, stripeEvent } from '../../../tests/setup/billing'
import { completeProfile, createPeople, type People, type Persona } from '../../../tests/setup/members'
import { createConfirmedUser, formRequest, getRequest, queuedMails, run } from '../../../tests/setup/requests'

useTestDatabase()

const fake = useFakeStripe()
const context = { cspNonce: 'test' }
const DAY = 86_400
const now = () => Math.floor(Date.now() / 1000)

let people: People
beforeAll(async () => {
  people = await createPeople()
})

/* --- helpers --- */

let customers = 0
/** A premium-less member linked to a Stripe customer of the fake, with their subscription there. */
async function subscriber(subscription: Partial<FakeSubscription> = {}) {
  const member = await createConfirmedUser()
  await completeProfile(member.userId)
  customers++
  const customer = `cus_life_${customers}_${Date.now()}`
  await getDb().update(profiles).set({ stripeCustomerId: customer }).where(eq(profiles.userId, member.userId))
  const sub: FakeSubscription = {
    id: `sub_life_${customers}_${Date.now()}`,
    customer,
    status: 'active',
    current_period_end: now() + 20 * DAY,
    price: { id: 'price_monthly_89', unit_amount: 8900, interval: 'month' },
    ...subscription,
  }
  fake.subscriptions.push(sub)
  return { ...member, customer, sub }
}

/** A signed delivery of a Stripe event, which the webhook acknowledges. */
async function deliver(type: string, object: Record<string, unknown>, id?: string) {
  const payload = stripeEvent(type, object, id)
  const outcome = await deliverWebhook(payload)
  expect(outcome.status).toBe(200)
  return { ...outcome, id: payload.id }
}

const rowOf = async (id: string) => (await getDb().select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!

const paymentMailJobs = (userId: string) =>
  getDb()
    .select({ key: jobs.dedupeKey })
    .from(jobs)
    .where(and(eq(jobs.name, 'billing.payment-mail'), sql`${jobs.payload}->>'userId' = ${userId}`))

const mailsTo = async (email: string, kind: keyof typeof PAYMENT_MAILS) => {
  await runDueJobs({ names: ['billing.payment-mail'] })
  return (await queuedMails(email, `${PAYMENT_MAILS[kind].subject} · Círculo CEO`)).length
}

const post = (route: { action: (args: any) => unknown }, path: string, fields: Record<string, string>, cookie?: string, params = {}) =>
  run(() => route.action({ request: formRequest(path, fields, { cookie }), params, context } as any))

const load = (route: { loader: (args: any) => unknown }, path: string, cookie?: string, params = {}) =>
  run(() => route.loader({ request: getRequest(path, { cookie }), params, context } as any))

const auditOf = (action: string, targetUserId?: string) =>
  getDb()
    .select({ actor: auditLog.actorUserId, target: auditLog.targetUserId, details: auditLog.details })
    .from(auditLog)
    .where(and(sql`${auditLog.action} = ${action}`, targetUserId ? eq(auditLog.targetUserId, targetUserId) : undefined))

/* --- 1. A failed payment --- */

describe('a failed payment: retried, lost, paid again (the SDK against the fake)', () => {
  test('first failure: premium kept, the banner, one e-mail per invoice however many retries and duplicates', async () => {
    const member = await subscriber()
    await deliver('customer.subscription.created', { id: member.sub.id, customer: member.customer })
    expect(await isPremium(member.userId)).toBe(true)
    const activeEvent = { id: member.sub.id, customer: member.customer, status: 'active' }

    // The renewal fails: Stripe keeps the subscription past_due and retries (Smart Retries).
    Object.assign(member.sub, { status: 'past_due', latest_invoice: 'in_fail_1', current_period_end: now() - DAY })
    const failed = await deliver('invoice.payment_failed', { id: 'in_fail_1', customer: member.customer })
    expect(await isPremium(member.userId)).toBe(true)
    const row = await rowOf(member.sub.id)
    expect(row.failingInvoiceId).toBe('in_fail_1')
    expect(row.paymentFailedAt).toBeInstanceOf(Date)

    // The same event again, a retry's new event, and an old 'active' event arriving late: nothing more.
    const again = await deliver('invoice.payment_failed', { id: 'in_fail_1', customer: member.customer }, failed.id)
    expect(again.data).toEqual({ received: true, duplicate: true })
    await deliver('invoice.payment_failed', { id: 'in_fail_1', customer: member.customer })
    await deliver('customer.subscription.updated', activeEvent)
    expect((await rowOf(member.sub.id)).paymentFailedAt).toEqual(row.paymentFailedAt)
    expect(await paymentMailJobs(member.userId)).toEqual([{ key: 'billing.payment-mail:failed:in_fail_1' }])
    expect(await mailsTo(member.email, 'failed')).toBe(1)
    const [mail] = await getDb()
      .select({ payload: jobs.payload })
      .from(jobs)
      .where(
        and(
          eq(jobs.name, 'mail.send'),
          sql`${jobs.payload}->>'to' = ${member.email}`,
          sql`${jobs.payload}->>'subject' = ${`${PAYMENT_MAILS.failed.subject} · Círculo CEO`}`,
        ),
      )
    expect((mail!.payload as { text: string }).text).toContain('http://localhost:3000/perfil#membresia')
    expect((mail!.payload as { text: string }).text).toContain('Actualizar método de pago')

    // The community's banner and /perfil say so, with the portal's button.
    const membership = await membershipOf(member.userId)
    expect(membership.paymentFailed?.retrying).toBe(true)
    expect(membership.paymentFailed?.text).toMatch(/^No hemos podido cobrar tu cuota\. /)
    expect(MEMBERSHIP_MESSAGES.updatePayment).toBe('Actualizar método de pago')
    const community = await load(communityLayout, '/comunidad', member.cookie)
    expect(community.data.membership.paymentFailed.text).toBe(membership.paymentFailed!.text)
    const profile = await load(profileRoute, '/perfil', member.cookie)
    expect(profile.data.membership.paymentFailed.text).toBe(membership.paymentFailed!.text)

    // The console: one failed payment being retried, and the members table's filter.
    expect((await loadDashboard(30)).money.retrying).toBeGreaterThanOrEqual(1)
    const failing = await listMembers(readMemberFilter(new URLSearchParams('cobro=pago-fallido')))
    expect(failing.members.map((m) => m.userId)).toContain(member.userId)
    expect(failing.members.map((m) => m.userId)).not.toContain(people.member.userId)

    // Stripe gives up (unpaid): premium goes, with one e-mail, even if the event comes twice.
    Object.assign(member.sub, { status: 'unpaid' })
    const gaveUp = await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer }, gaveUp.id)
    await deliver('invoice.payment_failed', { id: 'in_fail_1', customer: member.customer })
    expect(await isPremium(member.userId)).toBe(false)
    expect(await mailsTo(member.email, 'lost')).toBe(1)
    expect(await mailsTo(member.email, 'failed')).toBe(1)
    expect((await membershipOf(member.userId)).paymentFailed).toEqual({ text: expect.stringContaining('se ha detenido'), retrying: false })
    expect(await auditOf('premium_removed', member.userId)).toHaveLength(1)

    // Paid later (the new card in the portal): Stripe moves the subscription back to active and says
    // so (invoice.paid itself is acknowledged untouched: it never decides access); premium is back at once.
    Object.assign(member.sub, { status: 'active', current_period_end: now() + 30 * DAY })
    await deliver('invoice.paid', { id: 'in_fail_1', customer: member.customer })
    expect(await isPremium(member.userId)).toBe(false)
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    expect(await isPremium(member.userId)).toBe(true)
    expect((await rowOf(member.sub.id)).paymentFailedAt).toBeNull()
    expect((await membershipOf(member.userId)).paymentFailed).toBeNull()
    const notFailing = await listMembers(readMemberFilter(new URLSearchParams('cobro=pago-fallido')))
    expect(notFailing.members.map((m) => m.userId)).not.toContain(member.userId)

    // A later invoice failing is a new e-mail.
    Object.assign(member.sub, { status: 'past_due', latest_invoice: 'in_fail_2', current_period_end: now() - DAY })
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    expect(await mailsTo(member.email, 'failed')).toBe(2)
  })

  test('past the grace period premium goes with the e-mail, though Stripe still retries', async () => {
    const member = await subscriber()
    await deliver('customer.subscription.created', { id: member.sub.id, customer: member.customer })
    Object.assign(member.sub, { status: 'past_due', latest_invoice: 'in_grace', current_period_end: now() - 2 * DAY })
    await deliver('invoice.payment_failed', { id: 'in_grace', customer: member.customer })
    expect(await isPremium(member.userId)).toBe(true)
    Object.assign(member.sub, { current_period_end: now() - 8 * DAY })
    await deliver('invoice.payment_failed', { id: 'in_grace', customer: member.customer })
    expect(await isPremium(member.userId)).toBe(false)
    expect(await mailsTo(member.email, 'lost')).toBe(1)
  })

  test('events in the opposite order (paid before failed) end in the state Stripe holds', async () => {
    const member = await subscriber({ status: 'active', latest_invoice: 'in_late' })
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    // The failure's event arrives after the payment: Stripe says active, so nothing fails, nobody is e-mailed.
    await deliver('invoice.payment_failed', { id: 'in_late', customer: member.customer })
    expect(await isPremium(member.userId)).toBe(true)
    expect((await rowOf(member.sub.id)).paymentFailedAt).toBeNull()
    expect(await paymentMailJobs(member.userId)).toEqual([])
  })
})

/* --- 2. Cancelling at the period's end --- */

describe("cancelling at the period's end: 'Mantener mi membresía' and why", () => {
  const endsOn = Date.UTC(2027, 0, 12, 12) / 1000

  async function cancelling() {
    const member = await subscriber({ cancel_at_period_end: true, canceled_at: now(), current_period_end: endsOn })
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    return member
  }

  const membership = (fields: Record<string, string>, cookie?: string) => post(membershipRoute, '/billing/membresia', fields, cookie)

  test("/perfil and the community say 'Tu membresía termina el 12 de enero'; the reason is kept; 'Mantener' un-cancels through the API", async () => {
    const member = await cancelling()
    expect(dayAndMonth(new Date(endsOn * 1000))).toBe('12 de enero')
    const profile = await load(profileRoute, '/perfil', member.cookie)
    expect(profile.data.membership.ending).toEqual({
      text: 'Tu membresía termina el 12 de enero',
      subscriptionId: member.sub.id,
      reason: null,
    })
    expect((await load(communityLayout, '/comunidad', member.cookie)).data.membership.ending.text).toBe(
      'Tu membresía termina el 12 de enero',
    )
    expect(MEMBERSHIP_MESSAGES.keep).toBe('Mantener mi membresía')

    const why = await membership(
      { intent: 'cancel-reason', subscriptionId: member.sub.id, reason: 'precio', detail: 'Lo paga mi empresa y ha recortado.' },
      member.cookie,
    )
    expect(why.status).toBe(200)
    expect(why.data.message.title).toBe('Gracias por contárnoslo')
    const row = await rowOf(member.sub.id)
    expect([row.cancelReason, row.cancelReasonText]).toEqual(['precio', 'Lo paga mi empresa y ha recortado.'])
    // A later event rewrites the row from Stripe but keeps the member's answer.
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    expect((await rowOf(member.sub.id)).cancelReason).toBe('precio')
    const reasons = (await loadDashboard(30)).money.churnReasons
    expect(reasons).toContainEqual(['precio', expect.any(Number)])

    const kept = await membership({ intent: 'keep-membership', subscriptionId: member.sub.id }, member.cookie)
    expect(kept.status).toBe(200)
    expect(kept.data.message.title).toBe('Tu membresía sigue activa')
    const call = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${member.sub.id}`).at(-1)!
    expect(call.form.get('cancel_at_period_end')).toBe('false')
    expect(call.idempotencyKey).toMatch(new RegExp(`^keep-membership:${member.sub.id}:`))
    expect(member.sub.cancel_at_period_end).toBe(false)
    expect((await rowOf(member.sub.id)).cancelAtPeriodEnd).toBe(false)
    expect((await rowOf(member.sub.id)).cancelReason).toBeNull()
    expect((await membershipOf(member.userId)).ending).toBeNull()
    expect(await isPremium(member.userId)).toBe(true)

    const twice = await membership({ intent: 'keep-membership', subscriptionId: member.sub.id }, member.cookie)
    expect(twice.status).toBe(409)
    expect(twice.data.message.title).toBe(MEMBERSHIP_MESSAGES.nothingToKeep)
  })

  test('hostile inputs: 4xx with fixed Spanish messages, nothing stored', async () => {
    const member = await cancelling()
    const other = await cancelling()
    const cases: Array<[Record<string, string>, number, string]> = [
      [
        { intent: 'cancel-reason', subscriptionId: member.sub.id, reason: 'precio', detail: 'x'.repeat(501) },
        400,
        MEMBERSHIP_MESSAGES.reasonInvalid,
      ],
      [
        { intent: 'cancel-reason', subscriptionId: member.sub.id, reason: 'precio', detail: 'hola\u0000\u202Emundo' },
        400,
        MEMBERSHIP_MESSAGES.reasonInvalid,
      ],
      [{ intent: 'cancel-reason', subscriptionId: member.sub.id, reason: 'me-aburro' }, 400, MEMBERSHIP_MESSAGES.reasonInvalid],
      [{ intent: 'cancel-reason', subscriptionId: other.sub.id, reason: 'precio' }, 404, MEMBERSHIP_MESSAGES.noSubscription],
      [{ intent: 'keep-membership', subscriptionId: other.sub.id }, 404, MEMBERSHIP_MESSAGES.noSubscription],
      [{ intent: 'keep-membership', subscriptionId: 'sub_que_no_existe' }, 404, MEMBERSHIP_MESSAGES.noSubscription],
      [{ intent: 'keep-membership', subscriptionId: 'x'.repeat(300) }, 400, MEMBERSHIP_MESSAGES.keepFailed],
    ]
    for (const [fields, status, message] of cases) {
      const outcome = await membership(fields, member.cookie)
      expect(outcome.status, JSON.stringify(fields).slice(0, 80)).toBe(status)
      expect(outcome.data.message.title).toBe(message)
    }
    const tooLong = await membership(
      { intent: 'cancel-reason', subscriptionId: member.sub.id, reason: 'precio', detail: 'x'.repeat(501) },
      member.cookie,
    )
    expect(tooLong.data.submission.error.detail).toEqual([MEMBERSHIP_MESSAGES.reasonTooLong])
    const json = await run(() =>
      membershipRoute.action({
        request: new Request('http://localhost:3000/billing/membresia', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: member.cookie, Origin: 'http://localhost:3000' },
          body: JSON.stringify({ intent: 'keep-membership', subscriptionId: member.sub.id }),
        }),
        params: {},
        context,
      } as any),
    )
    expect(json.status).toBe(415)
    expect((await rowOf(member.sub.id)).cancelReason).toBeNull()
    expect((await rowOf(other.sub.id)).cancelAtPeriodEnd).toBe(true)
    // Signed out: to sign in, nothing changes.
    const anonymous = await membership({ intent: 'keep-membership', subscriptionId: member.sub.id })
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toMatch(/^\/auth\?/)
    expect(member.sub.cancel_at_period_end).toBe(true)
    // Without JavaScript the browser navigates to the action: back to /perfil with the result as a toast.
    const navigation = formRequest(
      '/billing/membresia',
      { intent: 'keep-membership', subscriptionId: member.sub.id },
      { cookie: member.cookie },
    )
    navigation.headers.set('Sec-Fetch-Mode', 'navigate')
    const kept2 = (await run(() => membershipRoute.action({ request: navigation, params: {}, context } as any))) as any
    expect(kept2.status).toBe(302)
    expect(kept2.location).toBe('/perfil#membresia')
    expect(kept2.headers.get('Set-Cookie')).toMatch(/^toast=/)
    expect(member.sub.cancel_at_period_end).toBe(false)
  })
})

/* --- 3. Pausing a member's payments --- */

describe("the console pauses a member's payments", () => {
  const inDays = (days: number) => new Date(Date.now() + days * DAY * 1000).toISOString().slice(0, 10)
  const pause = (userId: string, fields: Record<string, string>, cookie?: string) =>
    post(memberBillingRoute, `/admin/miembros/${userId}/cobro`, fields, cookie, { userId })

  test.each(['anonymous', 'member', 'premium', 'moderator'] as Persona[])('%s can neither see nor pause nor resume', async (persona) => {
    const member = await subscriber()
    await deliver('customer.subscription.created', { id: member.sub.id, customer: member.customer })
    const cookie = people[persona].cookie
    const status = persona === 'anonymous' ? 302 : 404
    expect((await load(memberBillingRoute, `/admin/miembros/${member.userId}/cobro`, cookie, { userId: member.userId })).status).toBe(
      status,
    )
    expect((await pause(member.userId, { intent: 'pause-collection', resumesOn: inDays(30) }, cookie)).status).toBe(status)
    expect((await pause(member.userId, { intent: 'resume-collection' }, cookie)).status).toBe(status)
    expect(member.sub.pause_collection ?? null).toBeNull()
    expect(await auditOf('billing_paused', member.userId)).toEqual([])
  })

  test("an admin pauses until a date (void invoices), the member keeps premium and is told; Stripe resumes it, or 'Reanudar cobro'", async () => {
    const member = await subscriber()
    await deliver('customer.subscription.created', { id: member.sub.id, customer: member.customer })
    const page = await load(memberBillingRoute, `/admin/miembros/${member.userId}/cobro`, people.admin.cookie, { userId: member.userId })
    expect(page.status).toBe(200)
    expect(page.data.subscriptions[0].id).toBe(member.sub.id)

    const day = inDays(40)
    const paused = await pause(member.userId, { intent: 'pause-collection', resumesOn: day }, people.admin.cookie)
    expect(paused.status).toBe(200)
    expect(paused.data.message.title).toBe(PAUSE_MESSAGES.paused)
    const call = fake.requests.filter((r) => r.path === `/v1/subscriptions/${member.sub.id}`).at(-1)!
    expect(call.form.get('pause_collection[behavior]')).toBe('void')
    const resumesAt = Number(call.form.get('pause_collection[resumes_at]'))
    expect(resumesAt).toBeGreaterThan(now() + 38 * DAY)
    const row = await rowOf(member.sub.id)
    expect(row.pausedUntil?.getTime()).toBe(resumesAt * 1000)
    expect(await isPremium(member.userId)).toBe(true)
    const told = (await load(profileRoute, '/perfil', member.cookie)).data.membership.paused.text
    expect(told).toMatch(/^Tu cobro está en pausa hasta el \d+ de \w+ de \d{4}$/)
    expect(await auditOf('billing_paused', member.userId)).toEqual([
      { actor: people.admin.userId, target: member.userId, details: { subscriptionId: member.sub.id, resumesOn: day } },
    ])
    const pausedList = await listMembers(readMemberFilter(new URLSearchParams('cobro=en-pausa')))
    expect(pausedList.members.map((m) => m.userId)).toEqual([member.userId])

    // Stripe resumes collection itself at resumes_at: the event clears it.
    member.sub.pause_collection = null
    await deliver('customer.subscription.updated', { id: member.sub.id, customer: member.customer })
    expect((await rowOf(member.sub.id)).pausedUntil).toBeNull()
    expect((await membershipOf(member.userId)).paused).toBeNull()

    // Paused again, then resumed by the admin.
    await pause(member.userId, { intent: 'pause-collection', resumesOn: inDays(10) }, people.admin.cookie)
    const resumed = await pause(member.userId, { intent: 'resume-collection' }, people.admin.cookie)
    expect(resumed.status).toBe(200)
    expect(resumed.data.message.title).toBe(PAUSE_MESSAGES.resumed)
    expect(
      fake.requests
        .filter((r) => r.path === `/v1/subscriptions/${member.sub.id}`)
        .at(-1)!
        .form.get('pause_collection'),
    ).toBe('')
    expect((await rowOf(member.sub.id)).pausedUntil).toBeNull()
    expect(await auditOf('billing_resumed', member.userId)).toHaveLength(1)
    const again = await pause(member.userId, { intent: 'resume-collection' }, people.admin.cookie)
    expect([again.status, again.data.message.title]).toEqual([409, PAUSE_MESSAGES.notPaused])
  })

  test('hostile dates and members without a subscription: 4xx with fixed messages, Stripe untouched', async () => {
    const member = await subscriber()
    await deliver('customer.subscription.created', { id: member.sub.id, customer: member.customer })
    const before = fake.requests.length
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ intent: 'pause-collection', resumesOn: inDays(-1) }, 400, PAUSE_MESSAGES.dateInPast],
      [{ intent: 'pause-collection', resumesOn: inDays(0) }, 400, PAUSE_MESSAGES.dateInPast],
      [{ intent: 'pause-collection', resumesOn: inDays(400) }, 400, PAUSE_MESSAGES.dateTooFar],
      [{ intent: 'pause-collection', resumesOn: 'mañana' }, 400, PAUSE_MESSAGES.invalid],
      [{ intent: 'pause-collection', resumesOn: '2027-13-45' }, 400, PAUSE_MESSAGES.invalid],
      [{ intent: 'pause-collection' }, 400, PAUSE_MESSAGES.invalid],
    ]
    for (const [fields, status, message] of cases) {
      const outcome = await pause(member.userId, fields, people.admin.cookie)
      expect([outcome.status, outcome.data.message.title], JSON.stringify(fields)).toEqual([status, message])
    }
    const nobody = await pause(people.member.userId!, { intent: 'pause-collection', resumesOn: inDays(5) }, people.admin.cookie)
    expect([nobody.status, nobody.data.message.title]).toEqual([409, PAUSE_MESSAGES.noSubscription])
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([])
  })
})

/* --- 4. Promotion codes --- */

describe('promotion codes', () => {
  const codes = (fields: Record<string, string>, cookie?: string) => post(codesRoute, '/admin/codigos', fields, cookie)
  const percentCode = (code: string, extra: Record<string, string> = {}) => ({
    intent: 'create-code',
    code,
    kind: 'percent',
    percentOff: '20',
    duration: 'repeating',
    durationMonths: '3',
    ...extra,
  })

  test.each(['anonymous', 'member', 'premium', 'moderator'] as Persona[])(
    '%s can neither see, create nor deactivate codes',
    async (persona) => {
      const cookie = people[persona].cookie
      const status = persona === 'anonymous' ? 302 : 404
      expect((await load(codesRoute, '/admin/codigos', cookie)).status).toBe(status)
      expect((await codes(percentCode(`NOPE-${persona}`), cookie)).status).toBe(status)
      expect((await codes({ intent: 'deactivate-code', codeId: 'promo_fake_1' }, cookie)).status).toBe(status)
      expect(
        await getDb()
          .select()
          .from(promotionCodes)
          .where(eq(promotionCodes.code, `NOPE-${persona.toUpperCase()}`)),
      ).toEqual([])
    },
  )

  test('created as a Stripe coupon and promotion code; redeemed, exhausted, first-time only; its revenue; deactivated', async () => {
    const created = await codes(percentCode('socio-2027', { maxRedemptions: '2', endsOn: '2099-12-31' }), people.admin.cookie)
    expect(created.status).toBe(200)
    expect(created.data.message.title).toBe(CODE_MESSAGES.created)
    const coupon = fake.requests.filter((r) => r.path === '/v1/coupons').at(-1)!
    expect(Object.fromEntries(coupon.form)).toMatchObject({
      percent_off: '20',
      duration: 'repeating',
      duration_in_months: '3',
      name: 'SOCIO-2027',
    })
    const promotion = fake.requests.filter((r) => r.path === '/v1/promotion_codes').at(-1)!
    expect(Object.fromEntries(promotion.form)).toMatchObject({
      'promotion[type]': 'coupon',
      'promotion[coupon]': fake.coupons.at(-1)!.id,
      code: 'SOCIO-2027',
      max_redemptions: '2',
      'restrictions[first_time_transaction]': 'true',
    })
    expect(Number(promotion.form.get('expires_at'))).toBe(Date.UTC(2099, 11, 31, 22, 59) / 1000)
    const [code] = await listCodes()
    expect(code).toMatchObject({
      code: 'SOCIO-2027',
      percentOff: 20,
      duration: 'repeating',
      durationMonths: 3,
      maxRedemptions: 2,
      redemptions: 0,
      state: 'active',
    })
    expect(await auditOf('promotion_code_created')).toContainEqual(expect.objectContaining({ actor: people.admin.userId }))

    // Two new members redeem it at Checkout; the third finds it used up.
    const redeemers: Array<{ member: { userId: string }; customer: string; sub: FakeSubscription }> = []
    for (const index of [1, 2, 3]) {
      const member = await createConfirmedUser()
      const customer = `cus_code_${index}_${Date.now()}`
      await getDb().update(profiles).set({ stripeCustomerId: customer }).where(eq(profiles.userId, member.userId))
      const sub = {
        id: `sub_code_${index}_${Date.now()}`,
        customer,
        status: 'active',
        current_period_end: now() + 30 * DAY,
        created: now(),
        price: { id: 'price_monthly_89', unit_amount: 7120, interval: 'month' as const },
      }
      const outcome = fake.checkoutWithCode('socio-2027', sub)
      if (index === 3) {
        expect(outcome).toBe('This code has been used up.')
        continue
      }
      expect(typeof outcome).toBe('object')
      await deliver('checkout.session.completed', { id: `cs_${index}`, customer, client_reference_id: member.userId })
      redeemers.push({ member, customer, sub })
      // A customer who already has a subscription cannot bring the code to another one.
      if (index === 1)
        expect(fake.checkoutWithCode('SOCIO-2027', { ...sub, id: `sub_again_${Date.now()}` })).toBe(
          'This code is only for first-time customers.',
        )
    }
    expect((await rowOf(redeemers[0]!.sub.id)).promotionCodeId).toBe(code!.id)

    // Once the discount has run out (it leaves the subscription), the redemption stays counted.
    fake.subscriptions.find((s) => s.id === redeemers[0]!.sub.id)!.promotion_code = null
    await deliver('customer.subscription.updated', { id: redeemers[0]!.sub.id, customer: redeemers[0]!.customer })
    const [after] = await listCodes()
    expect(after).toMatchObject({ redemptions: 2, mrrCents: 2 * 7120, state: 'exhausted' })
    const page = await load(codesRoute, '/admin/codigos', people.admin.cookie)
    expect(page.data.codes[0]).toMatchObject({
      code: 'SOCIO-2027',
      uses: '2 de 2',
      state: 'exhausted',
      discount: '20 %',
      duration: '3 meses',
    })
    const money = (await loadDashboard(30)).money
    expect(money.newWithCode).toBeGreaterThanOrEqual(2)
    expect(money.codeShare).toBeGreaterThan(0)

    const off = await codes({ intent: 'deactivate-code', codeId: code!.id }, people.admin.cookie)
    expect([off.status, off.data.message.title]).toEqual([200, CODE_MESSAGES.deactivated])
    expect(
      fake.requests
        .filter((r) => r.path === `/v1/promotion_codes/${code!.id}`)
        .at(-1)!
        .form.get('active'),
    ).toBe('false')
    expect(fake.promotionCodes.find((p) => p.id === code!.id)!.active).toBe(false)
    expect((await listCodes())[0]!.state).toBe('inactive')
    expect(await auditOf('promotion_code_deactivated')).toHaveLength(1)
    const twice = await codes({ intent: 'deactivate-code', codeId: code!.id }, people.admin.cookie)
    expect([twice.status, twice.data.message.title]).toEqual([409, CODE_MESSAGES.alreadyInactive])
    const unknown = await codes({ intent: 'deactivate-code', codeId: 'promo_nadie' }, people.admin.cookie)
    expect([unknown.status, unknown.data.message.title]).toEqual([404, CODE_MESSAGES.notFound])
  })

  test('an amount off, for ever: the coupon in cents of euros', async () => {
    const created = await codes(
      { intent: 'create-code', code: 'EMPRESA-10', kind: 'amount', amountOff: '10.50', duration: 'forever' },
      people.admin.cookie,
    )
    expect(created.status).toBe(200)
    const coupon = fake.requests.filter((r) => r.path === '/v1/coupons').at(-1)!
    expect(Object.fromEntries(coupon.form)).toMatchObject({ amount_off: '1050', currency: 'eur', duration: 'forever' })
    expect(coupon.form.has('duration_in_months')).toBe(false)
    const duplicate = await codes(
      { intent: 'create-code', code: 'empresa-10', kind: 'percent', percentOff: '5', duration: 'once' },
      people.admin.cookie,
    )
    expect([duplicate.status, duplicate.data.message.title]).toEqual([409, CODE_MESSAGES.codeTaken])
  })

  test('hostile inputs: 400 with the field message, nothing reaches Stripe', async () => {
    const before = fake.requests.length
    const cases: Array<[Record<string, string>, string, string]> = [
      [percentCode('MAL\u0007O'), 'code', CODE_MESSAGES.codeChars],
      [percentCode('MAL\u202EO'), 'code', CODE_MESSAGES.codeChars],
      [percentCode('CON ESPACIO'), 'code', CODE_MESSAGES.codeChars],
      [percentCode('AÑO'), 'code', CODE_MESSAGES.codeChars],
      [percentCode('A'.repeat(41)), 'code', CODE_MESSAGES.codeTooLong],
      [percentCode('AB'), 'code', CODE_MESSAGES.codeTooShort],
      [percentCode(''), 'code', CODE_MESSAGES.codeRequired],
      [percentCode('PORCIENTO', { percentOff: '101' }), 'percentOff', CODE_MESSAGES.percent],
      [percentCode('PORCIENTO', { percentOff: '0' }), 'percentOff', CODE_MESSAGES.percent],
      [percentCode('PORCIENTO', { percentOff: '' }), 'percentOff', CODE_MESSAGES.percent],
      [{ ...percentCode('IMPORTE'), kind: 'amount', amountOff: '0' }, 'amountOff', CODE_MESSAGES.amount],
      [{ ...percentCode('IMPORTE'), kind: 'amount', amountOff: '-5' }, 'amountOff', CODE_MESSAGES.amount],
      [{ ...percentCode('IMPORTE'), kind: 'amount', amountOff: '0.001' }, 'amountOff', CODE_MESSAGES.amount],
      [{ ...percentCode('IMPORTE'), kind: 'amount', amountOff: '1e9' }, 'amountOff', CODE_MESSAGES.amount],
      [percentCode('MESES', { durationMonths: '' }), 'durationMonths', CODE_MESSAGES.months],
      [percentCode('MESES', { durationMonths: '37' }), 'durationMonths', CODE_MESSAGES.months],
      [percentCode('USOS', { maxRedemptions: '0' }), 'maxRedemptions', CODE_MESSAGES.maxRedemptions],
      [percentCode('FECHA', { endsOn: '2020-01-01' }), 'endsOn', CODE_MESSAGES.endsOnPast],
      [percentCode('FECHA', { endsOn: 'ayer' }), 'endsOn', CODE_MESSAGES.endsOn],
      [percentCode('TIPO', { kind: 'regalo' }), 'kind', CODE_MESSAGES.kind],
      [percentCode('DURA', { duration: 'siempre' }), 'duration', CODE_MESSAGES.duration],
    ]
    for (const [fields, field, message] of cases) {
      const outcome = await codes(fields, people.admin.cookie)
      expect(outcome.status, `${field}: ${JSON.stringify(fields).slice(0, 60)}`).toBe(400)
      expect(outcome.data.message.title).toBe(CODE_MESSAGES.invalid)
      expect(outcome.data.submission.error[field], `${field}: ${JSON.stringify(fields).slice(0, 60)}`).toEqual([message])
    }
    const huge = await codes(percentCode('X'.repeat(100_000)), people.admin.cookie)
    expect(huge.status).toBe(400)
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([])
  })

  concurrencyTest('the same code created twice at once, and deactivated twice at once: one of each', async () => {
    const [a, b] = await Promise.all([
      codes(percentCode('A-LA-VEZ'), people.admin.cookie),
      codes(percentCode('A-LA-VEZ'), people.admin.cookie),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const rows = await getDb().select({ id: promotionCodes.id }).from(promotionCodes).where(eq(promotionCodes.code, 'A-LA-VEZ'))
    expect(rows).toHaveLength(1)
    const [c, d] = await Promise.all([
      codes({ intent: 'deactivate-code', codeId: rows[0]!.id }, people.admin.cookie),
      codes({ intent: 'deactivate-code', codeId: rows[0]!.id }, people.admin.cookie),
    ])
    expect([c.status, d.status].sort()).toEqual([200, 409])
    const audits = await auditOf('promotion_code_deactivated')
    expect(audits.filter((line) => (line.details as { code?: string }).code === 'A-LA-VEZ')).toHaveLength(1)
  })
})
