import { test as base } from '@playwright/test'
import { type SharedMember, sharedMember } from './accounts'

export { expect } from '@playwright/test'

/**
 * `test.use({ signedIn: true })` starts the test's context signed in as the shared
 * member (created on first use, once per run); `member` gives its details.
 */
export const test = base.extend<{ signedIn: boolean; member: SharedMember }>({
  signedIn: [false, { option: true }],
  member: async ({ browser }, use) => {
    await use(await sharedMember(browser))
  },
  storageState: async ({ signedIn, storageState, browser }, use) => {
    await use(signedIn ? (await sharedMember(browser)).storageState : storageState)
  },
})
