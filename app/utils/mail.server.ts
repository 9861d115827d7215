import { render } from '@react-email/render'
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { ReactElement } from 'react'
import { type AppDb, type DbExecutor, getDb } from '~/db/client.server'
import { mailOutbox } from '~/db/schema'
import { getEnv } from './env.server'
import { logger } from './logger.server'

export interface OutgoingMail {
  to: string
  subject: string
  email: ReactElement
  /** Messages that must go out only once (the welcome e-mail) carry a key. */
  dedupeKey?: string
}


/**
 * Commits the message to the outbox (inside the caller's transaction when given) and
 * wakes the worker. Returns false when a message with the same dedupe key exists.
 */
export async function enqueueMail(mail: OutgoingMail, executor: DbExecutor = getDb()) {
  const [html, text] = await Promise.all([render(mail.email), render(mail.email, { plainText: true })])
  const inserted = await executor
    .insert(mailOutbox)
    .values({ toAddress: mail.to, subject: mail.subject, html, text, dedupeKey: mail.dedupeKey })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id })
  if (inserted.length > 0) scheduleDelivery()
  return inserted.length > 0
}

export interface MailTransport {
  name: string
  send(message: { to: string; from: string; subject: string; html: string; text: string }): Promise<void>
}

/** Without SMTP the server log is the mailbox: the links are printed for the person running it. */
export const logTransport: MailTransport = {
  name: 'log',
  async send(message) {
    const links = [...new Set(message.text.match(/https?:\/\/[^\s\])>]+/g) ?? [])]
    logger.info({ to: message.to, subject: message.subject, links }, `E-mail for ${message.to}: ${message.subject}`)
    // Also plainly on stdout, so a newcomer can copy the link from the terminal.
    for (const link of links) process.stdout.write(`  ✉  ${message.to} · ${message.subject}\n     ${link}\n`)
  },
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    name: 'smtp',
    async send(message) {
      await transporter.sendMail(message)
    },
  }
}

/** Tries of a message the SMTP server itself refuses (unknown mailbox…) before it is marked failed. */
const MAX_ATTEMPTS_WHEN_REJECTED = 3
const BATCH_SIZE = 20
// A message claimed by a worker that died is retried after this long.
const CLAIM_TIMEOUT_SECONDS = 300

/**
 * A 5xx answer to the envelope or the message itself (RCPT TO, MAIL FROM, DATA) will not change
 * by waiting. Anything else (no connection, a time-out, a 4xx, a refused login) is an outage or
 * the operator's to fix, and the message waits for it however long it lasts.
 */
export function isPermanentRejection(error: unknown) {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown }
  return typeof responseCode === 'number' && responseCode >= 500 && typeof command === 'string' && /^(RCPT|MAIL|DATA)/i.test(command)
}

/** 30 s, 1 min, 2 min, ... capped at 1 h: an SMTP outage of any length loses nothing. */
export function retryDelaySeconds(attempts: number) {
  return Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600)
}

/**
 * Delivers due messages once. Rows are claimed with SKIP LOCKED so several app
 * processes can run workers against one PostgreSQL without sending twice.
 */
export async function deliverDueMail(transport: MailTransport, db: AppDb = getDb()) {
  const claimed = await db
    .update(mailOutbox)
    .set({ status: 'sending', lockedUntil: sql`now() + make_interval(secs => ${CLAIM_TIMEOUT_SECONDS})` })
    .where(
      inArray(
        mailOutbox.id,
        db
          .select({ id: mailOutbox.id })
          .from(mailOutbox)
          .where(
            or(
              and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)),
              and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.lockedUntil, sql`now()`)),
            ),
          )
          .orderBy(mailOutbox.id)
          .limit(BATCH_SIZE)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning()

  const from = getEnv().MAIL_FROM
  let sent = 0
  for (const message of claimed) {
    try {
      await transport.send({ to: message.toAddress, from, subject: message.subject, html: message.html, text: message.text })
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, transport: transport.name, attempts: message.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, message.id))
      sent++
    } catch (error) {
      const attempts = message.attempts + 1
      const failed = isPermanentRejection(error) && attempts >= MAX_ATTEMPTS_WHEN_REJECTED
      logger.warn({ err: error, mailId: message.id, attempts }, failed ? 'E-mail given up' : 'E-mail delivery failed; will retry')
      await db
        .update(mailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          attempts,
          lockedUntil: null,
          lastError: String((error as Error)?.message ?? error).slice(0, 1000),
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
        })
        .where(eq(mailOutbox.id, message.id))
    }
  }
  return { claimed: claimed.length, sent }
}

let worker: { transport: MailTransport; timer?: NodeJS.Timeout; running?: Promise<void>; again?: boolean; stopped?: boolean } | undefined

const POLL_INTERVAL_MS = 15_000

/** Starts the background delivery loop: polls, and runs at once when a message is queued. */
export function startMailWorker(transport: MailTransport = defaultTransport()) {
  worker = { transport }
  scheduleDelivery()
  logger.info({ transport: transport.name }, 'Mail worker started')
}

export async function stopMailWorker() {
  if (!worker) return
  worker.stopped = true
  clearTimeout(worker.timer)
  await worker.running
  worker = undefined
}

export function defaultTransport() {
  const { SMTP_URL } = getEnv()
  return SMTP_URL ? smtpTransport(SMTP_URL) : logTransport
}

function scheduleDelivery() {
  const current = worker
  if (!current || current.stopped) return
  if (current.running) {
    current.again = true
    return
  }
  clearTimeout(current.timer)
  current.running = (async () => {
    do {
      current.again = false
      try {
        const { claimed } = await deliverDueMail(current.transport)
        if (claimed === BATCH_SIZE) current.again = true
      } catch (error) {
        logger.error({ err: error }, 'Mail worker run failed')
      }
    } while (current.again && !current.stopped)
  })().finally(() => {
    current.running = undefined
    if (!current.stopped) current.timer = setTimeout(scheduleDelivery, POLL_INTERVAL_MS)
  })
}
