import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { profiles } from '~/features/account/schema'
import { deleteAccount } from '~/features/account/account-deletion.server'
import { moderationReports } from '~/features/moderation/schema'
import { listQueue } from '~/features/moderation/moderation.server'
import { auditLog } from '~/platform/audit/schema'
import { getDb } from '~/platform/db/client.server'
import { jobs } from '~/platform/jobs/schema'
import { getSettings, saveSettings } from '~/platform/settings/settings.server'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { BASE_URL, type createConfirmedUser, formRequest, getRequest, run, TEST_IP } from '../../../tests/setup/requests'
import * as conversationRoute from './conversation.route'
import { sendUnreadMessagesEmail } from './email.server'
import { MESSAGES } from './limits'
import { messagesData } from './member-data.server'
import * as messagesRoute from './messages.route'
import * as newConversationRoute from './new-conversation.route'
import { conversations, messages } from './schema'

useTestDatabase()

const context = { cspNonce: 'test' }
type Person = Awaited<ReturnType<typeof createConfirmedUser>>
const person = (persona: 'member' | 'premium' | 'moderator' | 'admin', names?: { firstName?: string; lastName?: string }) =>
  createPersona(persona, names) as Promise<Person>

let keys = 0
const newKey = () => `k${Date.now().toString(36)}x${(keys++).toString(36)}abcdef`

/** A post to /mensajes (the list's action; the conversation pages share it). */
const post = (fields: Record<string, string>, cookie?: string, path = '/mensajes') =>
  run(() => messagesRoute.action({ request: formRequest(path, fields, { cookie }), params: {}, context } as any))
const write = (from: Person | { cookie?: string }, to: Person, body = 'Hola, ¿hablamos?', key = newKey()) =>
  post({ intent: 'send', recipientId: to.userId, body, key }, from.cookie)
const reply = (from: { cookie?: string }, conversationId: string, body = 'Respuesta', key = newKey()) =>
  run(() =>
    conversationRoute.action({
      request: formRequest(`/mensajes/${conversationId}`, { intent: 'send', conversationId, body, key }, { cookie: from.cookie }),
      params: { conversationId },
      context,
    } as any),
  )
const list = (who: { cookie?: string }) =>
  run(() => messagesRoute.loader({ request: getRequest('/mensajes', { cookie: who.cookie }), params: {}, context } as any))
const page = (who: { cookie?: string }, conversationId: string, query = '') =>
  run(() =>
    conversationRoute.loader({
      request: getRequest(`/mensajes/${conversationId}${query}`, { cookie: who.cookie }),
      params: { conversationId },
      context,
    } as any),
  )
const unreadOf = async (userId: string) =>
  (await getDb().select({ unread: profiles.unreadMessages }).from(profiles).where(eq(profiles.userId, userId)))[0]!.unread
const conversationCount = async (one: string, other: string) =>
  (
    await getDb()
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        sql`(${conversations.userA} = ${one} and ${conversations.userB} = ${other}) or (${conversations.userA} = ${other} and ${conversations.userB} = ${one})`,
      )
  ).length
const messageCount = async (conversationId: string) =>
  (await getDb().select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId))).length
async function suspend(userId: string) {
  await getDb()
    .update(profiles)
    .set({ suspendedUntil: new Date(Date.now() + 86_400_000), suspensionReason: 'Spam repetido' })
    .where(eq(profiles.userId, userId))
}
async function accepted(from: Person, to: Person) {
  const sent = await write(from, to)
  expect(sent.status).toBe(200)
  expect((await post({ intent: 'accept', conversationId: sent.data.conversationId }, to.cookie)).status).toBe(200)
  return sent.data.conversationId as string
}

