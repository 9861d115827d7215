import { createECDH, randomBytes } from 'node:crypto'
import { type Page } from '@playwright/test'
import { DESKTOP, expectNoAxeViolations, MOBILE, screenshot } from './support/checks'
import { expect, test } from './support/fixtures'
import { expectToast } from './support/ui'

/** Issue 42: installable, a shell that opens offline, push asked for after a tap. */

const OFFLINE = 'Sin conexión. Lo que escribas no se ha perdido: vuelve a intentarlo cuando tengas conexión.'

// The other journeys block service workers (playwright.config.ts); this one is about them.
test.use({ serviceWorkers: 'allow' })

/** Waits until the page's worker is active and controls it (registered once the page is idle). */
async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }))
    }
  })
}

/** What the worker's caches hold, as paths. */
const cachedPaths = (page: Page) =>
  page.evaluate(async () => {
    const paths: string[] = []
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname)
    }
    return paths
  })

test('the manifest is served and linked, with its icons', async ({ page, request }) => {
  const response = await request.get('/manifest.webmanifest')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/)
  const manifest = await response.json()
  expect(manifest).toMatchObject({
    name: 'Círculo CEO',
    short_name: 'Círculo CEO',
    lang: 'es',
    start_url: '/comunidad',
    display: 'standalone',
    theme_color: '#0b4f4a',
  })
  expect(manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ])
  for (const icon of [...manifest.icons.map((item: { src: string }) => item.src), '/icons/apple-touch-icon.png']) {
    const file = await request.get(icon)
    expect(file.status(), icon).toBe(200)
    expect(file.headers()['content-type']).toBe('image/png')
  }
  await page.goto('/')
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest')
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/icons/apple-touch-icon.png')
  await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute('content', 'yes')
  await expect(page.locator('meta[name="apple-mobile-web-app-title"]')).toHaveAttribute('content', 'Círculo CEO')
})

/**
 * Lighthouse 12 has no installability audit any more (its PWA category went in 12.0): Chromium's
 * own check, which Lighthouse read, is asked through the DevTools protocol on the landing page
 * and the feed, once the worker controls the page.
 */
test.describe('installable (Chromium’s installability check)', () => {
  test.use({ signedIn: 'complete', viewport: MOBILE })

  for (const path of ['/', '/comunidad']) {
    test(`no installability error on ${path}`, async ({ page }) => {
      await page.goto(path)
      await controlled(page)
      const cdp = await page.context().newCDPSession(page)
      const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] }
      expect(manifest.url).toMatch(/\/manifest\.webmanifest$/)
      expect(manifest.errors).toEqual([])
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: Array<{ errorId: string }>
      }
      // A test browser's context is off the record, which Chromium names as a reason of its own.
      expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual([])
    })
  }
})

test('the worker is served fresh with its scope', async ({ request }) => {
  const response = await request.get('/sw.js')
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toBe('no-cache')
  expect(response.headers()['service-worker-allowed']).toBe('/')
  expect(response.headers()['content-type']).toMatch(/javascript/)
  const source = await response.text()
  expect(source).not.toContain('__BUILD_ID__')
  expect(source).toMatch(/const BUILD_ID = "[0-9a-f]{16}"/)
})

test.describe('offline, on a phone', () => {
  test.use({ signedIn: 'complete', viewport: MOBILE })

  test('the worker registers; with the network cut a page shows the offline page, never a copy of a member’s page', async ({
    page,
    context,
  }) => {
    await page.goto('/comunidad')
    await controlled(page)
    // A member's page and its .data answers went by; the caches hold only the build's files and the offline page.
    await page.goto('/perfil')
    await controlled(page)
    const cached = await cachedPaths(page)
    expect(cached).toContain('/offline.html')
    expect(cached.filter((path) => !path.startsWith('/assets/') && path !== '/offline.html' && path !== '/icons/icon-192.png')).toEqual([])

    await context.setOffline(true)
    // Not page.goto: the fixture's goto waits for React, and the offline page has no script.
    await page.evaluate(() => window.location.assign('/comunidad'))
    await expect(page.getByText(OFFLINE)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Círculo CEO' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Reintentar' })).toBeVisible()
    await expect(page.locator('img')).toHaveJSProperty('naturalWidth', 192)
    await screenshot(page, 'phone-offline-390')
    await expectNoAxeViolations(page, 'offline page')

    // Back online, 'Reintentar' brings the page itself.
    await context.setOffline(false)
    await page.getByRole('link', { name: 'Reintentar' }).click()
    await expect(page.getByText(OFFLINE)).toHaveCount(0)
    await expect(page).toHaveURL(/\/comunidad$/)
  })

  test('signing out leaves the worker nothing but the shell', async ({ page }) => {
    await page.goto('/comunidad')
    await controlled(page)
    await page.getByRole('button', { name: 'Menú de usuario' }).click()
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click()
    await expect(page).toHaveURL(/\/$/)
    const cached = await cachedPaths(page)
    expect(cached.filter((path) => path !== '/offline.html' && path !== '/icons/icon-192.png' && !path.startsWith('/assets/'))).toEqual([])
  })
})

