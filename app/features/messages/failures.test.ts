import { and, eq, sql } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { profiles } from '~/features/account/schema'
import { failStatements, getDb } from '~/platform/db/client.server'
import { UNAVAILABLE } from '~/platform/http/responses.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { setMailTransport } from '~/platform/mail/mail.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { formRequest, run } from '../../../tests/setup/requests'
import { MESSAGES } from './limits'
import * as messagesRoute from './messages.route'
import { conversations, messageBlocks, messages } from './schema'

/*
 * The failure drill of private messages (house rule: the member keeps the page and what they
 * typed, with a Spanish message; the database away is a 503 with Retry-After; nothing half-done;
 * a retry after recovery is done exactly once).
 */

useTestDatabase()
let disarm: (() => void) | undefined
afterEach(() => {
  disarm?.()
  disarm = undefined
  setMailTransport(undefined)
})

const context = { cspNonce: 'test' }
const post = (fields: Record<string, string>, cookie?: string) =>
  run(() => messagesRoute.action({ request: formRequest('/mensajes', fields, { cookie }), params: {}, context } as any))
let keys = 0
const newKey = () => `drill${Date.now().toString(36)}x${(keys++).toString(36)}abcdef`

/** The fixed 503 of an action whose database went away: its own title, the house's description, Retry-After. */
function expectUnavailable(outcome: Awaited<ReturnType<typeof post>>, title: string) {
  expect(outcome.status).toBe(503)
  expect(outcome.headers.get('Retry-After')).toBe('5')
  expect(outcome.data.message).toEqual({ title, description: UNAVAILABLE.description })
}

const pairOf = (one: string, other: string) =>
  getDb()
    .select({ id: conversations.id, aUnread: conversations.aUnread, bUnread: conversations.bUnread, state: conversations.state })
    .from(conversations)
    .where(
      sql`(${conversations.userA} = ${one} and ${conversations.userB} = ${other}) or (${conversations.userA} = ${other} and ${conversations.userB} = ${one})`,
    )
const unreadOf = async (userId: string) =>
  (await getDb().select({ unread: profiles.unreadMessages }).from(profiles).where(eq(profiles.userId, userId)))[0]!.unread
const messagesIn = (conversationId: string) =>
  getDb().select({ id: messages.id, body: messages.body }).from(messages).where(eq(messages.conversationId, conversationId))
const unreadEmails = (recipientId: string) =>
  getDb()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.name, 'messages.unread-email'), sql`${jobs.payload}->>'recipientId' = ${recipientId}`))

describe('sending a message while the database is away', () => {
  test('the first message: 503, the words back, no conversation, no counts; sent again: one message, counted once', async () => {
    const [ana, bea] = await Promise.all([createPersona('premium'), createPersona('premium')])
    const fields = { intent: 'send', recipientId: bea.userId!, body: 'Hola Bea, ¿hablamos de tu ronda?', key: newKey() }
    // The last write of the transaction fails: everything before it goes with it.
    disarm = failStatements(/update "profiles" set .*"unread_messages"/)
    const failed = await post(fields, ana.cookie)
    expectUnavailable(failed, MESSAGES.invalid)
    expect(failed.data.submission.initialValue).toMatchObject({ body: fields.body, key: fields.key })
    expect(await pairOf(ana.userId!, bea.userId!)).toEqual([])
    expect(await unreadOf(bea.userId!)).toBe(0)
    expect(await unreadEmails(bea.userId!)).toEqual([])

    const again = await post(fields, ana.cookie)
    expect(again.status).toBe(200)
    expect(again.data.message.title).toBe(MESSAGES.sent)
    const [conversation] = await pairOf(ana.userId!, bea.userId!)
    expect(await messagesIn(conversation!.id)).toEqual([{ id: again.data.messageId, body: fields.body }])
    expect(await unreadOf(bea.userId!)).toBe(1)
    expect(await unreadEmails(bea.userId!)).toHaveLength(1)
    // The same key a third time (a lost answer): the first answer, nothing stored or counted again.
    const third = await post(fields, ana.cookie)
    expect(third.data.messageId).toBe(again.data.messageId)
    expect(await messagesIn(conversation!.id)).toHaveLength(1)
    expect(await unreadOf(bea.userId!)).toBe(1)
  })

  test('a reply: the message and its conversation counters stand or fall together', async () => {
    const [ana, bea] = await Promise.all([createPersona('premium'), createPersona('premium')])
    const first = await post({ intent: 'send', recipientId: bea.userId!, body: 'Primera', key: newKey() }, ana.cookie)
    expect((await post({ intent: 'accept', conversationId: first.data.conversationId }, bea.cookie)).status).toBe(200)
    const [before] = await pairOf(ana.userId!, bea.userId!)
    const fields = { intent: 'send', conversationId: first.data.conversationId, body: 'Segunda', key: newKey() }
    disarm = failStatements(/update "conversations" set .*"last_message_id"/)
    expectUnavailable(await post(fields, ana.cookie), MESSAGES.invalid)
    expect(await pairOf(ana.userId!, bea.userId!)).toEqual([before])
    expect(await messagesIn(first.data.conversationId)).toHaveLength(1)
    expect((await post(fields, ana.cookie)).status).toBe(200)
    expect(await messagesIn(first.data.conversationId)).toHaveLength(2)
    expect(await unreadOf(bea.userId!)).toBe(2)
  })

  test('with mail failing the message is sent all the same; its e-mail waits in the queue', async () => {
    const [ana, bea] = await Promise.all([createPersona('premium'), createPersona('premium')])
    setMailTransport({
      name: 'smtp',
      send: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' })),
    })
    const sent = await post({ intent: 'send', recipientId: bea.userId!, body: 'Sin correo', key: newKey() }, ana.cookie)
    expect(sent.status).toBe(200)
    await getDb()
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(eq(jobs.name, 'messages.unread-email'))
    await runDueJobs({ names: ['messages.unread-email', 'mail.send'] })
    expect(await messagesIn(sent.data.conversationId)).toHaveLength(1)
    expect(await unreadOf(bea.userId!)).toBe(1)
    const mails = await getDb()
      .select({ status: jobs.status })
      .from(jobs)
      .where(and(eq(jobs.name, 'mail.send'), sql`${jobs.payload}->>'to' = ${bea.email}`))
    expect(mails.every((mail) => mail.status === 'queued')).toBe(true)
  })
})