describe('who may send', () => {
  test('authorization matrix: anonymous, without premium, premium, moderator, admin, suspended, blocked, a third person', async () => {
    const recipient = await person('premium', { firstName: 'Lucía', lastName: 'Mora' })

    const anonymous = await write({}, recipient)
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toMatch(/^\/auth/)

    const member = await person('member')
    const refused = await write(member, recipient)
    expect(refused.status).toBe(403)
    expect(refused.data.message).toEqual({ title: 'Acceso Premium Requerido', description: MESSAGES.premium })
    // The conversation page offers them the premium prompt instead of the box.
    const opened = await run(() =>
      newConversationRoute.loader({
        request: getRequest(`/mensajes/con/${recipient.userId}`, { cookie: member.cookie }),
        params: { userId: recipient.userId },
        context,
      } as any),
    )
    expect(opened.data.premium).toBe(false)

    for (const persona of ['premium', 'moderator', 'admin'] as const) {
      const sender = await person(persona)
      const sent = await write(sender, recipient)
      expect(sent.status, persona).toBe(200)
      expect(sent.data.message.title).toBe(MESSAGES.sent)
    }

    const suspended = await person('premium')
    await suspend(suspended.userId)
    const readOnly = await write(suspended, recipient)
    expect(readOnly.status).toBe(403)
    expect(readOnly.data.message.title).toBe('Tu cuenta está en modo lectura')
    expect(readOnly.data.message.description).toContain('Spam repetido')

    const blocked = await person('premium')
    expect((await post({ intent: 'block', memberId: blocked.userId }, recipient.cookie)).status).toBe(200)
    const toBlocker = await write(blocked, recipient)
    expect(toBlocker.status).toBe(403)
    // Never told they were blocked: only that the member does not accept messages.
    expect(toBlocker.data.message.title).toBe(MESSAGES.notAccepting)

    // A third person: the conversation does not exist for them, to read or to write.
    const [ana, ben, third] = [await person('premium'), await person('premium'), await person('premium')]
    const conversationId = (await write(ana, ben)).data.conversationId
    const peek = await page(third, conversationId)
    expect(peek.status).toBe(404)
    expect(peek.data.message.title).toBe(MESSAGES.notFound)
    const intrude = await reply(third, conversationId)
    expect(intrude.status).toBe(404)
    expect(await messageCount(conversationId)).toBe(1)
    for (const intent of ['accept', 'ignore']) {
      expect((await post({ intent, conversationId }, third.cookie)).status, intent).toBe(404)
    }
    expect((await page(third, 'no-es-un-id')).status).toBe(404)
    expect((await page(third, crypto.randomUUID())).status).toBe(404)
  })

  test('hostile input: oversized, control characters, a wrong content type, unknown ids, oneself — a 4xx with a fixed message', async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const long = await write(ana, ben, 'x'.repeat(2001))
    expect(long.status).toBe(400)
    expect(long.data.message.title).toBe(MESSAGES.invalid)
    expect(long.data.submission.error.body).toEqual([MESSAGES.tooLong])
    expect((await write(ana, ben, 'hola\u0000mundo')).status).toBe(400)
    expect((await write(ana, ben, 'texto \u202Eoculto')).status).toBe(400)
    expect((await write(ana, ben, '   ')).status).toBe(400)
    expect((await post({ intent: 'send', recipientId: ben.userId, body: 'Hola', key: 'corta' }, ana.cookie)).status).toBe(400)
    expect(
      (await post({ intent: 'send', recipientId: ben.userId, body: 'Hola', key: "x'; drop table messages;--" }, ana.cookie)).status,
    ).toBe(400)
    const unknown = await post({ intent: 'send', recipientId: crypto.randomUUID(), body: 'Hola', key: newKey() }, ana.cookie)
    expect(unknown.status).toBe(404)
    const self = await post({ intent: 'send', recipientId: ana.userId, body: 'Hola', key: newKey() }, ana.cookie)
    expect(self.status).toBe(400)
    expect(self.data.message.title).toBe(MESSAGES.self)
    expect((await post({ intent: 'send', body: 'Hola', key: newKey() }, ana.cookie)).status).toBe(400)
    expect((await post({ intent: 'accept', conversationId: 'x' }, ana.cookie)).status).toBe(400)
    expect((await post({ intent: 'borrar-todo' }, ana.cookie)).status).toBe(400)
    const json = await run(() =>
      messagesRoute.action({
        request: new Request(`${BASE_URL}/mensajes`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: ana.cookie, Origin: BASE_URL, 'x-app-client-ip': TEST_IP },
          body: JSON.stringify({ intent: 'send', recipientId: ben.userId, body: 'Hola', key: newKey() }),
        }),
        params: {},
        context,
      } as any),
    )
    expect(json.status).toBe(415)
    // A line of 2,000 characters with its breaks is a message.
    const fits = await write(ana, ben, `${'a'.repeat(999)}\n${'b'.repeat(1000)}`)
    expect(fits.status).toBe(200)
    expect(await conversationCount(ana.userId, ben.userId)).toBe(1)
  })
})

