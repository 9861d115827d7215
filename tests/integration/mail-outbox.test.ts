import { createElement } from 'react'
import { eq, sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { getDb } from '~/db/client.server'
import { mailOutbox } from '~/db/schema'
import { ConfirmEmail } from '~/emails/confirm-email'
import { deliverDueMail, enqueueMail, retryDelaySeconds, smtpTransport } from '~/utils/mail.server'
import { useTestDatabase } from '../setup/database'

useTestDatabase()

interface Received {
  from: string
  to: string[]
  raw: string
}

/** A real SMTP server on loopback that records what it receives. */
async function startSmtpServer(port = 0) {
  const received: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.server.address() as AddressInfo
  return {
    received,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let servers: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()))
  servers = []
})

async function queue(to: string, dedupeKey?: string) {
  return enqueueMail({
    to,
    subject: 'Confirma tu email',
    email: createElement(ConfirmEmail, { firstName: 'Ana', url: 'http://localhost:3000/api/auth/verify-email?token=abc' }),
    dedupeKey,
  })
}

async function row(to: string) {
  const [found] = await getDb().select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))
  return found!
}

/** Makes a pending message due now, as if its back-off had elapsed. */
async function makeDue(to: string) {
  await getDb().update(mailOutbox).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(mailOutbox.toAddress, to))
}

describe('mail outbox', () => {
  test('delivers through SMTP with the rendered Spanish template and marks it sent', async () => {
    const smtp = await startSmtpServer()
    servers.push(smtp)
    await queue('ana@example.com')
    const result = await deliverDueMail(smtpTransport(`smtp://127.0.0.1:${smtp.port}`))
    expect(result.sent).toBeGreaterThanOrEqual(1)
    const message = smtp.received.find((mail) => mail.to.includes('ana@example.com'))!
    expect(message.raw).toContain('Subject: Confirma tu email')
    expect(message.raw).toContain('verify-email?token=3Dabc') // quoted-printable of "=abc"
    const stored = await row('ana@example.com')
    expect(stored).toMatchObject({ status: 'sent', transport: 'smtp', attempts: 1, lastError: null })
  })

  test('an SMTP outage loses nothing: the message waits with back-off and goes out when SMTP returns', async () => {
    // Find a free port, then close it: nothing listens there during the "outage".
    const probe = await startSmtpServer()
    const port = probe.port
    await probe.close()
    const transport = smtpTransport(`smtp://127.0.0.1:${port}?connectionTimeout=2000`)

    await queue('outage@example.com')
    const first = await deliverDueMail(transport)
    expect(first.sent).toBe(0)
    let stored = await row('outage@example.com')
    expect(stored.status).toBe('pending')
    expect(stored.attempts).toBe(1)
    expect(stored.lastError).toBeTruthy()
    expect(stored.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000)

    // Not due yet: a second run does not hammer the dead server.
    expect((await deliverDueMail(transport)).claimed).toBe(0)

    const smtp = await startSmtpServer(port)
    servers.push(smtp)
    await makeDue('outage@example.com')
    const second = await deliverDueMail(transport)
    expect(second.sent).toBe(1)
    stored = await row('outage@example.com')
    expect(stored).toMatchObject({ status: 'sent', attempts: 2 })
    expect(smtp.received.filter((mail) => mail.to.includes('outage@example.com'))).toHaveLength(1)
  })

  test('a long outage (connection refused, 4xx, refused login) never gives the message up', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNECTION', command: 'CONN' })
    const busy = Object.assign(new Error('451 try again later'), { responseCode: 451, command: 'RCPT TO' })
    const login = Object.assign(new Error('535 authentication failed'), { responseCode: 535, command: 'AUTH PLAIN' })
    let next = 0
    const failing = { name: 'smtp', send: async () => Promise.reject([outage, busy, login][next++ % 3]) }
    await queue('patience@example.com')
    for (let attempt = 0; attempt < 30; attempt++) {
      await makeDue('patience@example.com')
      await deliverDueMail(failing)
    }
    const stored = await row('patience@example.com')
    expect(stored).toMatchObject({ status: 'pending', attempts: 30 })
    expect(stored.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3500_000)
  })

  test('a recipient the real SMTP server refuses (550) is marked failed after a few tries', async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }))
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    servers.push({ close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) })
    const transport = smtpTransport(`smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`)
    await queue('bounce@example.com')
    for (let attempt = 0; attempt < 3; attempt++) {
      await makeDue('bounce@example.com')
      expect((await deliverDueMail(transport)).sent).toBe(0)
    }
    const stored = await row('bounce@example.com')
    expect(stored.status).toBe('failed')
    expect(stored.attempts).toBe(3)
    expect(stored.lastError).toContain('mailbox unavailable')
    await makeDue('bounce@example.com')
    expect((await deliverDueMail(transport)).claimed).toBe(0)
  })

  test('a message claimed by a worker that died is delivered after the claim expires', async () => {
    await queue('crash@example.com')
    await getDb()
      .update(mailOutbox)
      .set({ status: 'sending', lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.toAddress, 'crash@example.com'))
    const sent: string[] = []
    await deliverDueMail({ name: 'test', send: async (message) => void sent.push(message.to) })
    expect(sent).toContain('crash@example.com')
    expect((await row('crash@example.com')).status).toBe('sent')
  })

  test('two workers running at once send each message once', async () => {
    for (let index = 0; index < 10; index++) await queue(`parallel-${index}@example.com`)
    const sent: string[] = []
    const transport = {
      name: 'test',
      send: async (message: { to: string }) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        sent.push(message.to)
      },
    }
    await Promise.all([deliverDueMail(transport), deliverDueMail(transport)])
    const parallel = sent.filter((to) => to.startsWith('parallel-'))
    expect(parallel).toHaveLength(10)
    expect(new Set(parallel).size).toBe(10)
  })

  test('a dedupe key makes a message go out once', async () => {
    expect(await queue('once@example.com', 'welcome:once')).toBe(true)
    expect(await queue('once@example.com', 'welcome:once')).toBe(false)
    const rows = await getDb().select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, 'welcome:once'))
    expect(rows).toHaveLength(1)
  })

  test('back-off grows and is capped at an hour', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240])
    expect(retryDelaySeconds(20)).toBe(3600)
  })
})
