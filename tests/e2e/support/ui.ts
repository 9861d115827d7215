import { expect, type Locator, type Page } from '@playwright/test'

/** A toast with this text (toasts are `[data-toast]`, app/ui/toast.tsx). */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-toast]').filter({ hasText: text })
}

export async function expectToast(page: Page, text: string) {
  await expect(toast(page, text).first(), `toast "${text}"`).toBeVisible()
}

/** The path and query of the page's URL, e.g. `/auth?redirectTo=%2Fperfil`. */
export function pathOf(page: Page) {
  const url = new URL(page.url())
  return `${url.pathname}${url.search}${url.hash}`
}

/** A form field's inline error: shown, announced (role=alert) and tied to the input. */
export async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription(message)
  const errorId = await field.getAttribute('aria-describedby')
  expect(errorId, 'the error is linked with aria-describedby').toBeTruthy()
  const error = field.page().locator(`[id="${errorId}"]`)
  await expect(error).toHaveText(message)
  await expect(error).toHaveAttribute('role', 'alert')
  await expect(error).toBeVisible()
}

export async function expectNoFieldError(field: Locator) {
  await expect(field).not.toHaveAttribute('aria-invalid', 'true')
}

/** Loaded and hydrated, with no request in flight any more. */
export async function gotoSettled(page: Page, path: string) {
  const response = await page.goto(path)
  await page.waitForLoadState('networkidle')
  return response
}

/** Waits until the page stops scrolling (html has `scroll-behavior: smooth`: an anchor is reached gradually). */
export async function scrollSettled(page: Page) {
  await expect
    .poll(
      async () => {
        const before = await page.evaluate(() => window.scrollY)
        await page.waitForTimeout(250)
        return before === (await page.evaluate(() => window.scrollY))
      },
      { message: 'the page stops scrolling' },
    )
    .toBe(true)
}

/**
 * Scrolls to `top` and returns once the page has seen the scroll event and drawn two frames after
 * it: what a scroll listener shows has been rendered by then, so its absence means something.
 */
export async function scrollAndSettle(page: Page, top: number) {
  await page.evaluate(async (y) => {
    const [before, scrolled] = [window.scrollY, new Promise((resolve) => window.addEventListener('scroll', resolve, { once: true }))]
    window.scrollTo({ top: y, behavior: 'instant' })
    // No scroll, no event to wait for.
    if (window.scrollY === before) throw new Error(`The page did not scroll from ${before}px towards ${y}px`)
    await scrolled
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  }, top)
}

/**
 * Installed in every page with JavaScript (support/fixtures): notes when the page's notification
 * stream has opened. The server subscribes a stream before it answers, so from then on the page
 * hears what others do: the test waits for that instead of guessing a time.
 */
export function noteLiveStream() {
  const Native = window.EventSource
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init)
      // A stream the page replaces (a client navigation, a reconnection) is not open until it says so.
      const page = window as unknown as { liveStreamOpen?: boolean }
      page.liveStreamOpen = false
      this.addEventListener('open', () => (page.liveStreamOpen = true))
      this.addEventListener('error', () => (page.liveStreamOpen = false))
    }
    close() {
      ;(window as unknown as { liveStreamOpen?: boolean }).liveStreamOpen = false
      super.close()
    }
  }
}

/** Waits until the page's notification stream is open (see `noteLiveStream`). */
export async function liveStreamOpen(page: Page) {
  await page.waitForFunction(() => (window as unknown as { liveStreamOpen?: boolean }).liveStreamOpen === true)
}
