import { expect, type Page } from '@playwright/test'
import { markMailLog } from './mail'
import { expectToast } from './ui'

// Sign-up and sign-in through the real forms, for the journeys that test them. Other tests sign
// in as seeded members (fixtures.ts, docs/decisions/0022) and create no account.

export interface Account {
  email: string
  password: string
  firstName: string
  lastName: string
}

let counter = 0

/** A fresh address per call (the server allows 20 sign-ups an hour from one address). */
export function newAccount(tag = 'user', overrides: Partial<Account> = {}): Account {
  counter += 1
  const email = `e2e-${Date.now()}-${process.pid}-${counter}-${tag}@example.com`
  return { email, password: 'Clave-segura-2026', firstName: 'Lucía', lastName: 'Prueba', ...overrides }
}

/** Fills and sends the sign-up form (the page must show it) and waits for the answer. */
export async function submitSignUp(page: Page, account: Account) {
  await page.getByLabel('Nombre', { exact: true }).fill(account.firstName)
  await page.getByLabel('Apellido', { exact: true }).fill(account.lastName)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  await page.getByLabel('Contraseña', { exact: true }).fill(account.password)
  await page.getByLabel('Confirmar contraseña', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Registrarse', exact: true }).click()
}

/** Signs up through the UI and expects the success answer. Returns the log mark taken before. */
export async function signUp(page: Page, account: Account) {
  const mark = markMailLog()
  await page.goto('/auth?tab=registro')
  await submitSignUp(page, account)
  await expectToast(page, 'Cuenta creada exitosamente. Revisa tu email para confirmar tu cuenta.')
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email)
  return mark
}

/** Fills and sends the sign-in form shown on the page, without checking the outcome. */
export async function submitSignIn(page: Page, email: string, password: string) {
  const form = page.locator('form#sign-in')
  await form.getByLabel('Email', { exact: true }).fill(email)
  await form.getByLabel('Contraseña', { exact: true }).fill(password)
  await form.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click()
}

/** Signs in through /auth (or the sign-in form already shown) and expects success. */
export async function signIn(page: Page, email: string, password: string, { navigate = true } = {}) {
  if (navigate) await page.goto('/auth')
  await submitSignIn(page, email, password)
  await expect(page).not.toHaveURL(/\/auth(\?|$)/)
  await expectToast(page, 'Sesión iniciada exitosamente')
}

/** Signs out from the user menu (desktop or mobile) and expects the answer. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Menú de usuario' }).click()
  const signOutItem = page.getByRole('button', { name: 'Cerrar Sesión' }).or(page.getByRole('menuitem', { name: 'Cerrar Sesión' }))
  await signOutItem.first().click()
  await expect(page).toHaveURL(/\/$/)
  await expectToast(page, 'Sesión cerrada correctamente')
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toHaveCount(0)
}
