import { render } from '@react-email/render'
import nodemailer from 'nodemailer'
import type { ReactElement } from 'react'
import type { DbExecutor } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { mailFailed, mailSent } from '~/platform/metrics/metrics.server'

export interface OutgoingMail {
  to: string
  subject: string
  email: ReactElement
  /** Messages that must go out only once (the welcome e-mail) carry a key. */
  dedupeKey?: string
  /** Extra headers (List-Unsubscribe…). */
  headers?: Record<string, string>
}

/** What the `mail.send` job carries and delivers. */
interface MailMessage {
  to: string
  subject: string
  html: string
  text: string
  headers?: Record<string, string>
}

export type RenderedMail = MailMessage & Pick<OutgoingMail, 'dedupeKey'>

export interface MailTransport {
  name: string
  send(message: MailMessage & { from: string }): Promise<void>
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

let transport: MailTransport | undefined

function currentTransport() {
  transport ??= getEnv().SMTP_URL ? smtpTransport(getEnv().SMTP_URL!) : logTransport
  return transport
}

/** Tests deliver through their own transport. */
export function setMailTransport(next: MailTransport | undefined) {
  transport = next
}

/** Tries of a message the SMTP server itself refuses (unknown mailbox…) before it is given up. */
const MAX_ATTEMPTS_WHEN_REJECTED = 3

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

/** E-mail is one kind of job: rendered before it is queued, sent by whichever worker claims it. */
export const sendMailJob = defineJob<MailMessage>({
  name: 'mail.send',
  label: 'Envío de correo',
  async run(message) {
    try {
      await currentTransport().send({ ...message, from: getEnv().MAIL_FROM })
    } catch (error) {
      mailFailed.inc()
      throw error
    }
    mailSent.inc()
  },
  retry: (attempts, error) => (isPermanentRejection(error) && attempts >= MAX_ATTEMPTS_WHEN_REJECTED ? null : retryDelaySeconds(attempts)),
})

/**
 * Renders a message. Before a transaction opens, not inside it: on PGlite every other query waits
 * while one is open, and rendering takes milliseconds.
 */
export async function renderMail({ email, ...envelope }: OutgoingMail): Promise<RenderedMail> {
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })])
  return { ...envelope, html, text }
}

/**
 * Commits a rendered message to the job queue, inside the caller's transaction when given.
 * Returns false when a message with the same dedupe key was queued before.
 */
export function enqueueRenderedMail({ dedupeKey, ...message }: RenderedMail, executor?: DbExecutor) {
  return enqueue(sendMailJob, message, { dedupeKey, executor })
}

/** Renders and queues a message that belongs to no transaction (the account's e-mails). */
export async function enqueueMail(mail: OutgoingMail) {
  return enqueueRenderedMail(await renderMail(mail))
}
