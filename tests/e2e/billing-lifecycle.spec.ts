import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expect, test } from './support/fixtures'

// Issue 40, part B: a failed payment's banner, 'Mantener mi membresía' and why, the admin creating
// a promotion code. The members' subscriptions are the local test checkout's, seeded in the state
// each persona names (support/seed-members.mjs).

test('a failed payment: the community tells the member and offers the portal, at 1280 and 390 px', async ({ signedInAs }) => {
  const { page } = await signedInAs('pastDue')
  await page.setViewportSize(DESKTOP)
  await page.goto('/comunidad')
  const banner = page.getByRole('region', { name: 'Tu membresía' })
  await expect(banner.getByRole('alert')).toContainText('No hemos podido cobrar tu cuota.')
  await expect(banner.getByRole('alert')).toContainText('para no perder tu acceso premium')
  await expect(banner.getByRole('button', { name: 'Actualizar método de pago' })).toBeVisible()
  await expectNoAxeViolations(page, '/comunidad with a failed payment at 1280 px')
  await screenshot(page, 'billing-failed-payment-1280', { fullPage: false })
  await expectNoHorizontalOverflow(page, '/comunidad with a failed payment', MOBILE)
  await expectNoAxeViolations(page, '/comunidad with a failed payment at 390 px')
  await screenshot(page, 'billing-failed-payment-390', { fullPage: false })

  // /perfil says the same; the button opens the (test) billing portal.
  await page.setViewportSize(DESKTOP)
  await page.goto('/perfil')
  await expect(page.getByText('No hemos podido cobrar tu cuota.')).toBeVisible()
  await page.getByRole('button', { name: 'Actualizar método de pago' }).click()
  await expect(page).toHaveURL(/\/billing\/test-portal$/)
})

