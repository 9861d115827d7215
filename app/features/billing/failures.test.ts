import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { profiles } from '~/features/account/schema'
import * as memberRoute from '~/features/members/member.route'
import { auditLog } from '~/platform/audit/schema'
import { addDays, DEFAULT_TIME_ZONE, toWallTime } from '~/platform/dates'
import { failStatements, getDb } from '~/platform/db/client.server'
import { UNAVAILABLE } from '~/platform/http/responses.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { setMailTransport } from '~/platform/mail/mail.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { completeProfile, createPeople, type People } from '../../../tests/setup/members'
import { createConfirmedUser, formRequest, getRequest, queuedMails, run } from '../../../tests/setup/requests'
import * as checkoutRoute from './checkout.route'
import * as codesRoute from './codes.route'
import * as memberBillingRoute from './member-billing.route'
import * as testCheckoutRoute from './test-checkout.route'
import { CODE_MESSAGES, PAUSE_MESSAGES } from './limits'
import { REFUND_MESSAGES } from './refund-limits'
import { invoices, promotionCodes, refunds, subscriptions } from './schema'

/*
 * The failure drill of billing's console actions (house rule: the admin keeps the page and what
 * they typed, with a Spanish message; the database away is a 503 with Retry-After; nothing
 * half-done — no refund without its audit line or the other way round; a retry after recovery is
 * done exactly once). Without configuration: the local test checkout, the embedded default.
 */

useTestDatabase()
const context = { cspNonce: 'test' }
let people: People
let disarm: (() => void) | undefined
beforeAll(async () => {
  people = await createPeople()
})
afterEach(() => {
  disarm?.()
  disarm = undefined
  setMailTransport(undefined)
})

/** A member who paid 89 € through the local test checkout (one invoice, one live test subscription). */
async function payingMember() {
  const member = await createConfirmedUser()
  await completeProfile(member.userId)
  const started = await run(() =>
    checkoutRoute.action({
      request: formRequest('/billing/checkout', { intent: 'checkout', plan: 'monthly' }, { cookie: member.cookie, ip: '127.0.0.1' }),
      params: {},
      context,
    } as any),
  )
  const paid = await run(() =>
    testCheckoutRoute.action({
      request: formRequest(started.location!, { intent: 'pay' }, { cookie: member.cookie, ip: '127.0.0.1' }),
      params: {},
      context,
    } as any),
  )
  expect(paid.location).toBe('/success')
  const [invoice] = await getDb().select({ id: invoices.id }).from(invoices).where(eq(invoices.userId, member.userId))
  return { ...member, invoiceId: invoice!.id }
}

function expectUnavailable(outcome: Awaited<ReturnType<typeof run>>, title: string) {
  expect(outcome.status).toBe(503)
  expect(outcome.headers.get('Retry-After')).toBe('5')
  expect(outcome.data.message).toEqual({ title, description: UNAVAILABLE.description })
}

const auditOf = (action: string, targetUserId?: string) =>
  getDb()
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), targetUserId ? eq(auditLog.targetUserId, targetUserId) : undefined))
const premiumOf = async (userId: string) =>
  (await getDb().select({ isPremium: profiles.isPremium }).from(profiles).where(eq(profiles.userId, userId)))[0]!.isPremium
const refundOf = (invoiceId: string) =>
  getDb().select({ status: refunds.status, creditNoteId: refunds.creditNoteId }).from(refunds).where(eq(refunds.invoiceId, invoiceId))
const refundAs = (member: { userId: string; invoiceId: string }, cookie = people.admin.cookie) =>
  run(() =>
    memberRoute.action({
      request: formRequest(`/usuario/${member.userId}`, { intent: 'refund', invoiceId: member.invoiceId }, { cookie }),
      params: { userId: member.userId },
      context,
    } as any),
  )
const REFUND_MAIL = 'Te hemos devuelto tu pago de 89,00\u00a0€'

