import { test as base, expect, type Page } from '@playwright/test'
import { type SharedMember, sharedMember } from './accounts'

export { expect }

/**
 * React's production errors when the browser's render does not match the server's HTML: it
 * then renders the document again, and whatever a member typed meanwhile is lost.
 */
export function isHydrationFailure(message: string) {
  return /Minified React error #(418|423|425)\b|Hydration failed/.test(message)
}

/**
 * `test.use({ signedIn: true })` starts the test's context signed in as the shared
 * member (created on first use, once per run); `member` gives its details.
 */
export const test = base.extend<{ signedIn: boolean; member: SharedMember }>({
  signedIn: [false, { option: true }],
  page: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await use(awaitHydrationOnGoto(page))
    expect(errors.filter(isHydrationFailure), 'React threw the server HTML away on hydration (typed text is lost)').toEqual([])
  },
  member: async ({ browser }, use) => {
    await use(await sharedMember(browser))
  },
  storageState: async ({ signedIn, storageState, browser }, use) => {
    await use(signedIn ? (await sharedMember(browser)).storageState : storageState)
  },
})

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
