import { expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expect, test } from './support/fixtures'
import { gotoSettled } from './support/ui'

const PUBLIC_PAGES: Array<{ path: string; heading: string | RegExp; status?: number; screen?: string }> = [
  { path: '/', heading: /Conecta con el 0,1% del talento pharma/, screen: 'desktop-home' },
  { path: '/auth', heading: 'Bienvenido de nuevo', screen: 'desktop-auth' },
  { path: '/auth?tab=registro', heading: 'Crea tu cuenta' },
  { path: '/auth?tab=recuperar', heading: 'Recuperar contraseña' },
  { path: '/forgot-password', heading: 'Recuperar contraseña' },
  { path: '/reset-password?type=recovery&token=x', heading: 'Enlace de recuperación inválido' },
  { path: '/legal', heading: 'Aviso Legal y Condiciones de Uso' },
  { path: '/privacidad', heading: 'Política de Privacidad y Cookies' },
  { path: '/success', heading: '¡Pago procesado!' },
  { path: '/canceled', heading: 'Pago cancelado' },
  { path: '/pagina-que-no-existe', heading: '404', status: 404 },
]

test.describe('Accesibilidad (axe, WCAG 2.1 AA) y 360 px', () => {
  for (const { path, heading, status = 200, screen } of PUBLIC_PAGES) {
    test(`${path}`, async ({ page }) => {
      // Note: /success moves on to /perfil after 5 s; these checks take about 2 s.
      const response = await gotoSettled(page, path)
      expect(response?.status(), `status of ${path}`).toBe(status)
      // The page really rendered (not an error page): its title is on screen.
      await expect(page.getByText(heading, { exact: typeof heading === 'string' }).first()).toBeVisible()
      expect(new URL(page.url()).pathname).toBe(path.split('?')[0])
      if (screen) await screenshot(page, screen)
      await expectNoAxeViolations(page, path)
      await expectNoHorizontalOverflow(page, path)
    })
  }

  test.describe('con sesión', () => {
    test.use({ signedIn: 'member' })

    test('/perfil (perfil incompleto)', async ({ page }) => {
      await gotoSettled(page, '/perfil')
      await expect(page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
      await expect(page.getByRole('region', { name: 'Perfil Incompleto' })).toBeVisible()
      await screenshot(page, 'desktop-perfil')
      await expectNoAxeViolations(page, '/perfil')
      await expectNoHorizontalOverflow(page, '/perfil')
    })

    test.describe('móvil', () => {
      test.use({ viewport: MOBILE })

      test('menús abiertos con sesión', async ({ page }) => {
        await gotoSettled(page, '/perfil')
        await page.locator('button[aria-controls="mobile-nav-menu"]').click()
        await expect(page.locator('#mobile-nav-menu')).toBeVisible()
        await expectNoAxeViolations(page, '/perfil with the mobile nav menu open')
        await page.locator('button[aria-controls="mobile-user-menu"]').click()
        await expect(page.locator('#mobile-user-menu')).toBeVisible()
        await screenshot(page, 'mobile-perfil-user-menu')
        await expectNoAxeViolations(page, '/perfil with the mobile user menu open')
      })
    })
  })

  test.describe('móvil sin sesión', () => {
    test.use({ viewport: MOBILE })

    test('menú abierto', async ({ page }) => {
      await gotoSettled(page, '/')
      await page.locator('button[aria-controls="mobile-nav-menu"]').click()
      await expect(page.locator('#mobile-nav-menu')).toBeVisible()
      await screenshot(page, 'mobile-home-menu')
      await expectNoAxeViolations(page, '/ with the mobile nav menu open')
      await expectNoHorizontalOverflow(page, '/ with the mobile nav menu open')
    })

    test('/auth', async ({ page }) => {
      await gotoSettled(page, '/auth')
      await expect(page.locator('form#sign-in')).toBeVisible()
      await screenshot(page, 'mobile-auth')
      await expectNoAxeViolations(page, '/auth at 390 px')
    })
  })
})