describe('consent', () => {
  test("a first message is a request: 'Pendiente' for the sender, one until accepted; 'Aceptar' opens the conversation", async () => {
    const [ana, ben] = [
      await person('premium', { firstName: 'Ana', lastName: 'Ruiz' }),
      await person('premium', { firstName: 'Ben', lastName: 'Sol' }),
    ]
    const first = await write(ana, ben, 'Hola Ben, vi tu charla en https://example.com/charla.')
    expect(first.status).toBe(200)
    const conversationId = first.data.conversationId as string

    const second = await write(ana, ben, '¿Lo viste?')
    expect(second.status).toBe(409)
    expect(second.data.message.title).toBe(MESSAGES.oneUntilAccepted)
    expect((await reply(ana, conversationId, 'Insisto')).status).toBe(409)

    const sender = await list(ana)
    expect(sender.data.conversations).toEqual([expect.objectContaining({ id: conversationId, isPending: true, isRequest: false })])
    expect(sender.data.requests).toEqual([])
    const recipient = await list(ben)
    expect(recipient.data.requests).toEqual([
      expect.objectContaining({ id: conversationId, isRequest: true, unread: 1, other: expect.objectContaining({ name: 'Ana Ruiz' }) }),
    ])
    expect(recipient.data.requests[0].lastLine).toContain('Hola Ben')
    const opened = await page(ben, conversationId)
    expect(opened.data.request).toBe('waiting')
    expect(opened.data.messages).toEqual([
      expect.objectContaining({ mine: false, body: 'Hola Ben, vi tu charla en https://example.com/charla.' }),
    ])

    // The sender cannot accept their own request.
    expect((await post({ intent: 'accept', conversationId }, ana.cookie)).status).toBe(409)
    const accept = await post({ intent: 'accept', conversationId }, ben.cookie)
    expect(accept.status).toBe(200)
    expect(accept.data.message.title).toBe(MESSAGES.accepted)
    expect((await reply(ben, conversationId, 'Claro, Ana')).status).toBe(200)
    expect((await reply(ana, conversationId, 'Genial')).status).toBe(200)
    // Writing read what came before: Ana has nothing unread, Ben has her last line.
    expect((await list(ana)).data.conversations[0]).toEqual(expect.objectContaining({ isPending: false, unread: 0 }))
    expect((await list(ben)).data.conversations[0]).toEqual(expect.objectContaining({ isRequest: false, unread: 1, lastLine: 'Genial' }))
    expect(await messageCount(conversationId)).toBe(3)
  })

  test("'Ignorar' is not announced: the sender still sees 'Pendiente' and cannot write again; the request leaves the list and the count", async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const conversationId = (await write(ana, ben)).data.conversationId
    expect(await unreadOf(ben.userId)).toBe(1)
    const ignored = await post({ intent: 'ignore', conversationId }, ben.cookie)
    expect(ignored.status).toBe(200)
    expect(ignored.data.message.title).toBe(MESSAGES.ignored)
    expect(await unreadOf(ben.userId)).toBe(0)
    expect((await list(ben)).data).toEqual(expect.objectContaining({ requests: [], conversations: [] }))
    const sender = await list(ana)
    expect(sender.data.conversations).toEqual([expect.objectContaining({ id: conversationId, isPending: true })])
    const again = await write(ana, ben)
    expect(again.status).toBe(409)
    expect(again.data.message.title).toBe(MESSAGES.oneUntilAccepted)
    expect((await page(ana, conversationId)).data.pending).toBe(true)
  })

  test("who may write to me: 'Nadie', 'Solo miembros con quienes ya he hablado', 'Cualquier miembro'", async () => {
    const [ana, ben, carla] = [await person('premium'), await person('premium'), await person('premium')]
    const known = await accepted(carla, ana)
    for (const policy of ['nobody', 'known', 'anyone', 'cualquiera']) {
      const saved = await post({ intent: 'policy', policy }, ana.cookie)
      expect(saved.status, policy).toBe(policy === 'cualquiera' ? 400 : 200)
      if (policy === 'cualquiera') continue
      expect(saved.data.message.title).toBe(MESSAGES.policySaved)
      const stranger = await write(ben, ana)
      const friend = await reply(carla, known)
      if (policy === 'nobody') {
        expect(stranger.data.message.title).toBe(MESSAGES.notAccepting)
        expect(friend.status).toBe(403)
      } else if (policy === 'known') {
        expect(stranger.status).toBe(403)
        expect(stranger.data.message.title).toBe(MESSAGES.notAccepting)
        expect(friend.status).toBe(200)
      } else {
        expect(stranger.status).toBe(200)
        expect(friend.status).toBe(200)
      }
    }
  })
})