/** Chromium headless has no push service: the page's PushManager gives the subscription the test made. */
type BrowserSubscription = { endpoint: string; keys: { p256dh: string; auth: string } }

function stubPush(given: BrowserSubscription) {
  let current: object | null = null
  const make = () => ({
    endpoint: given.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    toJSON: () => ({ endpoint: given.endpoint, expirationTime: null, keys: given.keys }),
    unsubscribe: async () => {
      current = null
      return true
    },
  })
  Object.defineProperty(Notification, 'permission', { get: () => 'granted' })
  Notification.requestPermission = async () => 'granted'
  PushManager.prototype.subscribe = async function () {
    current = make()
    return current as PushSubscription
  }
  PushManager.prototype.getSubscription = async function () {
    return current as PushSubscription | null
  }
}

function browserSubscription() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  }
}

for (const [name, viewport] of [
  ['390', MOBILE],
  ['1280', DESKTOP],
] as const) {
  test(`push is turned on after a tap and off with 'Desactivar' (${name} px)`, async ({ signedInAs }) => {
    const subscription = browserSubscription()
    const { page } = await signedInAs('complete', { viewport, serviceWorkers: 'allow' })
    await page.context().addInitScript(stubPush, subscription)
    await page.goto('/perfil#notificaciones')
    const card = page.locator('#notificaciones')
    await expect(card.getByRole('heading', { name: 'Notificaciones push' })).toBeVisible()
    await expect(card.getByText('Ningún dispositivo recibe notificaciones push.')).toBeVisible()
    await expect(card.getByRole('group', { name: 'Horas de silencio' })).toBeVisible()
    await expect(card.getByLabel('Desde')).toHaveValue('22:00')
    await expect(card.getByLabel('Hasta')).toHaveValue('08:00')
    await expect(card.getByRole('radio', { name: 'En la web, por email y por notificación push' }).first()).toBeVisible()
    // Private messages by push too (who wrote, never what: decisions/0035), the same five choices.
    const messagesTopic = card.getByRole('radiogroup', { name: 'Mensajes privados' })
    await expect(messagesTopic.getByRole('radio')).toHaveCount(5)
    await messagesTopic.getByRole('radio', { name: 'En la web y por notificación push', exact: true }).check()
    await expect(messagesTopic.getByRole('radio', { name: 'En la web, por email y por notificación push' })).toBeVisible()
    await messagesTopic.screenshot({ path: `test-results/screens/phone-messages-push-${name}.png` })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    await card.getByRole('button', { name: 'Guardar preferencias' }).click()
    await expectToast(page, 'Preferencias de notificación guardadas')
    await expect(
      page.locator('#notificaciones').getByRole('radiogroup', { name: 'Mensajes privados' }).getByRole('radio', {
        name: 'En la web y por notificación push',
        exact: true,
      }),
    ).toBeChecked()

    await card.getByRole('button', { name: 'Activar notificaciones en este dispositivo' }).click()
    await expectToast(page, 'Notificaciones activadas en este dispositivo')
    const device = card.getByRole('listitem').filter({ hasText: 'Este dispositivo' })
    await expect(device).toContainText('Chrome en')
    await expect(card.getByRole('button', { name: 'Activar notificaciones en este dispositivo' })).toHaveCount(0)
    await page.locator('#notificaciones').screenshot({ path: `test-results/screens/phone-push-card-${name}.png` })
    await expectNoAxeViolations(page, `/perfil push card ${name}`)

    await device.getByRole('button', { name: /^Desactivar/ }).click()
    await expectToast(page, 'Notificaciones desactivadas en ese dispositivo')
    await expect(card.getByText('Ningún dispositivo recibe notificaciones push.')).toBeVisible()
    await expect(card.getByRole('button', { name: 'Activar notificaciones en este dispositivo' })).toBeVisible()
  })
}

test('on an iPhone’s Safari the card says to add the app to the Home Screen first', async ({ signedInAs }) => {
  const { page } = await signedInAs('complete', {
    viewport: MOBILE,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  })
  await page.goto('/perfil#notificaciones')
  await expect(
    page.getByText(
      'En iPhone, primero añade Círculo CEO a la pantalla de inicio (Compartir → Añadir a pantalla de inicio) y ábrelo desde allí para activar las notificaciones.',
    ),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Activar notificaciones en este dispositivo' })).toHaveCount(0)
})

test('the privacy policy names the push services and what a device’s subscription keeps', async ({ page }) => {
  await page.goto('/privacidad')
  await expect(page.getByRole('listitem').filter({ hasText: /^El servicio de notificaciones de su navegador/ })).toContainText(
    'recibe cada aviso cifrado, sin poder leerlo, para hacerlo llegar a ese dispositivo. Los avisos nunca incluyen el texto de sus mensajes privados.',
  )
  await expect(page.getByRole('listitem').filter({ hasText: /^Comunicaciones:/ })).toContainText(
    'la dirección que su navegador nos da para enviárselas',
  )
  await expect(page.getByRole('listitem').filter({ hasText: /^Supresión:/ })).toContainText(
    'sus notificaciones y los dispositivos donde las activó',
  )
})
