import { expect, test } from './support/fixtures'
import { expectToast, scrollAndSettle } from './support/ui'

// Without Stripe keys on localhost the pricing button leads to the local test checkout
// ('Modo de prueba'), which runs the same activation code as Stripe's webhook.
test.use({ signedIn: 'member' })

test('cancel, then pay, then manage the subscription with the test checkout', async ({ page }) => {
  test.setTimeout(120_000)
  const stickyBar = page.getByTestId('sticky-admission-bar')
  // Before paying, the same scroll as after it shows the sticky admission bar by the time
  // scrollAndSettle returns (not retried): the control of the check after paying.
  await page.goto('/')
  await scrollAndSettle(page, 2 * page.viewportSize()!.height)
  expect(await stickyBar.getAttribute('data-visible'), 'the sticky bar once the scroll has been handled').toBe('true')

  await page.goto('/pricing')
  await page.getByTestId('pricing-form').locator('label').filter({ hasText: 'Anual' }).click()
  await expect(page.getByRole('radio', { name: /Anual/ })).toBeChecked()
  await expect(page.getByText('Ahorra 180€ al año')).toBeVisible()
  await page.getByRole('button', { name: 'Hazte miembro' }).click()
  await expect(page).toHaveURL(/\/billing\/test-checkout\?session=test_cs_/)
  await expect(page.getByText('Modo de prueba')).toBeVisible()
  await expect(page.getByText('Anual · 900 € al año')).toBeVisible()
  await page.getByRole('button', { name: 'Cancelar' }).click()
  await expect(page).toHaveURL(/\/canceled$/)
  await expect(page.getByRole('heading', { name: 'Pago cancelado' })).toBeVisible()

  await page.goto('/perfil')
  await expect(page.getByRole('link', { name: /Solicitar admisión/ })).toBeVisible()

  await page.goto('/pricing')
  await page.getByRole('button', { name: 'Hazte miembro' }).click()
  await expect(page.getByText('Mensual · 89 € al mes')).toBeVisible()
  await page.getByRole('button', { name: 'Pagar (simulado)' }).click()
  await expect(page).toHaveURL(/\/success$/)
  await expect(page.getByRole('heading', { name: '¡Pago procesado!' })).toBeVisible()
  // The page sends the member to the profile by itself after 5 seconds.
  await expect(page).toHaveURL(/\/perfil$/, { timeout: 10_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
  await expect(page.getByText('Premium', { exact: true }).first()).toBeVisible()

  await page.goto('/pricing')
  await expect(page.getByText('Ya eres miembro Premium')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Hazte miembro' })).toHaveCount(0)

  // A premium member never sees the sticky admission bar, however far they scroll.
  await page.goto('/')
  await expect(page.locator('#precios').getByText('Ya eres miembro Premium')).toBeVisible()
  await scrollAndSettle(page, 2 * page.viewportSize()!.height)
  expect(await stickyBar.count(), 'the sticky bar once the scroll has been handled').toBe(0)

  await page.goto('/perfil')
  await page.getByRole('button', { name: 'Gestionar suscripción' }).click()
  await expect(page).toHaveURL(/\/billing\/test-portal$/)
  await page.getByRole('button', { name: 'Cancelar suscripción' }).click()
  await expectToast(page, 'Suscripción cancelada')
  await expect(page.getByRole('link', { name: /Solicitar admisión/ })).toBeVisible()
})