describe("'Bloquear'", () => {
  test('both ways: the blocked cannot write, the blocker is told to unblock, the conversation leaves the blocker’s list; Desbloquear', async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const conversationId = await accepted(ana, ben)
    expect((await reply(ben, conversationId, 'Mensaje sin leer')).status).toBe(200)
    expect(await unreadOf(ana.userId)).toBe(1)

    const blocked = await post({ intent: 'block', memberId: ben.userId }, ana.cookie)
    expect(blocked.status).toBe(200)
    expect(blocked.data.message.title).toBe(MESSAGES.blocked)
    expect(await unreadOf(ana.userId)).toBe(0)
    expect((await list(ana)).data.conversations).toEqual([])
    expect((await list(ben)).data.conversations).toHaveLength(1)

    const fromBlocked = await reply(ben, conversationId)
    expect(fromBlocked.status).toBe(403)
    expect(fromBlocked.data.message.title).toBe(MESSAGES.notAccepting)
    expect((await page(ben, conversationId)).data.cannotWrite).toBe(MESSAGES.notAccepting)
    const fromBlocker = await reply(ana, conversationId)
    expect(fromBlocker.status).toBe(403)
    expect(fromBlocker.data.message.title).toBe(MESSAGES.youBlocked)
    expect((await page(ana, conversationId)).data.blocked).toBe(true)

    expect((await post({ intent: 'block', memberId: ana.userId }, ana.cookie)).status).toBe(400)
    expect((await post({ intent: 'block', memberId: crypto.randomUUID() }, ana.cookie)).status).toBe(404)

    const unblocked = await post({ intent: 'unblock', memberId: ben.userId }, ana.cookie)
    expect(unblocked.data.message.title).toBe(MESSAGES.unblocked)
    expect((await reply(ben, conversationId, 'De nuevo')).status).toBe(200)
    expect((await list(ana)).data.conversations).toHaveLength(1)
  })

  test('a suspended member may still block, unblock, ignore and choose who writes, but not send or accept', async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const conversationId = (await write(ben, ana)).data.conversationId
    await suspend(ana.userId)
    expect((await post({ intent: 'accept', conversationId }, ana.cookie)).status).toBe(403)
    expect((await post({ intent: 'ignore', conversationId }, ana.cookie)).status).toBe(200)
    expect((await post({ intent: 'block', memberId: ben.userId }, ana.cookie)).status).toBe(200)
    expect((await post({ intent: 'unblock', memberId: ben.userId }, ana.cookie)).status).toBe(200)
    expect((await post({ intent: 'policy', policy: 'nobody' }, ana.cookie)).status).toBe(200)
    expect((await page(ana, conversationId)).data.readOnly.title).toBe('Tu cuenta está en modo lectura')
  })
})

