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