describe("an admin's refund while the database is away", () => {
  test('taken away before anything is written: 503 with the fixed message, nothing refunded; again: refunded once', async () => {
    const member = await payingMember()
    disarm = failStatements(/insert into "refunds"/)
    expectUnavailable(await refundAs(member), REFUND_MESSAGES.failed)
    expect(await refundOf(member.invoiceId)).toEqual([])
    expect(await premiumOf(member.userId)).toBe(true)
    expect((await refundAs(member)).status).toBe(302)
    expect(await refundOf(member.invoiceId)).toEqual([{ status: 'done', creditNoteId: `test_cn_${member.invoiceId}` }])
    expect(await auditOf('payment_refunded', member.userId)).toHaveLength(1)
  })

  test('taken away after the provider refunded: no half-recorded refund (no audit line, premium kept); again: finished exactly once', async () => {
    const member = await payingMember()
    // The last transaction's first write: the subscription's and premium's rows, the refund done, its audit line and e-mail go together.
    disarm = failStatements(/insert into "audit_log"/)
    expectUnavailable(await refundAs(member), REFUND_MESSAGES.failed)
    expect(await refundOf(member.invoiceId)).toEqual([{ status: 'pending', creditNoteId: null }])
    expect(await auditOf('payment_refunded', member.userId)).toEqual([])
    expect(await premiumOf(member.userId)).toBe(true)
    expect(await queuedMails(member.email, REFUND_MAIL)).toEqual([])
    const [invoice] = await getDb()
      .select({ refundedCents: invoices.refundedCents })
      .from(invoices)
      .where(eq(invoices.id, member.invoiceId))
    expect(invoice!.refundedCents).toBe(0)
    // The admin's card offers it again: the refund is not done.
    const page = await run(() =>
      memberRoute.loader({
        request: getRequest(`/usuario/${member.userId}`, { cookie: people.admin.cookie }),
        params: { userId: member.userId },
        context,
      } as any),
    )
    expect(page.data.refund).toMatchObject({ invoiceId: member.invoiceId, refunded: false })

    expect((await refundAs(member)).status).toBe(302)
    expect(await refundOf(member.invoiceId)).toEqual([{ status: 'done', creditNoteId: `test_cn_${member.invoiceId}` }])
    expect(await auditOf('payment_refunded', member.userId)).toHaveLength(1)
    expect(await premiumOf(member.userId)).toBe(false)
    expect(await queuedMails(member.email, REFUND_MAIL)).toHaveLength(1)
    const again = await refundAs(member)
    expect(again.status).toBe(409)
    expect(again.data.message.title).toBe(REFUND_MESSAGES.already)
    expect(await auditOf('payment_refunded', member.userId)).toHaveLength(1)
  })

  test('with mail failing the refund is done; its e-mail waits in the queue', async () => {
    const member = await payingMember()
    setMailTransport({
      name: 'smtp',
      send: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' })),
    })
    expect((await refundAs(member)).status).toBe(302)
    await runDueJobs({ names: ['mail.send'] })
    expect(await refundOf(member.invoiceId)).toEqual([{ status: 'done', creditNoteId: `test_cn_${member.invoiceId}` }])
    const mails = await getDb()
      .select({ status: jobs.status })
      .from(jobs)
      .where(
        and(eq(jobs.name, 'mail.send'), sql`${jobs.payload}->>'subject' = ${REFUND_MAIL}`, sql`${jobs.payload}->>'to' = ${member.email}`),
      )
    expect(mails).toEqual([{ status: 'queued' }])
  })
})

describe('a promotion code created while the database is away', () => {
  const create = (fields: Record<string, string>) =>
    run(() =>
      codesRoute.action({ request: formRequest('/admin/codigos', fields, { cookie: people.admin.cookie }), params: {}, context } as any),
    )

  test('503 with the fixed message and the fields back, no code and no audit line; again: one code, one line', async () => {
    const fields = {
      intent: 'create-code',
      code: `CAIDA-${Date.now().toString(36).toUpperCase()}`,
      kind: 'percent',
      percentOff: '15',
      duration: 'once',
    }
    disarm = failStatements(/insert into "audit_log"/)
    const failed = await create(fields)
    expectUnavailable(failed, CODE_MESSAGES.failed)
    expect(failed.data.submission.initialValue).toMatchObject({ code: fields.code, percentOff: '15' })
    const rows = () => getDb().select({ id: promotionCodes.id }).from(promotionCodes).where(eq(promotionCodes.code, fields.code))
    expect(await rows()).toEqual([])
    const audited = async () =>
      (await auditOf('promotion_code_created')).filter((line) => (line.details as { code?: string }).code === fields.code)
    expect(await audited()).toEqual([])
    const created = await create(fields)
    expect(created.status).toBe(200)
    expect(created.data.message.title).toBe(CODE_MESSAGES.created)
    expect(await rows()).toHaveLength(1)
    expect(await audited()).toHaveLength(1)
    expect((await create(fields)).data.message.title).toBe(CODE_MESSAGES.codeTaken)
  })
})

describe("pausing a member's payments while the database is away", () => {
  const pause = (userId: string, fields: Record<string, string>) =>
    run(() =>
      memberBillingRoute.action({
        request: formRequest(`/admin/miembros/${userId}/cobro`, fields, { cookie: people.admin.cookie }),
        params: { userId },
        context,
      } as any),
    )

  test('503 with the fixed message and the day back, not paused and not audited; again: paused once, one line', async () => {
    const member = await payingMember()
    const resumesOn = addDays(toWallTime(new Date(), DEFAULT_TIME_ZONE).slice(0, 10), 30)
    const pausedUntil = async () =>
      (
        await getDb().select({ pausedUntil: subscriptions.pausedUntil }).from(subscriptions).where(eq(subscriptions.userId, member.userId))
      )[0]!.pausedUntil
    disarm = failStatements(/insert into "audit_log"/)
    const failed = await pause(member.userId, { intent: 'pause-collection', resumesOn })
    expectUnavailable(failed, PAUSE_MESSAGES.failed)
    expect(failed.data.submission.initialValue).toMatchObject({ resumesOn })
    expect(await pausedUntil()).toBeNull()
    expect(await auditOf('billing_paused', member.userId)).toEqual([])
    const paused = await pause(member.userId, { intent: 'pause-collection', resumesOn })
    expect(paused.status).toBe(200)
    expect(paused.data.message.title).toBe(PAUSE_MESSAGES.paused)
    expect(await pausedUntil()).not.toBeNull()
    expect(await auditOf('billing_paused', member.userId)).toHaveLength(1)
  })

  test('the guard cannot reach the database: 503 with the service message, for the refund, a code and a pause alike', async () => {
    const member = await payingMember()
    for (const attempt of [
      () => refundAs(member),
      () =>
        run(() =>
          codesRoute.action({
            request: formRequest('/admin/codigos', { intent: 'create-code', code: 'NUNCA-1' }, { cookie: people.admin.cookie }),
            params: {},
            context,
          } as any),
        ),
      () => pause(member.userId, { intent: 'resume-collection' }),
    ]) {
      disarm = failStatements(/"session"/)
      expectUnavailable(await attempt(), UNAVAILABLE.title)
    }
    expect(await refundOf(member.invoiceId)).toEqual([])
  })
})