describe('limits and kill switches', () => {
  test('60 messages a minute', async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const conversationId = await accepted(ana, ben)
    for (let i = 0; i < 59; i++) expect((await reply(ana, conversationId, `m${i}`)).status).toBe(200)
    const over = await reply(ana, conversationId, 'uno más')
    expect(over.status).toBe(429)
    expect(over.headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(over.data.message.title).toMatch(/^Demasiados intentos/)
    expect(await messageCount(conversationId)).toBe(60)
  })

  test('5 new conversations a day in a member’s first week, 20 afterwards', async () => {
    const newcomer = await person('premium')
    const others = [] as Person[]
    for (let i = 0; i < 6; i++) others.push(await person('member'))
    for (const other of others.slice(0, 5)) expect((await write(newcomer, other)).status).toBe(200)
    const sixth = await write(newcomer, others[5]!)
    expect(sixth.status).toBe(429)
    expect(await conversationCount(newcomer.userId, others[5]!.userId)).toBe(0)

    const veteran = await person('premium')
    await getDb()
      .update(profiles)
      .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(profiles.userId, veteran.userId))
    for (let i = 0; i < 20; i++) {
      const other = i < others.length ? others[i]! : await person('member')
      expect((await write(veteran, other)).status, `conversation ${i + 1}`).toBe(200)
    }
    expect((await write(veteran, await person('member'))).status).toBe(429)
  }, 120_000)

  test('the admin settings turn messages off for everyone or for one member, audited', async () => {
    const [admin, ana, ben, carla] = [await person('admin'), await person('premium'), await person('premium'), await person('premium')]
    const current = await getSettings()
    await saveSettings({ ...current, messagesEnabled: false }, admin.userId)
    const off = await write(ana, ben)
    expect(off.status).toBe(403)
    expect(off.data.message.title).toBe(MESSAGES.off)
    await saveSettings({ ...current, messagesEnabled: true, messagesMutedMembers: [ana.userId] }, admin.userId)
    expect((await write(ana, ben)).data.message.title).toBe(MESSAGES.off)
    // Nobody writes to a muted member either.
    expect((await write(carla, ana)).data.message.title).toBe(MESSAGES.notAccepting)
    expect((await write(carla, ben)).status).toBe(200)
    await saveSettings(current, admin.userId)
    expect((await write(ana, ben)).status).toBe(200)
    const audited = await getDb()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings_changed'), eq(auditLog.actorUserId, admin.userId)))
    expect(audited.map((line) => Object.keys(line.details as object))).toEqual(
      expect.arrayContaining([['messagesEnabled'], expect.arrayContaining(['messagesMutedMembers'])]),
    )
  })
})

