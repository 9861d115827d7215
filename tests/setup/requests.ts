import { and, desc, eq, sql } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { getAuth } from '~/features/account/auth.server'

export const BASE_URL = 'http://localhost:3000'
export const TEST_IP = '203.0.113.7'

/** A browser-like form post: same-origin, from the client address the Express server would set. */
export function formRequest(path: string, fields: Record<string, string>, { cookie, ip = TEST_IP }: { cookie?: string; ip?: string } = {}) {
  const headers = new Headers({
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: BASE_URL,
    'x-app-client-ip': ip,
  })
  if (cookie) headers.set('Cookie', cookie)
  return new Request(`${BASE_URL}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields) })
}

export function getRequest(path: string, { cookie, ip = TEST_IP }: { cookie?: string; ip?: string } = {}) {
  const headers = new Headers({ 'x-app-client-ip': ip })
  if (cookie) headers.set('Cookie', cookie)
  return new Request(`${BASE_URL}${path}`, { headers })
}

export interface Outcome {
  status: number
  location: string | null
  headers: Headers
  data: any
}

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === 'object' && value !== null && (value as { type?: string }).type === 'DataWithResponseInit'
}

/** Runs a loader or action the way React Router would and tells what the browser would get. */
export async function run(call: () => Promise<unknown> | unknown): Promise<Outcome> {
  let value: unknown
  try {
    value = await call()
  } catch (thrown) {
    value = thrown
  }
  if (value instanceof Response) {
    const text = await value.text()
    let data: unknown = text
    try {
      data = JSON.parse(text)
    } catch {
      // Not JSON: the text itself.
    }
    return { status: value.status, location: value.headers.get('Location'), headers: value.headers, data }
  }
  if (isDataWithInit(value)) {
    return { status: value.init?.status ?? 200, location: null, headers: new Headers(value.init?.headers), data: value.data }
  }
  if (value instanceof Error) throw value
  return { status: 200, location: null, headers: new Headers(), data: value }
}

/** The cookies a response sets, as a Cookie header the next request would send. */
export function cookiesFrom(headers: Headers, previous = '') {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  )
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(';')
    const name = pair!.slice(0, pair!.indexOf('='))
    const value = pair!.slice(pair!.indexOf('=') + 1)
    if (!value || /max-age=0/i.test(cookie)) jar.delete(name)
    else jar.set(name, value)
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
}

export interface QueuedMail {
  to: string
  subject: string
  html: string
  text: string
  headers?: Record<string, string>
}

/** The e-mails queued for `to` with `subject`, as they stand (no job is run). */
export function queuedMails(to: string, subject: string) {
  return getDb()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.name, 'mail.send'), sql`${jobs.payload}->>'to' = ${to}`, sql`${jobs.payload}->>'subject' = ${subject}`))
}

/** The newest e-mail queued for `to` (optionally with that subject), after running due jobs but mail. */
export async function latestMailTo(to: string, subject?: string) {
  await runDueJobs({ names: ['account.password-reset'] })
  const rows = await getDb()
    .select({ payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.name, 'mail.send'), sql`${jobs.payload}->>'to' = ${to}`))
    .orderBy(desc(jobs.id))
  return rows.map((row) => row.payload as QueuedMail).find((mail) => !subject || mail.subject === subject)
}

export function firstLink(text: string) {
  const match = text.match(/https?:\/\/[^\s\])>]+/)
  if (!match) throw new Error(`No link in: ${text}`)
  return match[0]
}

let counter = 0
export function uniqueEmail(label = 'user') {
  counter++
  return `${label}-${Date.now()}-${counter}@example.com`
}

/** Signs up through better-auth, confirms through the e-mailed link, and returns the session cookie. */
export async function createConfirmedUser({
  email = uniqueEmail(),
  password = 'contraseña-segura-1',
  firstName = 'Ana',
  lastName = 'García',
}: { email?: string; password?: string; firstName?: string; lastName?: string } = {}) {
  const auth = getAuth()
  const signUp = await auth.api.signUpEmail({
    body: { name: `${firstName} ${lastName}`, email, password, firstName, lastName, callbackURL: '/auth?confirmacion=1' },
  })
  const mail = await latestMailTo(email, 'Confirma tu email')
  const response = await auth.handler(new Request(firstLink(mail!.text), { headers: { 'x-app-client-ip': TEST_IP } }))
  return { userId: signUp.user.id, email, password, cookie: cookiesFrom(response.headers) }
}

/** The toast a redirect carries in its flash cookie, as the next page's root loader reads it. */
export async function readToast(headers: Headers) {
  const { getToast } = await import('~/platform/http/toast.server')
  const cookie = cookiesFrom(headers)
  if (!cookie) return null
  return (await getToast(new Request(BASE_URL, { headers: { Cookie: cookie } }))).toast
}
