import { type Page } from '@playwright/test'
import { signIn } from './support/accounts'
import { expect, isHydrationFailure, test } from './support/fixtures'
import { expectToast, pathOf } from './support/ui'

const MOBILE = { width: 390, height: 844 }

const hamburger = (page: Page) => page.locator('button[aria-controls="mobile-nav-menu"]')
const mobileUserButton = (page: Page) => page.locator('button[aria-controls="mobile-user-menu"]')
const mobileNav = (page: Page) => page.locator('#mobile-nav-menu')
const mobileUserMenu = (page: Page) => page.locator('#mobile-user-menu')

test.describe('Barra superior (sin sesión, escritorio)', () => {
  test('marca, secciones y acceso', async ({ page }) => {
    await page.goto('/canceled')
    const bar = page.getByRole('banner')
    await expect(bar.getByRole('link', { name: 'Círculo CEO' })).toHaveAttribute('href', '/')
    const nav = bar.getByRole('navigation', { name: 'Principal' })
    await expect(nav.getByRole('link')).toHaveText(['Beneficios', 'Cómo Funciona', 'Precios', 'FAQ'])
    await expect(nav.getByRole('link', { name: 'Beneficios' })).toHaveAttribute('href', '/#beneficios')
    await expect(nav.getByRole('link', { name: 'Cómo Funciona' })).toHaveAttribute('href', '/#como-funciona')
    await expect(nav.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/#faq')
    await expect(bar.getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute('href', '/auth')
    await expect(bar.getByRole('link', { name: 'Registrarse' })).toHaveAttribute('href', '/auth?tab=registro')
    // No user menu and no mobile controls on a wide screen.
    await expect(bar.getByRole('button', { name: 'Menú de usuario' })).toHaveCount(0)
    await expect(hamburger(page)).toBeHidden()

    await bar.getByRole('link', { name: 'Iniciar Sesión' }).click()
    await expect(page).toHaveURL(/\/auth$/)
    await expect(page.locator('form#sign-in')).toBeVisible()
  })

  test('un enlace de sección desde otra página lleva a la portada y baja a la sección', async ({ page }) => {
    const response = await page.goto('/legal')
    expect(response?.status(), '/legal must answer 200').toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: 'Aviso Legal y Condiciones de Uso' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Cómo Funciona' }).click()
    await expect(page).toHaveURL(/\/#como-funciona$/)
    const section = page.locator('#como-funciona')
    await expect(section).toBeInViewport()
    await expect(page.getByRole('heading', { level: 2, name: 'Cómo Funciona' })).toBeInViewport()
    // The page scrolled: the section ends near the top, below the fixed bar (64 px).
    await expect
      .poll(async () => Math.round((await section.boundingBox())?.y ?? -1), { message: 'top of #como-funciona' })
      .toBeGreaterThanOrEqual(50)
    await expect.poll(async () => Math.round((await section.boundingBox())?.y ?? -1)).toBeLessThanOrEqual(120)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  })
})

test.describe('Menú de usuario (escritorio)', () => {
  test.use({ signedIn: 'member' })

  test('muestra nombre, email y accesos', async ({ page, member }) => {
    await page.goto('/perfil')
    const bar = page.getByRole('banner')
    await expect(bar.getByRole('link', { name: 'Iniciar Sesión' })).toHaveCount(0)
    await expect(bar.getByRole('link', { name: 'Registrarse' })).toHaveCount(0)
    const trigger = bar.getByRole('button', { name: 'Menú de usuario' })
    // No picture: the first letter of the name.
    await expect(trigger).toHaveText(member.firstName.charAt(0))
    await trigger.click()

    const menu = page.getByRole('menu')
    await expect(menu).toBeVisible()
    await expect(menu).toContainText(`${member.firstName} ${member.lastName}`)
    await expect(menu).toContainText(member.email)
    await expect(menu.getByText('Premium', { exact: true })).toHaveCount(0)
    const items = menu.getByRole('menuitem')
    await expect(items).toHaveText(['Comunidad', 'Perfil', 'Cerrar Sesión'])
    await expect(menu.getByRole('menuitem', { name: 'Comunidad' })).toHaveAttribute('href', '/comunidad')
    await expect(menu.getByRole('menuitem', { name: 'Perfil' })).toHaveAttribute('href', '/perfil')

    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()

    // 'Comunidad' with an incomplete profile ends on /perfil.
    await trigger.click()
    await page.getByRole('menuitem', { name: 'Comunidad' }).click()
    await expect(page).toHaveURL(/\/perfil\?/)
    await expect(page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
  })
})

test.describe('Menús en móvil (390 px)', () => {
  test.use({ viewport: MOBILE })

  test('sin sesión: el acceso está dentro del menú', async ({ page }) => {
    await page.goto('/')
    const bar = page.getByRole('banner')
    await expect(bar.getByRole('link', { name: 'Iniciar Sesión' })).toBeHidden()
    await expect(bar.getByRole('navigation', { name: 'Principal' })).toBeHidden()
    await expect(mobileUserButton(page)).toHaveCount(0)

    const button = hamburger(page)
    await expect(button).toHaveAccessibleName('Abrir menú')
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await expect(button).toHaveAccessibleName('Cerrar menú')
    const menu = mobileNav(page)
    await expect(menu).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Cómo Funciona' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute('href', '/auth')
    await expect(menu.getByRole('link', { name: 'Registrarse' })).toHaveAttribute('href', '/auth?tab=registro')

    // The button toggles it closed again.
    await button.click()
    await expect(menu).toHaveCount(0)
    await expect(button).toHaveAttribute('aria-expanded', 'false')

    // A section link closes the menu and scrolls.
    await button.click()
    await mobileNav(page).getByRole('link', { name: 'FAQ' }).click()
    await expect(mobileNav(page)).toHaveCount(0)
    await expect(page.locator('#faq')).toBeInViewport()

    // Picking 'Iniciar Sesión' navigates and closes the menu.
    await button.click()
    await mobileNav(page).getByRole('link', { name: 'Iniciar Sesión' }).click()
    await expect(page).toHaveURL(/\/auth$/)
    await expect(mobileNav(page)).toHaveCount(0)
  })

  test.describe('con sesión', () => {
    test.use({ signedIn: 'member' })

    test('abrir uno cierra el otro; Escape y clic fuera cierran', async ({ page, member }) => {
      await page.goto('/perfil')
      const nav = hamburger(page)
      const user = mobileUserButton(page)
      await expect(user).toBeVisible()
      await expect(user).toHaveAccessibleName('Menú de usuario')
      await expect(user).toHaveText(member.firstName.charAt(0))
      await expect(user).toHaveAttribute('aria-expanded', 'false')

      await nav.click()
      await expect(mobileNav(page)).toBeVisible()
      await expect(nav).toHaveAttribute('aria-expanded', 'true')
      // Signed in: no sign-in links inside the menu.
      await expect(mobileNav(page).getByRole('link', { name: 'Iniciar Sesión' })).toHaveCount(0)

      await user.click()
      await expect(mobileUserMenu(page)).toBeVisible()
      await expect(user).toHaveAttribute('aria-expanded', 'true')
      await expect(mobileNav(page)).toHaveCount(0)
      await expect(nav).toHaveAttribute('aria-expanded', 'false')
      const userMenu = mobileUserMenu(page)
      await expect(userMenu).toContainText(`${member.firstName} ${member.lastName}`)
      await expect(userMenu).toContainText(member.email)
      await expect(userMenu.getByText('Premium', { exact: true })).toHaveCount(0)
      await expect(userMenu.getByRole('link', { name: 'Comunidad' })).toHaveAttribute('href', '/comunidad')
      await expect(userMenu.getByRole('link', { name: 'Perfil' })).toHaveAttribute('href', '/perfil')
      await expect(userMenu.getByRole('button', { name: 'Cerrar Sesión' })).toBeVisible()

      // And the other way round.
      await nav.click()
      await expect(mobileNav(page)).toBeVisible()
      await expect(mobileUserMenu(page)).toHaveCount(0)
      await expect(user).toHaveAttribute('aria-expanded', 'false')

      // Escape closes.
      await page.keyboard.press('Escape')
      await expect(mobileNav(page)).toHaveCount(0)
      await expect(nav).toHaveAttribute('aria-expanded', 'false')
      await user.click()
      await expect(mobileUserMenu(page)).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(mobileUserMenu(page)).toHaveCount(0)
      await expect(user).toHaveAttribute('aria-expanded', 'false')

      // A click outside the bar closes.
      const outside = page.getByRole('contentinfo').getByText('Círculo CEO', { exact: true })
      await user.click()
      await expect(mobileUserMenu(page)).toBeVisible()
      await outside.click()
      await expect(mobileUserMenu(page)).toHaveCount(0)
      await nav.click()
      await expect(mobileNav(page)).toBeVisible()
      await outside.click()
      await expect(mobileNav(page)).toHaveCount(0)
      await expect(nav).toHaveAttribute('aria-expanded', 'false')
      // Still on the same page: closing did not navigate.
      expect(pathOf(page)).toMatch(/^\/perfil/)
    })
  })
})

test.describe('Pie de página', () => {
  test('enlaces y diálogo de contacto', async ({ page }) => {
    await page.goto('/')
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByRole('link', { name: 'Preguntas frecuentes' })).toHaveAttribute('href', '/#faq')
    await expect(footer.getByRole('link', { name: 'Aviso legal' })).toHaveAttribute('href', '/legal')
    await expect(footer.getByRole('link', { name: 'Privacidad y cookies' })).toHaveAttribute('href', '/privacidad')

    await footer.getByRole('button', { name: 'Contacto' }).click()
    const dialog = page.getByRole('dialog', { name: 'Contacto' })
    await expect(dialog).toBeVisible()
    const mail = dialog.getByRole('link', { name: /@/ })
    await expect(mail).toHaveAttribute('href', /^mailto:[^@\s]+@[^@\s]+\.[a-z]+$/)
    const phone = dialog.getByRole('link', { name: /^\+?[\d\s]{9,}$/ })
    await expect(phone).toHaveAttribute('href', /^tel:\+?\d{9,}$/)
    await expect(dialog).toContainText('Barcelona')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()

    await footer.getByRole('link', { name: 'Privacidad y cookies' }).click()
    await expect(page).toHaveURL(/\/privacidad$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Política de Privacidad y Cookies' })).toBeVisible()
    await page.getByRole('contentinfo').getByRole('link', { name: 'Aviso legal' }).click()
    await expect(page).toHaveURL(/\/legal$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Aviso Legal y Condiciones de Uso' })).toBeVisible()
  })
})

test.describe('Páginas sueltas', () => {
  test('una ruta desconocida responde 404', async ({ page }) => {
    const response = await page.goto('/esta-pagina-no-existe/de-verdad')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: '404' })).toBeVisible()
    await expect(page.getByText('Página no encontrada')).toBeVisible()
    const back = page.getByRole('main').getByRole('link', { name: 'Volver al inicio' })
    await expect(back).toHaveAttribute('href', '/')
    await back.click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Conecta con el 0,1% del talento pharma')
  })

  test('/success lleva al perfil a los 5 s', async ({ page }) => {
    const response = await page.goto('/success')
    expect(response?.status()).toBe(200)
    const loadedAt = Date.now()
    await expect(page.getByRole('heading', { level: 1, name: '¡Pago procesado!' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Ir a mi perfil' })).toHaveAttribute('href', '/perfil')
    // Signed out, /perfil sends to /auth.
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fperfil$/, { timeout: 12_000 })
    expect(Date.now() - loadedAt, 'waits about 5 s before leaving').toBeGreaterThanOrEqual(3_500)
  })

  test('/canceled ofrece volver o ver precios', async ({ page }) => {
    const response = await page.goto('/canceled')
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: 'Pago cancelado' })).toBeVisible()
    const main = page.getByRole('main')
    await expect(main.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute('href', '/')
    await expect(main.getByRole('link', { name: 'Ver precios' })).toHaveAttribute('href', '/#pricing')
    await main.getByRole('link', { name: 'Volver al inicio' }).click()
    await expect(page).toHaveURL(/\/$/)
  })
})

test.describe('Rutas protegidas', () => {
  for (const path of ['/perfil', '/comunidad']) {
    test(`${path} sin sesión lleva a /auth recordando el destino`, async ({ page }) => {
      await page.goto(path)
      await expect(page).toHaveURL(`/auth?redirectTo=${encodeURIComponent(path)}`)
      await expect(page.locator('form#sign-in')).toBeVisible()
    })
  }

  test('al iniciar sesión desde ahí vuelve a la página protegida', async ({ page, member }) => {
    await page.goto('/perfil')
    await expect(page).toHaveURL('/auth?redirectTo=%2Fperfil')
    await signIn(page, member.email, member.password, { navigate: false })
    await expect(page).toHaveURL(/\/perfil$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
    await expectToast(page, 'Sesión iniciada exitosamente')
  })
})

test.describe('Carga de las páginas', () => {
  test('la hoja de estilos es un archivo cacheado y cada página se hidrata sin rehacer el HTML', async ({ page }) => {
    const failures: string[] = []
    page.on('pageerror', (error) => failures.push(error.message))
    for (const path of ['/', '/pricing', '/auth?tab=registro', '/legal', '/privacidad']) {
      await page.goto(path)
      const href = await page.locator('head link[rel="stylesheet"]').getAttribute('href')
      expect(href, `${path}: one stylesheet with a hashed name`).toMatch(/^\/assets\/app-[\w-]+\.css$/)
      expect(await (await page.request.get(path)).text(), `${path}: no stylesheet inlined in the document`).not.toContain('<style')
      const response = await page.request.get(href!)
      expect(response.headers()['content-type']).toContain('text/css')
      expect(response.headers()['cache-control']).toContain('immutable')
    }
    // The same file (and so the same hash) as the server named: a mismatch makes React re-render the page.
    expect(failures.filter(isHydrationFailure)).toEqual([])
  })
})