describe('sending once', () => {
  test('the same idempotency key sent again is stored once and answered as the first', async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const conversationId = await accepted(ana, ben)
    const key = newKey()
    const first = await reply(ana, conversationId, 'Una sola vez', key)
    const retried = await reply(ana, conversationId, 'Una sola vez', key)
    expect(first.status).toBe(200)
    expect(retried.status).toBe(200)
    expect(retried.data.messageId).toBe(first.data.messageId)
    expect(await messageCount(conversationId)).toBe(2)
    expect(await unreadOf(ben.userId)).toBe(2)
    // A first message retried is not a second request.
    const carla = await person('premium')
    const requestKey = newKey()
    expect((await write(carla, ben, 'Hola', requestKey)).status).toBe(200)
    expect((await write(carla, ben, 'Hola', requestKey)).status).toBe(200)
  })

  concurrencyTest('two first messages between the same two members at once make one conversation', async () => {
    const [ana, ben, carla] = [await person('premium'), await person('premium'), await person('premium')]
    const same = await Promise.all([write(ana, ben, 'uno'), write(ana, ben, 'dos')])
    expect(same.map((outcome) => outcome.status).sort()).toEqual([200, 409])
    expect(await conversationCount(ana.userId, ben.userId)).toBe(1)
    const crossed = await Promise.all([write(ana, carla, 'hola Carla'), write(carla, ana, 'hola Ana')])
    expect(crossed.map((outcome) => outcome.status)).toEqual([200, 200])
    expect(await conversationCount(ana.userId, carla.userId)).toBe(1)
    // Whoever came second answered the other's request: the conversation is accepted.
    const [row] = await getDb()
      .select({ state: conversations.state })
      .from(conversations)
      .where(eq(conversations.id, crossed[0]!.data.conversationId))
    expect(row!.state).toBe('accepted')
    const retried = await Promise.all([
      reply(ana, crossed[0]!.data.conversationId, 'x', 'misma-clave-123'),
      reply(ana, crossed[0]!.data.conversationId, 'x', 'misma-clave-123'),
    ])
    expect(retried.map((outcome) => outcome.status)).toEqual([200, 200])
    expect(retried[0]!.data.messageId).toBe(retried[1]!.data.messageId)
  })
})

describe('the pages', () => {
  test('unread counts follow: the top bar’s, the list’s marks, and opening a conversation reads it; older pages', async () => {
    const [ana, ben] = [await person('premium'), await person('premium')]
    const conversationId = await accepted(ana, ben)
    for (let i = 0; i < 34; i++) expect((await reply(ben, conversationId, `mensaje ${i}`)).status).toBe(200)
    expect(await unreadOf(ana.userId)).toBe(34)
    expect((await list(ana)).data.conversations[0].unread).toBe(34)
    const first = await page(ana, conversationId)
    expect(first.data.messages).toHaveLength(30)
    expect(first.data.messages.at(-1).body).toBe('mensaje 33')
    expect(await unreadOf(ana.userId)).toBe(0)
    expect((await list(ana)).data.conversations[0].unread).toBe(0)
    const older = await page(ana, conversationId, `?antes=${first.data.older}`)
    expect(older.data.messages.map((message: { body: string }) => message.body)).toEqual([
      'Hola, ¿hablamos?',
      'mensaje 0',
      'mensaje 1',
      'mensaje 2',
      'mensaje 3',
    ])
    expect(older.data.older).toBeNull()
  })

  test("'Enviar mensaje' opens the existing conversation, or the box for a first message", async () => {
    const [ana, ben] = [await person('premium'), await person('premium', { firstName: 'Ben', lastName: 'Sol' })]
    const open = (who: Person, userId: string) =>
      run(() =>
        newConversationRoute.loader({
          request: getRequest(`/mensajes/con/${userId}`, { cookie: who.cookie }),
          params: { userId },
          context,
        } as any),
      )
    const fresh = await open(ana, ben.userId)
    expect(fresh.data).toEqual(
      expect.objectContaining({ premium: true, cannotWrite: null, other: expect.objectContaining({ name: 'Ben Sol' }) }),
    )
    const conversationId = (await write(ana, ben)).data.conversationId
    const again = await open(ana, ben.userId)
    expect(again.status).toBe(302)
    expect(again.location).toBe(`/mensajes/${conversationId}`)
    expect((await open(ana, crypto.randomUUID())).status).toBe(404)
  })
})

