import { createElement } from 'react'
import { and, eq, sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { listFailedJobs, retryFailedJobs, runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { ConfirmEmail } from '~/features/account/emails/confirm-email'
import {
  enqueueMail,
  enqueueRenderedMail,
  isPermanentRejection,
  type MailTransport,
  renderMail,
  retryDelaySeconds,
  sendMailJob,
  setMailTransport,
  smtpTransport,
} from './mail.server'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'

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
beforeEach(async () => {
  // Each test starts with an empty queue: runDueJobs() must only find what the test queued.
  await getDb().delete(jobs)
})
afterEach(async () => {
  setMailTransport(undefined)
  await Promise.all(servers.map((server) => server.close()))
  servers = []
})

/** A transport that records what it was given, as the job handed it over. */
function recordingTransport({ delayMs = 0 } = {}) {
  const sent: Array<Parameters<MailTransport['send']>[0]> = []
  const transport: MailTransport = {
    name: 'test',
    async send(message) {
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
      sent.push(message)
    },
  }
  return { transport, sent }
}

async function queue(to: string, { dedupeKey, headers }: { dedupeKey?: string; headers?: Record<string, string> } = {}) {
  return enqueueMail({
    to,
    subject: 'Confirma tu email',
    email: createElement(ConfirmEmail, { firstName: 'Ana', url: 'http://localhost:3000/api/auth/verify-email?token=abc' }),
    dedupeKey,
    headers,
  })
}

const mailJobsTo = (to: string) =>
  getDb()
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, sendMailJob.name), sql`${jobs.payload}->>'to' = ${to}`))

async function row(to: string) {
  const [found] = await mailJobsTo(to)
  return found!
}

/** Makes a queued message due now, as if its back-off had elapsed. */
async function makeDue(to: string) {
  await getDb()
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(and(eq(jobs.name, sendMailJob.name), sql`${jobs.payload}->>'to' = ${to}`))
}

