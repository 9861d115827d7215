import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { noteLiveStream } from './ui'
import { test as base, type BrowserContext, type BrowserContextOptions, expect, type Page } from '@playwright/test'

export { expect }

/** The kinds of member seeded before the server starts (support/seed-members.mjs). */
export type Persona = 'member' | 'complete' | 'premium' | 'admin' | 'moderator' | 'pastDue' | 'cancelling'

/** A confirmed member, signed in by its cookie; `member` has only the sign-up names (profile 2/5). */
export interface Member {
  id: string
  persona: Persona
  email: string
  password: string
  firstName: string
  lastName: string
  /** First and last name, as the app shows them. */
  name: string
  company: string | null
  position: string | null
  cookie: { name: string; value: string }
}

/**
 * React's production errors when the browser's render does not match the server's HTML: it
 * then renders the document again, and whatever a member typed meanwhile is lost.
 */
export function isHydrationFailure(message: string) {
  return /Minified React error #(418|423|425)\b|Hydration failed/.test(message)
}

const BASE_URL = process.env.E2E_BASE_URL!
const STATE_DIR = process.env.E2E_STATE_DIR!
let pool: Record<Persona, Member[]> | undefined

/**
 * A member nobody has had: each is claimed by creating a file named after it, so no test, retry
 * or worker gets one twice. The cookie is checked against the server, so a test never runs
 * signed out by mistake (a check that something is absent would then prove nothing).
 */
export async function newMember(persona: Persona): Promise<Member> {
  pool ??= JSON.parse(readFileSync(path.join(STATE_DIR, 'members.json'), 'utf8')) as Record<Persona, Member[]>
  mkdirSync(path.join(STATE_DIR, 'claimed'), { recursive: true })
  const member = pool[persona].find((candidate) => {
    try {
      closeSync(openSync(path.join(STATE_DIR, 'claimed', candidate.id), 'wx'))
      return true
    } catch {
      return false
    }
  })
  if (!member) throw new Error(`No ${persona} left in the seeded pool: raise its count in support/seed-members.mjs`)
  const response = await fetch(`${BASE_URL}/perfil`, { headers: { Cookie: cookieHeader(member) }, redirect: 'manual' })
  expect(response.status, `the seeded session of ${member.email} signs in (200, not a redirect to /auth)`).toBe(200)
  return member
}

export const cookieHeader = (member: Member) => `${member.cookie.name}=${member.cookie.value}`

/** Cookies to start a browser context with, signed in as the member. */
export function storageStateOf(member: Member): BrowserContextOptions['storageState'] {
  const cookie = { ...member.cookie, domain: new URL(BASE_URL).hostname, path: '/', expires: -1, httpOnly: true, secure: false }
  return { cookies: [{ ...cookie, sameSite: 'Lax' as const }], origins: [] }
}

/** A member with a browser page of its own, signed in as them. */
export type SignedIn = Member & { page: Page }

/**
 * `test.use({ signedIn: 'premium' })` starts the test's page signed in as a fresh member of that
 * persona, which `member` gives; `newMember(persona)` claims one more. `pageAs(member)` opens a
 * page of its own, signed in as them (`null`: signed out), closed after the test and checked for
 * hydration as `page` is; `signedInAs(persona)` does both.
 */
export const test = base.extend<{
  signedIn: Persona | false
  signedInMember: Member | null
  member: Member
  pageAs: (member: Member | null, options?: BrowserContextOptions) => Promise<Page>
  signedInAs: (persona: Persona, options?: BrowserContextOptions) => Promise<SignedIn>
}>({
  signedIn: [false, { option: true }],
  page: async ({ page }, use) => {
    await use(watchedPage(page))
    expectHydrated(page)
  },
  // Claimed only when the page is signed in: the page of every test asks for its storage state.
  signedInMember: async ({ signedIn }, use) => {
    await use(signedIn ? await newMember(signedIn) : null)
  },
  member: async ({ signedInMember }, use) => {
    await use(signedInMember ?? (await newMember('member')))
  },
  storageState: async ({ signedInMember, storageState }, use) => {
    await use(signedInMember ? storageStateOf(signedInMember) : storageState)
  },
  pageAs: async ({ browser }, use) => {
    const contexts: BrowserContext[] = []
    const pages: Page[] = []
    await use(async (member, options = {}) => {
      const context = await browser.newContext({
        baseURL: BASE_URL,
        locale: 'es-ES',
        timezoneId: 'Europe/Madrid',
        storageState: member ? storageStateOf(member) : { cookies: [], origins: [] },
        ...options,
      })
      contexts.push(context)
      if (options.javaScriptEnabled !== false) await context.addInitScript(noteLiveStream)
      const page = await context.newPage()
      // Without JavaScript nothing hydrates.
      if (options.javaScriptEnabled === false) return page
      pages.push(watchedPage(page))
      return page
    })
    pages.forEach(expectHydrated)
    await Promise.all(contexts.map((context) => context.close()))
  },
  signedInAs: async ({ pageAs }, use) => {
    await use(async (persona, options) => {
      const member = await newMember(persona)
      return { ...member, page: await pageAs(member, options) }
    })
  },
})

const pageErrors = new WeakMap<Page, string[]>()

/** Records the page's errors and makes `goto` wait for hydration. */
function watchedPage(page: Page) {
  const errors: string[] = []
  pageErrors.set(page, errors)
  page.on('pageerror', (error) => errors.push(error.message))
  return awaitHydrationOnGoto(page)
}

function expectHydrated(page: Page) {
  expect(pageErrors.get(page)!.filter(isHydrationFailure), 'React threw the server HTML away on hydration (typed text is lost)').toEqual([])
}

/**
 * Makes `page.goto` also wait until React has hydrated the page (`html[data-hydrated]`, set
 * by the root): on a slow machine, text typed before hydration can be reset by it.
 */
export function awaitHydrationOnGoto(page: Page) {
  const goto = page.goto.bind(page)
  page.goto = async (url, options) => {
    const response = await goto(url, options)
    if (response?.headers()['content-type']?.startsWith('text/html')) {
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
    }
    return response
  }
  return page
}