describe("'Informar'", () => {
  test('a message and the five before it go to the moderation queue, about its sender, as reported', async () => {
    const [ana, ben] = [await person('premium'), await person('premium', { firstName: 'Vendedor', lastName: 'Insistente' })]
    const conversationId = await accepted(ben, ana)
    for (let i = 1; i <= 7; i++) expect((await reply(i % 2 ? ben : ana, conversationId, `línea ${i}`)).status).toBe(200)
    const reported = (await page(ana, conversationId)).data.messages.at(-1)
    expect(reported.body).toBe('línea 7')
    const report = (who: Person, messageId: string, reason = 'unwanted_messages') =>
      run(() =>
        conversationRoute.action({
          request: formRequest(
            `/mensajes/${conversationId}`,
            { intent: 'report', messageId, reason, note: 'Me ofrece su software' },
            { cookie: who.cookie },
          ),
          params: { conversationId },
          context,
        } as any),
      )
    const sent = await report(ana, reported.id)
    expect(sent.status).toBe(200)
    expect(sent.data.message.title).toMatch(/^Gracias por avisarnos/)
    const [row] = await getDb().select().from(moderationReports).where(eq(moderationReports.itemId, ben.userId))
    expect(row).toEqual(expect.objectContaining({ kind: 'member', reason: 'unwanted_messages', note: 'Me ofrece su software' }))
    expect(row!.context!.messages.map((message) => message.body)).toEqual([
      'línea 2',
      'línea 3',
      'línea 4',
      'línea 5',
      'línea 6',
      'línea 7',
    ])
    const { entries } = await listQueue()
    const entry = entries.find((item) => item.itemId === ben.userId)!
    expect(entry.reasons).toEqual(['unwanted_messages'])
    expect(entry.messages[0]!.messages).toHaveLength(6)
    expect(entry.messages[0]!.messages.at(-1)).toEqual(expect.objectContaining({ byReported: true, body: 'línea 7' }))
    // One's own message, someone else's conversation, an unknown message: refused.
    const own = (await page(ana, conversationId)).data.messages.find((message: { mine: boolean }) => message.mine)
    expect((await report(ana, own.id)).status).toBe(400)
    const third = await person('premium')
    expect((await report(third, reported.id)).status).toBe(404)
    expect((await report(ana, crypto.randomUUID())).status).toBe(404)
    expect((await report(ana, reported.id, 'aburrido')).status).toBe(400)
  })
})