describe('e-mail through the job queue', () => {
  test('a queued message is rendered in Spanish, delivered once through SMTP, and marked done', async () => {
    const smtp = await startSmtpServer()
    servers.push(smtp)
    setMailTransport(smtpTransport(`smtp://127.0.0.1:${smtp.port}`))
    expect(await queue('ana@example.com')).toBe(true)

    // Queued, not sent: the message waits for a worker.
    let stored = await row('ana@example.com')
    expect(stored).toMatchObject({ status: 'queued', attempts: 0 })
    expect(stored.payload).toMatchObject({ to: 'ana@example.com', subject: 'Confirma tu email' })
    expect((stored.payload as { text: string }).text).toContain('verify-email?token=abc')
    expect(smtp.received).toHaveLength(0)

    expect(await runDueJobs()).toBe(1)
    const delivered = smtp.received.filter((mail) => mail.to.includes('ana@example.com'))
    expect(delivered).toHaveLength(1)
    expect(delivered[0]!.raw).toContain('Subject: Confirma tu email')
    expect(delivered[0]!.raw).toContain('verify-email?token=3Dabc') // quoted-printable of "=abc"
    expect(delivered[0]!.from).toBe(getEnv().MAIL_FROM.match(/<(.+)>/)![1])
    stored = await row('ana@example.com')
    expect(stored).toMatchObject({ status: 'done', attempts: 1, lastError: null, lockedUntil: null })
    expect(stored.finishedAt).toBeInstanceOf(Date)

    // Done is done: later runs, even with the message due again, send nothing more.
    await makeDue('ana@example.com')
    expect(await runDueJobs()).toBe(0)
    expect(smtp.received.filter((mail) => mail.to.includes('ana@example.com'))).toHaveLength(1)
  })

  test('the transport gets the sender, the rendered message and its headers', async () => {
    const { transport, sent } = recordingTransport()
    setMailTransport(transport)
    await queue('headers@example.com', { headers: { 'List-Unsubscribe': '<http://localhost:3000/perfil>' } })
    await runDueJobs()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({
      from: getEnv().MAIL_FROM,
      to: 'headers@example.com',
      subject: 'Confirma tu email',
      headers: { 'List-Unsubscribe': '<http://localhost:3000/perfil>' },
    })
    expect(sent[0]!.html).toContain('<html')
    expect(sent[0]!.text).toContain('http://localhost:3000/api/auth/verify-email?token=abc')
  })

  test('an SMTP outage loses nothing: the message waits with back-off and goes out when SMTP returns', async () => {
    // Find a free port, then close it: nothing listens there during the "outage".
    const probe = await startSmtpServer()
    const port = probe.port
    await probe.close()
    setMailTransport(smtpTransport(`smtp://127.0.0.1:${port}?connectionTimeout=2000`))

    await queue('outage@example.com')
    expect(await runDueJobs()).toBe(1)
    let stored = await row('outage@example.com')
    expect(stored.status).toBe('queued')
    expect(stored.attempts).toBe(1)
    expect(stored.lastError).toBeTruthy()
    expect(stored.lockedUntil).toBeNull()
    expect(stored.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000)

    // Not due yet: a second run does not hammer the dead server.
    expect(await runDueJobs()).toBe(0)

    const smtp = await startSmtpServer(port)
    servers.push(smtp)
    await makeDue('outage@example.com')
    expect(await runDueJobs()).toBe(1)
    stored = await row('outage@example.com')
    expect(stored).toMatchObject({ status: 'done', attempts: 2 })
    expect(smtp.received.filter((mail) => mail.to.includes('outage@example.com'))).toHaveLength(1)
  })

  test('a long outage (connection refused, 4xx, refused login) never gives the message up', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNECTION', command: 'CONN' })
    const busy = Object.assign(new Error('451 try again later'), { responseCode: 451, command: 'RCPT TO' })
    const login = Object.assign(new Error('535 authentication failed'), { responseCode: 535, command: 'AUTH PLAIN' })
    let next = 0
    setMailTransport({ name: 'smtp', send: async () => Promise.reject([outage, busy, login][next++ % 3]) })
    await queue('patience@example.com')
    let previousRunAt = 0
    for (let attempt = 0; attempt < 30; attempt++) {
      await makeDue('patience@example.com')
      expect(await runDueJobs()).toBe(1)
      const stored = await row('patience@example.com')
      // Back to the queue every time, each try further in the future than the one before.
      expect(stored.status).toBe('queued')
      expect(stored.runAt.getTime()).toBeGreaterThan(Date.now())
      if (attempt < 7) expect(stored.runAt.getTime()).toBeGreaterThan(previousRunAt)
      previousRunAt = stored.runAt.getTime()
    }
    const stored = await row('patience@example.com')
    expect(stored).toMatchObject({ status: 'queued', attempts: 30 })
    expect(stored.runAt.getTime()).toBeGreaterThan(Date.now() + 3500_000)
    expect(await listFailedJobs()).toEqual([])
  })

  test('a recipient the real SMTP server refuses (550 at RCPT TO) fails after 3 tries, is listed, and can be queued again', async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }))
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    servers.push({ close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) })
    setMailTransport(smtpTransport(`smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`))
    await queue('bounce@example.com')
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue('bounce@example.com')
      expect(await runDueJobs()).toBe(1)
      expect(await row('bounce@example.com')).toMatchObject({ status: attempt < 3 ? 'queued' : 'failed', attempts: attempt })
    }
    const stored = await row('bounce@example.com')
    expect(stored.status).toBe('failed')
    expect(stored.attempts).toBe(3)
    expect(stored.lastError).toContain('mailbox unavailable')
    expect(stored.finishedAt).toBeInstanceOf(Date)
    // Given up: no worker picks it up again on its own.
    await makeDue('bounce@example.com')
    expect(await runDueJobs()).toBe(0)

    const failed = await listFailedJobs()
    expect(failed).toEqual([expect.objectContaining({ id: stored.id, name: 'mail.send', attempts: 3 })])
    expect(failed[0]!.lastError).toContain('mailbox unavailable')

    // Once the mailbox exists (`npm run jobs -- retry`), the message goes out.
    expect(await retryFailedJobs()).toBe(1)
    expect(await row('bounce@example.com')).toMatchObject({ status: 'queued', attempts: 0, finishedAt: null })
    expect(await listFailedJobs()).toEqual([])
    const { transport, sent } = recordingTransport()
    setMailTransport(transport)
    expect(await runDueJobs()).toBe(1)
    expect(sent.map((message) => message.to)).toEqual(['bounce@example.com'])
    expect(await row('bounce@example.com')).toMatchObject({ status: 'done', attempts: 1 })
  })

  test('a message claimed by a worker that died is delivered after the claim expires', async () => {
    await queue('crash@example.com')
    await getDb()
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedUntil: sql`now() - interval '1 second'` })
      .where(sql`${jobs.payload}->>'to' = 'crash@example.com'`)
    const { transport, sent } = recordingTransport()
    setMailTransport(transport)
    await runDueJobs()
    expect(sent.map((message) => message.to)).toEqual(['crash@example.com'])
    expect(await row('crash@example.com')).toMatchObject({ status: 'done', attempts: 2 })
  })

  concurrencyTest('two workers running at once send each message once', async () => {
    for (let index = 0; index < 10; index++) await queue(`parallel-${index}@example.com`)
    const { transport, sent } = recordingTransport({ delayMs: 5 })
    setMailTransport(transport)
    // Two workers each claiming small batches until nothing is left, at the same time.
    const worker = async () => {
      while ((await runDueJobs({ limit: 2 })) > 0);
    }
    await Promise.all([worker(), worker()])
    const parallel = sent.map((message) => message.to).filter((to) => to.startsWith('parallel-'))
    expect(parallel).toHaveLength(10)
    expect(new Set(parallel).size).toBe(10)
    const rows = await getDb().select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.name, 'mail.send'))
    expect(rows).toHaveLength(10)
    expect(rows.every((job) => job.status === 'done' && job.attempts === 1)).toBe(true)
  })

  concurrencyTest('two simultaneous runs over the same due batch send each message once', async () => {
    for (let index = 0; index < 6; index++) await queue(`race-${index}@example.com`)
    const { transport, sent } = recordingTransport({ delayMs: 5 })
    setMailTransport(transport)
    const [first, second] = await Promise.all([runDueJobs(), runDueJobs()])
    expect(first + second).toBe(6)
    const race = sent.map((message) => message.to).filter((to) => to.startsWith('race-'))
    expect(race).toHaveLength(6)
    expect(new Set(race).size).toBe(6)
  })

  test('a dedupe key makes a welcome message go out once', async () => {
    const { transport, sent } = recordingTransport()
    setMailTransport(transport)
    expect(await queue('once@example.com', { dedupeKey: 'welcome:once' })).toBe(true)
    expect(await queue('once@example.com', { dedupeKey: 'welcome:once' })).toBe(false)
    const rows = await getDb().select().from(jobs).where(eq(jobs.dedupeKey, 'mail.send:welcome:once'))
    expect(rows).toHaveLength(1)
    await runDueJobs()
    // Also once it has been sent: the key keeps "once" once.
    expect(await queue('once@example.com', { dedupeKey: 'welcome:once' })).toBe(false)
    await runDueJobs()
    expect(sent.map((message) => message.to)).toEqual(['once@example.com'])
    // Without a key, the same message may be queued again.
    expect(await queue('once@example.com')).toBe(true)
    expect(await mailJobsTo('once@example.com')).toHaveLength(2)
  })

  test('a message rendered first and queued inside a transaction that rolls back does not exist', async () => {
    const mail = (to: string) =>
      renderMail({
        to,
        subject: 'Confirma tu email',
        email: createElement(ConfirmEmail, { firstName: 'Ana', url: 'http://localhost:3000/x' }),
      })
    const rolledBack = await mail('rollback@example.com')
    await expect(
      getDb().transaction(async (tx) => {
        expect(await enqueueRenderedMail(rolledBack, tx)).toBe(true)
        // Visible inside the transaction, until the change that asked for it fails.
        expect(
          await tx
            .select()
            .from(jobs)
            .where(sql`${jobs.payload}->>'to' = 'rollback@example.com'`),
        ).toHaveLength(1)
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await mailJobsTo('rollback@example.com')).toEqual([])
    const { transport, sent } = recordingTransport()
    setMailTransport(transport)
    expect(await runDueJobs()).toBe(0)
    expect(sent).toEqual([])

    // The same in a transaction that commits: the message exists, as it was rendered.
    const committed = await mail('commit@example.com')
    await getDb().transaction((tx) => enqueueRenderedMail(committed, tx))
    expect((await mailJobsTo('commit@example.com')).map((job) => job.payload)).toEqual([
      { to: 'commit@example.com', subject: 'Confirma tu email', html: committed.html, text: committed.text },
    ])
  })

  test('back-off grows and is capped at an hour', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240])
    expect(retryDelaySeconds(20)).toBe(3600)
  })

  test('only a 5xx to the envelope or the message is a permanent rejection', () => {
    expect(isPermanentRejection(Object.assign(new Error('x'), { responseCode: 550, command: 'RCPT TO' }))).toBe(true)
    expect(isPermanentRejection(Object.assign(new Error('x'), { responseCode: 553, command: 'MAIL FROM' }))).toBe(true)
    expect(isPermanentRejection(Object.assign(new Error('x'), { responseCode: 554, command: 'DATA' }))).toBe(true)
    expect(isPermanentRejection(Object.assign(new Error('x'), { responseCode: 451, command: 'RCPT TO' }))).toBe(false)
    expect(isPermanentRejection(Object.assign(new Error('x'), { responseCode: 535, command: 'AUTH PLAIN' }))).toBe(false)
    expect(isPermanentRejection(Object.assign(new Error('x'), { code: 'ECONNECTION', command: 'CONN' }))).toBe(false)
    expect(isPermanentRejection(undefined)).toBe(false)
  })
})