describe('answering a request and blocking while the database is away', () => {
  test("'Aceptar': 503, still a request; again: accepted", async () => {
    const [ana, bea] = await Promise.all([createPersona('premium'), createPersona('premium')])
    const first = await post({ intent: 'send', recipientId: bea.userId!, body: 'Hola', key: newKey() }, ana.cookie)
    disarm = failStatements(/update "conversations" set "state"/)
    expectUnavailable(
      await post({ intent: 'accept', conversationId: first.data.conversationId }, bea.cookie),
      'No se pudo aceptar la solicitud',
    )
    expect((await pairOf(ana.userId!, bea.userId!))[0]!.state).toBe('request')
    const accepted = await post({ intent: 'accept', conversationId: first.data.conversationId }, bea.cookie)
    expect(accepted.status).toBe(200)
    expect(accepted.data.message.title).toBe(MESSAGES.accepted)
    expect((await pairOf(ana.userId!, bea.userId!))[0]!.state).toBe('accepted')
  })

  test("'Bloquear': 503, no block and the unread count untouched; again: one block, the conversation read", async () => {
    const [ana, bea] = await Promise.all([createPersona('premium'), createPersona('premium')])
    await post({ intent: 'send', recipientId: bea.userId!, body: 'Spam', key: newKey() }, ana.cookie)
    expect(await unreadOf(bea.userId!)).toBe(1)
    // The block is written, then the conversation's unread cleared: the second write fails.
    disarm = failStatements(/update "conversations" set .*"[ab]_last_read_at"/)
    expectUnavailable(await post({ intent: 'block', memberId: ana.userId! }, bea.cookie), 'No se pudo bloquear al miembro')
    const blocks = () =>
      getDb().select({ blockedId: messageBlocks.blockedId }).from(messageBlocks).where(eq(messageBlocks.blockerId, bea.userId!))
    expect(await blocks()).toEqual([])
    expect(await unreadOf(bea.userId!)).toBe(1)
    const blocked = await post({ intent: 'block', memberId: ana.userId! }, bea.cookie)
    expect(blocked.status).toBe(200)
    expect(blocked.data.message.title).toBe(MESSAGES.blocked)
    expect(await blocks()).toEqual([{ blockedId: ana.userId }])
    expect(await unreadOf(bea.userId!)).toBe(0)
  })

  test('a guard that cannot reach the database: 503 with the service message for every intent, the fields back', async () => {
    const ana = await createPersona('premium')
    for (const fields of [
      { intent: 'send', recipientId: crypto.randomUUID(), body: 'Lo que escribí', key: newKey() },
      { intent: 'accept', conversationId: crypto.randomUUID() },
      { intent: 'block', memberId: crypto.randomUUID() },
    ] as Array<Record<string, string>>) {
      disarm = failStatements(/"session"/)
      const outcome = await post(fields, ana.cookie)
      expectUnavailable(outcome, UNAVAILABLE.title)
      expect(outcome.data.submission.initialValue).toMatchObject(fields)
    }
  })
})