test("a cancelled membership: 'Tu membresía termina el 12 de enero', why, and 'Mantener mi membresía'", async ({ signedInAs }) => {
  const { page } = await signedInAs('cancelling')
  await page.setViewportSize(DESKTOP)
  await page.goto('/perfil')
  const notices = page.locator('#membresia')
  await expect(notices.getByText('Tu membresía termina el 12 de enero')).toBeVisible()
  await notices.getByLabel('Es demasiado caro').check()
  await notices.getByLabel('Si quieres, cuéntanos algo más').fill('Mi empresa ha recortado la formación.')
  await expectNoAxeViolations(page, '/perfil cancelling at 1280 px')
  await screenshot(page, 'billing-cancelling-1280')
  await notices.getByRole('button', { name: 'Enviar respuesta' }).click()
  await expect(page.getByText('Gracias por contárnoslo').first()).toBeVisible()
  await expectNoHorizontalOverflow(page, '/perfil cancelling', MOBILE)
  await expectNoAxeViolations(page, '/perfil cancelling at 390 px')
  await screenshot(page, 'billing-cancelling-390')

  await page.setViewportSize(DESKTOP)
  await page.goto('/comunidad')
  await expect(page.getByRole('region', { name: 'Tu membresía' })).toContainText('Tu membresía termina el 12 de enero.')
  await page.getByRole('button', { name: 'Mantener mi membresía' }).click()
  await expect(page.getByText('Tu membresía sigue activa')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Tu membresía' })).toHaveCount(0)
  // Told once: /perfil reads the same keyed fetcher ('Mantener mi membresía'), and a client
  // navigation there must not tell it again.
  await expect(page.getByText('Tu membresía sigue activa')).toHaveCount(0, { timeout: 10_000 })
  await page.evaluate(() =>
    (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(
      '/perfil',
    ),
  )
  await expect(page.getByRole('button', { name: 'Guardar preferencias' })).toBeVisible()
  await expect(page.getByText('Tu membresía termina el')).toHaveCount(0)
  // An absence: the page's effects have run well within a second and a half.
  await page.waitForTimeout(1500)
  expect(await page.getByText('Tu membresía sigue activa').count()).toBe(0)
})

test('an admin creates a promotion code, sees it listed and deactivates it, at 1280 and 390 px', async ({ signedInAs }) => {
  const { page } = await signedInAs('admin')
  await page.setViewportSize(DESKTOP)
  await page.goto('/admin')
  await page.getByRole('link', { name: 'Códigos' }).click()
  await expect(page).toHaveURL(/\/admin\/codigos$/)
  const code = `SOCIO-${Date.now().toString(36).toUpperCase()}`

  // A refused code first: the field says why.
  await page.getByLabel('Código', { exact: true }).fill('MAL CÓDIGO')
  await page.getByLabel('Porcentaje (si es porcentaje)').fill('150')
  await page.getByRole('button', { name: 'Crear código' }).click()
  await expect(page.getByText('Revisa los datos del código')).toBeVisible()
  await expect(page.getByText('El código solo puede tener letras sin tilde, números y guiones')).toBeVisible()
  await expect(page.getByText('El porcentaje debe estar entre 1 y 100')).toBeVisible()

  await page.getByLabel('Código', { exact: true }).fill(code.toLowerCase())
  await page.getByLabel('Porcentaje (si es porcentaje)').fill('20')
  await page.getByLabel('Duración').selectOption('repeating')
  await page.getByLabel('Meses (si dura unos meses)').fill('3')
  await page.getByLabel('Usos máximos (opcional)').fill('25')
  await page.getByRole('button', { name: 'Crear código' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Código creado' })).toBeVisible()
  const table = page.getByRole('table', { name: 'Códigos promocionales' })
  const row = table.getByRole('row').filter({ hasText: code })
  await expect(row).toContainText('20 % · 3 meses')
  await expect(row).toContainText('0 de 25')
  await expect(row).toContainText('Activo')
  await expectNoAxeViolations(page, '/admin/codigos at 1280 px')
  await screenshot(page, 'billing-codes-1280')
  await expectNoHorizontalOverflow(page, '/admin/codigos', MOBILE)
  await expectNoAxeViolations(page, '/admin/codigos at 390 px')
  await screenshot(page, 'billing-codes-390')

  await page.setViewportSize(DESKTOP)
  await row.getByRole('button', { name: `Desactivar ${code}` }).click()
  await expect(row).toContainText('Desactivado')
})

test("an admin pauses a member's payments until a date, the member sees it in /perfil, the admin resumes them", async ({ signedInAs }) => {
  test.setTimeout(120_000)
  // A member with a running subscription of the local test checkout: bought through it.
  const member = await signedInAs('complete')
  await member.page.setViewportSize(DESKTOP)
  await member.page.goto('/pricing')
  await member.page.getByRole('button', { name: 'Hazte miembro' }).click()
  await member.page.getByRole('button', { name: 'Pagar (simulado)' }).click()
  await expect(member.page).toHaveURL(/\/success$/)

  const { page } = await signedInAs('admin')
  await page.setViewportSize(DESKTOP)
  await page.goto(`/usuario/${member.id}`)
  await page.getByRole('link', { name: 'Cobro: pausar o reanudar' }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/miembros/${member.id}/cobro$`))
  await expect(page.getByRole('heading', { name: `Cobro de ${member.name}` })).toBeVisible()
  await expect(page.getByText('Mensual · 89,00 € al mes')).toBeVisible()
  await expectNoAxeViolations(page, 'the pause page before pausing')

  // Thirty days from now (a day in Madrid's calendar after today, whatever the hour).
  const resumesOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
  await page.getByLabel('Reanudar el cobro el').fill(resumesOn)
  await page.getByRole('button', { name: 'Pausar cobro' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Cobro pausado' })).toBeVisible()
  await expect(page.getByText('En pausa', { exact: true })).toBeVisible()
  await expect(page.getByText(/^Cobro en pausa hasta el \d{1,2} de \p{L}+ de \d{4}; Stripe lo reanuda ese día\.$/u)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Reanudar cobro' })).toBeVisible()
  await expectNoAxeViolations(page, 'the pause page, paused, at 1280 px')
  await screenshot(page, 'billing-pause-1280')
  await expectNoHorizontalOverflow(page, 'the pause page, paused', MOBILE)
  await expectNoAxeViolations(page, 'the pause page, paused, at 390 px')
  await screenshot(page, 'billing-pause-390')
  await page.setViewportSize(DESKTOP)

  // The member is told, and keeps premium meanwhile.
  await member.page.goto('/perfil')
  const notice = member.page.locator('#membresia')
  await expect(
    notice.getByText(/Tu cobro está en pausa hasta el \d{1,2} de \p{L}+ de \d{4}\. Mientras tanto conservas tu acceso premium\./u),
  ).toBeVisible()
  await expectNoAxeViolations(member.page, '/perfil paused at 1280 px')
  await notice.scrollIntoViewIfNeeded()
  await screenshot(member.page, 'billing-paused-perfil-1280', { fullPage: false })
  await expectNoHorizontalOverflow(member.page, '/perfil paused', MOBILE)
  await notice.scrollIntoViewIfNeeded()
  await screenshot(member.page, 'billing-paused-perfil-390', { fullPage: false })

  await page.getByRole('button', { name: 'Reanudar cobro' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Cobro reanudado' })).toBeVisible()
  await expect(page.getByText('En pausa', { exact: true })).toHaveCount(0)
  await member.page.goto('/perfil')
  await expect(member.page.getByText('Tu cobro está en pausa hasta el')).toHaveCount(0)
})
