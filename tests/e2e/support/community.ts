import { expect, type Locator, type Page } from '@playwright/test'

/** Post cards only: comments are articles too. */
export const POST_CARD = 'article[id^="post-"]'

/** The feed's card of the post with this title. */
export function postCard(page: Page, title: string) {
  return page.locator(POST_CARD).filter({ has: page.getByRole('heading', { name: title, exact: true }) })
}

/** The id in an element's `<prefix>-<uuid>` id attribute (post cards and comments). */
export async function idOf(element: Locator, prefix: 'post' | 'comment') {
  const id = await element.getAttribute('id')
  expect(id, `the element has the id ${prefix}-<uuid>`).toMatch(new RegExp(`^${prefix}-[0-9a-f-]{36}$`))
  return id!.slice(prefix.length + 1)
}

/** /comunidad with this post's comments open (where a notification leads), the post shown first if it is not on the page. */
export const commentsOf = (postId: string) => `/comunidad?comentarios=${postId}#post-${postId}`

/** A form posted to `path` as the member of this page (the feed's action by default), expecting 200. */
export async function feedAction(page: Page, form: Record<string, string>, path = '/comunidad?index') {
  const response = await page.request.post(path, { form, headers: { Origin: process.env.E2E_BASE_URL! }, maxRedirects: 0 })
  expect(response.status(), `${form.intent} ${JSON.stringify(form)}`).toBe(200)
}

/**
 * Marks the member's notifications read: a new event or CEO session notifies every member, seeded
 * ones included, so a test that counts the bell starts it from zero.
 */
export const markAllRead = (page: Page) => feedAction(page, { intent: 'mark-all-read' }, '/notificaciones')

/** Creates a text post through the action and returns its id (read from the feed the author sees). */
export async function createPost(page: Page, title: string) {
  await feedAction(page, { intent: 'create-post', postType: 'text', title })
  await page.goto('/comunidad')
  return idOf(postCard(page, title), 'post')
}

/**
 * Titles that stay unique when a test runs again on the same database (a retry, or a post of
 * another test with the same words): the feed is shared by every test of a run.
 */
export function uniqueTitle(title: string) {
  return `${title} (${Date.now().toString(36).slice(-5)})`
}
