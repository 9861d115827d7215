import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { type Browser, expect, type Page } from '@playwright/test'
import { markMailLog, waitForMailLink } from './mail'
import { expectToast } from './ui'

export interface Account {
  email: string
  password: string
  firstName: string
  lastName: string
}

let counter = 0

/** A fresh address per call; the server allows 20 sign-ups an hour from one address (a whole run makes about 12), so use few. */
export function uniqueEmail(tag = 'user') {
  counter += 1
  return `e2e-${Date.now()}-${process.pid}-${counter}-${tag}@example.com`
}

export function newAccount(tag?: string, overrides: Partial<Account> = {}): Account {
  return { email: uniqueEmail(tag), password: 'Clave-segura-2026', firstName: 'Lucía', lastName: 'Prueba', ...overrides }
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
  await expectToast(page, '¡Registro exitoso! Revisa tu email para confirmar tu cuenta.')
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email)
  return mark
}

/**
 * Signs up through the UI and follows the confirmation link from the server log:
 * the page ends signed in, on /perfil.
 */
export async function createConfirmedAccount(page: Page, overrides: Partial<Account> = {}): Promise<Account> {
  const account = newAccount('member', overrides)
  const mark = await signUp(page, account)
  const link = await waitForMailLink(account.email, 'Confirma tu email', { after: mark })
  await page.goto(link)
  await expect(page).toHaveURL(/\/perfil(\?|$)/)
  await expect(page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
  return account
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
  await expectToast(page, '¡Sesión iniciada correctamente!')
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

export interface SharedMember extends Account {
  /** A signed-in browser state (cookies) to start contexts with. */
  storageState: string
}

let shared: Promise<SharedMember> | undefined

/**
 * One confirmed member for the tests that only need to be signed in (menus, a11y of
 * /perfil). Created once per run and kept on disk, so a restarted worker reuses it
 * instead of spending one of the few sign-ups per hour. Tests must not sign it out.
 */
export function sharedMember(browser: Browser): Promise<SharedMember> {
  shared ??= loadOrCreateSharedMember(browser).catch((error) => {
    shared = undefined
    throw error
  })
  return shared
}

async function loadOrCreateSharedMember(browser: Browser): Promise<SharedMember> {
  const dir = process.env.E2E_STATE_DIR
  if (!dir) throw new Error('E2E_STATE_DIR is not set: run the tests through playwright.config.ts')
  const accountFile = path.join(dir, 'member.json')
  const storageState = path.join(dir, 'member-state.json')
  if (existsSync(accountFile) && existsSync(storageState)) {
    return { ...(JSON.parse(readFileSync(accountFile, 'utf8')) as Account), storageState }
  }
  mkdirSync(dir, { recursive: true })
  // Called while the test's own context options are being resolved: give them explicitly.
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
  })
  try {
    const page = await context.newPage()
    const account = await createConfirmedAccount(page, { firstName: 'Marta', lastName: 'Compartida', email: uniqueEmail('shared') })
    await context.storageState({ path: storageState })
    writeFileSync(accountFile, JSON.stringify(account))
    return { ...account, storageState }
  } finally {
    await context.close()
  }
}
