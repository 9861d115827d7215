import { existsSync, readFileSync, statSync } from 'node:fs'

/**
 * Without SMTP the server "delivers" e-mail by printing it to stdout, which the
 * Playwright web server writes to E2E_SERVER_LOG (see playwright.config.ts):
 *
 *     ✉  someone@example.com · Confirma tu email
 *        http://localhost:3210/api/auth/verify-email?token=...&callbackURL=...
 */

const MAIL_HEADER = /^\s*✉\s+(\S+)\s+·\s+(.+?)\s*$/
const POLL_MS = 200
const DEFAULT_TIMEOUT_MS = 20_000

function logPath() {
  const file = process.env.E2E_SERVER_LOG
  if (!file) throw new Error('E2E_SERVER_LOG is not set: run the tests through playwright.config.ts')
  return file
}

/**
 * The current end of the server log. Pass it as `after` to only accept mail printed
 * from now on (e.g. the reset link of this request, not of an earlier one).
 */
export function markMailLog(): number {
  const file = logPath()
  return existsSync(file) ? statSync(file).size : 0
}

export interface MailEntry {
  to: string
  subject: string
  url: string
  /** Byte offset of the block in the log. */
  offset: number
}

/** Every mail block printed to the log since byte `after`. */
export function readMailLog({ after = 0 }: { after?: number } = {}): MailEntry[] {
  const file = logPath()
  if (!existsSync(file)) return []
  const buffer = readFileSync(file)
  const text = buffer.subarray(Math.min(after, buffer.length)).toString('utf8')
  const lines = text.split('\n')
  const entries: MailEntry[] = []
  let offset = after
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const header = MAIL_HEADER.exec(line)
    const next = lines[index + 1]?.trim()
    if (header && next && /^https?:\/\//.test(next)) {
      entries.push({ to: header[1]!.toLowerCase(), subject: header[2]!, url: next, offset })
    }
    offset += Buffer.byteLength(line, 'utf8') + 1
  }
  return entries
}

/**
 * Polls the server log for the newest mail to `to` with `subject` (printed after the
 * log position `after`, from markMailLog()) and returns its link.
 */
export async function waitForMailLink(
  to: string,
  subject: string,
  { after = 0, timeout = DEFAULT_TIMEOUT_MS }: { after?: number; timeout?: number } = {},
): Promise<string> {
  const deadline = Date.now() + timeout
  const address = to.toLowerCase()
  for (;;) {
    const matches = readMailLog({ after }).filter((entry) => entry.to === address && entry.subject === subject)
    const newest = matches.at(-1)
    if (newest) return newest.url
    if (Date.now() > deadline) {
      const seen = readMailLog({ after })
        .map((entry) => `  ${entry.to} · ${entry.subject}`)
        .join('\n')
      throw new Error(
        `No e-mail "${subject}" to ${to} in ${logPath()} after ${timeout} ms.\n` +
          (seen ? `E-mails seen in that part of the log:\n${seen}` : 'No e-mail at all in that part of the log.'),
      )
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/**
 * The e-mails the server delivered to `to` since byte `after` of its log, one per e-mail: the
 * server logs each as a JSON line ('E-mail for …', with every link) beside the ✉ lines, which
 * are one per link and so cannot be counted as e-mails.
 */
export function mailsTo(to: string, after: number): Array<{ subject: string; links: string[] }> {
  const text = readFileSync(logPath()).subarray(after).toString('utf8')
  const mails: Array<{ subject: string; links: string[] }> = []
  for (const line of text.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"E-mail for ')) continue
    const entry = JSON.parse(line) as { msg?: string; to?: string; subject?: string; links?: string[] }
    if (entry.msg?.startsWith('E-mail for ') && entry.to?.toLowerCase() === to.toLowerCase()) {
      mails.push({ subject: entry.subject!, links: entry.links ?? [] })
    }
  }
  return mails
}