describe('e-mail after 15 minutes unread', () => {
  test('one job per burst; the e-mail quotes an accepted conversation, never a request’s text; nothing once read', async () => {
    const [ana, ben] = [await person('premium', { firstName: 'Ana', lastName: 'Ruiz' }), await person('premium')]
    const first = await write(ana, ben, 'Texto secreto de la solicitud')
    const conversationId = first.data.conversationId as string
    const queued = await getDb()
      .select({ runAt: jobs.runAt, payload: jobs.payload })
      .from(jobs)
      .where(eq(jobs.name, 'messages.unread-email'))
    const mine = queued.filter((job) => (job.payload as { conversationId: string }).conversationId === conversationId)
    expect(mine).toHaveLength(1)
    expect(mine[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000)

    expect(await sendUnreadMessagesEmail(conversationId, ben.userId)).toBe(true)
    const mails = async () =>
      (await getDb().select({ payload: jobs.payload }).from(jobs).where(eq(jobs.name, 'mail.send'))).map(
        (job) => job.payload as { to: string; subject: string; html: string; text: string; headers: Record<string, string> },
      )
    const request = (await mails()).find((mail) => mail.to === ben.email && mail.subject === 'Ana Ruiz quiere escribirte')!
    expect(request.text).not.toContain('Texto secreto')
    expect(request.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(request.text).toContain('Mensajes privados')

    await post({ intent: 'accept', conversationId }, ben.cookie)
    await page(ben, conversationId)
    expect(await sendUnreadMessagesEmail(conversationId, ben.userId)).toBe(false)
    expect((await reply(ana, conversationId, 'Primera línea\nsegunda')).status).toBe(200)
    expect((await reply(ana, conversationId, 'Otra')).status).toBe(200)
    expect(await sendUnreadMessagesEmail(conversationId, ben.userId)).toBe(true)
    const quoted = (await mails()).find((mail) => mail.to === ben.email && mail.subject === 'Mensaje de Ana Ruiz')!
    expect(quoted.text).toContain('Primera línea')
    expect(quoted.text).toContain('Otra')

    // 'Mensajes privados' turned off: no e-mail.
    await getDb().execute(sql`update notification_settings set messages = 'web' where user_id = ${ben.userId}`)
    expect((await reply(ana, conversationId, 'Y otra')).status).toBe(200)
    expect(await sendUnreadMessagesEmail(conversationId, ben.userId)).toBe(false)
  })
})

describe('their data', () => {
  test('the export holds each party’s conversations, the other only by name; a third party never', async () => {
    const [ana, ben, carla] = [
      await person('premium', { firstName: 'Ana', lastName: 'Ruiz' }),
      await person('premium', { firstName: 'Ben', lastName: 'Sol' }),
      await person('premium', { firstName: 'Carla', lastName: 'Tercera' }),
    ]
    const withBen = await accepted(ana, ben)
    await reply(ben, withBen, 'Hola Ana')
    await accepted(carla, ben)
    await post({ intent: 'block', memberId: carla.userId }, ana.cookie)
    const section = async (name: string, userId: string) =>
      ((await getDb().execute(messagesData.sections![name]!(userId))) as unknown as { rows: Array<Record<string, unknown>> }).rows
    const anaConversations = await section('conversaciones', ana.userId)
    expect(anaConversations).toEqual([expect.objectContaining({ with_name: 'Ben Sol', started_by_me: true, state: 'accepted' })])
    const anaMessages = await section('mensajes', ana.userId)
    expect(anaMessages.map((row) => [row.mine, row.body])).toEqual([
      [true, 'Hola, ¿hablamos?'],
      [false, 'Hola Ana'],
    ])
    const everything = JSON.stringify([
      anaConversations,
      anaMessages,
      await section('miembros_bloqueados', ana.userId),
      await section('preferencias_de_mensajes', ana.userId),
    ])
    for (const forbidden of [ben.userId, ben.email, carla.userId, carla.email, 'Carla', 'Tercera'])
      expect(everything).not.toContain(forbidden)
  })

  test("a deleted member's messages read 'Miembro eliminado', or go when they delete everything", async () => {
    const [ana, ben, carla] = [await person('premium'), await person('premium'), await person('premium')]
    const kept = await accepted(ana, ben)
    await reply(ana, kept, 'Lo que dije')
    await deleteAccount({ userId: ana.userId, actorId: ana.userId, writing: 'keep' })
    const benSees = await page(ben, kept)
    expect(benSees.data.other).toEqual({ id: null, name: MESSAGES.deleted, avatarUrl: null })
    expect(benSees.data.messages.map((message: { body: string }) => message.body)).toContain('Lo que dije')
    expect(benSees.data.cannotWrite).toBe('Este miembro ya no está en la comunidad.')
    expect((await list(ben)).data.conversations[0].other.name).toBe(MESSAGES.deleted)
    expect((await reply(ben, kept)).status).toBe(410)

    const gone = await accepted(carla, ben)
    await reply(ben, gone, 'Lo mío se queda')
    await reply(carla, gone, 'Borra esto')
    expect(await unreadOf(ben.userId)).toBeGreaterThan(0)
    await deleteAccount({ userId: carla.userId, actorId: carla.userId, writing: 'delete' })
    const left = await page(ben, gone)
    expect(left.data.messages.map((message: { body: string }) => message.body)).toEqual(['Lo mío se queda'])
    expect(await unreadOf(ben.userId)).toBe(0)
    // When the second member goes too, the conversation is nobody's and goes.
    await deleteAccount({ userId: ben.userId, actorId: ben.userId, writing: 'keep' })
    expect(await getDb().select({ id: conversations.id }).from(conversations).where(eq(conversations.id, gone))).toEqual([])
  })
})
