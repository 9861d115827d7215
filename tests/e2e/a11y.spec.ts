import { mkdirSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { type Page } from '@playwright/test'
import { expect, test } from './support/fixtures'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']
const NARROW = { width: 360, height: 740 }
const MOBILE = { width: 390, height: 844 }
const SCREENS_DIR = 'test-results/screens'

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number]

/** One readable line per violation and element: what, why, where. */
function describeViolations(violations: Violation[]) {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map((node) => `      - ${node.target.join(' ')}${node.failureSummary ? `\n        ${node.failureSummary.replace(/\n\s*/g, ' · ')}` : ''}`)
        .join('\n')
      return `  [${violation.impact ?? 'n/a'}] ${violation.id}: ${violation.help}\n    ${violation.helpUrl}\n${nodes}`
    })
    .join('\n')
}

async function expectNoAxeViolations(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  if (violations.length > 0) console.log(`\nAxe violations on ${label}:\n${describeViolations(violations)}\n`)
  // Soft: a test checking several states reports every one of them.
  expect.soft(violations.length, `axe violations on ${label}:\n${describeViolations(violations)}`).toBe(0)
}

/** No horizontal scrolling at 360 px: nothing wider than the screen. */
async function expectNoHorizontalOverflow(page: Page, label: string) {
  await page.setViewportSize(NARROW)
  await page.waitForFunction(() => window.innerWidth === 360)
  const { scrollWidth, culprits } = await page.evaluate(() => {
    // The innermost elements reaching past the right edge: what to fix.
    const limit = document.documentElement.clientWidth + 1
    const wide = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
      (element) => element.getBoundingClientRect().right > limit && getComputedStyle(element).position !== 'fixed',
    )
    const innermost = wide.filter((element) => !wide.some((other) => other !== element && element.contains(other)))
    const describe = (element: HTMLElement) => {
      const classes = element.getAttribute('class')?.trim().split(/\s+/).slice(0, 6).join('.') ?? ''
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)
      return `<${element.tagName.toLowerCase()}${classes ? ` class="${classes}"` : ''}> right=${Math.round(element.getBoundingClientRect().right)}px "${text}"`
    }
    return { scrollWidth: document.documentElement.scrollWidth, culprits: innermost.slice(0, 8).map(describe) }
  })
  expect.soft(scrollWidth, `horizontal overflow on ${label} at 360 px; elements past the edge:\n  ${culprits.join('\n  ')}`).toBeLessThanOrEqual(
    NARROW.width,
  )
}

async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENS_DIR, { recursive: true })
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true })
}

/** Wait for hydration (React attaches the router) so the page is the one a visitor sees. */
async function gotoSettled(page: Page, path: string) {
  const response = await page.goto(path)
  await page.waitForLoadState('networkidle')
  return response
}

const PUBLIC_PAGES: Array<{ path: string; heading: string | RegExp; status?: number; screen?: string }> = [
  { path: '/', heading: /Conecta con el 0,1% del talento pharma/, screen: 'desktop-home' },
  { path: '/auth', heading: 'Bienvenido de nuevo', screen: 'desktop-auth' },
  { path: '/auth?tab=registro', heading: 'Crea tu cuenta' },
  { path: '/auth?tab=recuperar', heading: 'Recuperar contraseña' },
  { path: '/forgot-password', heading: 'Recuperar contraseña' },
  { path: '/reset-password?type=recovery&token=x', heading: 'Nueva contraseña' },
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
    test.use({ signedIn: true })

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
