import { expect, test } from './support/fixtures'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expectFieldError, expectToast } from './support/ui'

// Issue 40 (decisions/0033, 0034): an admin creates a promotion code; a company buys in the local
// test checkout with its NIF and that code, finds the discounted invoice in /perfil and opens it;
// the admin refunds it within the guarantee.
test.use({ signedIn: 'complete' })

test('a company buys with its NIF and a code, opens its invoice; the admin refunds it within 30 days', async ({
  page,
  signedInMember,
  signedInAs,
}) => {
  test.setTimeout(150_000)
  const member = signedInMember!

  // The admin's code: 20 %, the first payment only, five uses.
  const admin = await signedInAs('admin')
  const code = `EMPRESA-${Date.now().toString(36).toUpperCase()}`
  await admin.page.goto('/admin/codigos')
  await admin.page.getByLabel('Código', { exact: true }).fill(code)
  await admin.page.getByLabel('Porcentaje (si es porcentaje)').fill('20')
  await admin.page.getByLabel('Usos máximos (opcional)').fill('5')
  await admin.page.getByRole('button', { name: 'Crear código' }).click()
  await expect(admin.page.getByRole('status').filter({ hasText: 'Código creado' })).toBeVisible()
  const codeRow = admin.page.getByRole('table', { name: 'Códigos promocionales' }).getByRole('row').filter({ hasText: code })
  await expect(codeRow).toContainText('0 de 5')

  await page.goto('/pricing')
  await expect(page.getByText('IVA incluido (21 %) para compras en España')).toBeVisible()
  await page.getByRole('button', { name: 'Hazte miembro' }).click()
  await expect(page).toHaveURL(/\/billing\/test-checkout\?session=test_cs_/)
  await expect(page.getByText('IVA incluido (21 %) para compras en España')).toBeVisible()
  await page.getByLabel('Nombre o razón social').fill('Biotec Norte, S.L.')
  await page.getByLabel('NIF (si compras como empresa)').fill('B95123456')
  await page.getByLabel('Dirección de facturación').fill('Gran Vía 10, 48001 Bilbao')
  const codeField = page.getByLabel('Código promocional (opcional)')

  // A code that does not exist: its message beside the field, nothing paid, everything typed kept.
  await codeField.fill('NO-EXISTE')
  await page.getByRole('button', { name: 'Pagar (simulado)' }).click()
  await expectFieldError(codeField, 'Este código promocional no es válido')
  await expect(page).toHaveURL(/\/billing\/test-checkout\?session=test_cs_/)
  await expect(codeField).toHaveValue('NO-EXISTE')
  await expect(page.getByLabel('NIF (si compras como empresa)')).toHaveValue('B95123456')
  await expectNoAxeViolations(page, 'the test checkout with a refused code')
  await page.setViewportSize(MOBILE)
  await codeField.scrollIntoViewIfNeeded()
  await screenshot(page, 'billing-test-checkout-code-refused-390', { fullPage: false })

  await codeField.fill(code.toLowerCase())
  await expectNoAxeViolations(page, 'the test checkout with billing fields and a code at 390 px')
  await screenshot(page, 'billing-test-checkout-390')
  await page.setViewportSize(DESKTOP)
  await expectNoAxeViolations(page, 'the test checkout with billing fields and a code at 1280 px')
  await screenshot(page, 'billing-test-checkout-1280')
  await page.getByRole('button', { name: 'Pagar (simulado)' }).click()
  await expect(page).toHaveURL(/\/success$/)

  await page.goto('/perfil')
  const card = page.getByRole('list', { name: 'Tus facturas' })
  await expect(card.getByText('Pagada')).toBeVisible()
  // 89 € less 20 %.
  await expect(card.getByText('71,20 €')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Datos de facturación' })).toBeVisible()
  await expectNoAxeViolations(page, '/perfil with an invoice')
  await page.getByRole('button', { name: 'Datos de facturación' }).scrollIntoViewIfNeeded()
  await screenshot(page, 'billing-perfil-1280', { fullPage: false })
  await expectNoHorizontalOverflow(page, '/perfil with an invoice', MOBILE)
  await card.scrollIntoViewIfNeeded()
  await screenshot(page, 'billing-perfil-390', { fullPage: false })
  await page.setViewportSize(DESKTOP)

  await card.getByRole('link', { name: /Descargar PDF/ }).click()
  await expect(page).toHaveURL(/\/perfil\/facturas\/test_in_/)
  await expect(page.getByRole('heading', { level: 1, name: /^Factura PRUEBA-/ })).toBeVisible()
  await expect(page.getByText('NIF: B95123456')).toBeVisible()
  await expect(page.getByText('Biotec Norte, S.L.')).toBeVisible()
  await expect(page.getByRole('row', { name: /Membresía/ })).toContainText('73,55 €')
  await expect(page.getByRole('row', { name: `Descuento (código ${code}) −14,71 €` })).toBeVisible()
  await expect(page.getByRole('row', { name: /Base imponible/ })).toContainText('58,84 €')
  await expect(page.getByRole('row', { name: /IVA 21 %/ })).toContainText('12,36 €')
  await expect(page.getByRole('row', { name: /Total/ })).toContainText('71,20 €')
  await expectNoAxeViolations(page, 'the printable invoice')
  await screenshot(page, 'billing-invoice-1280')
  await expectNoHorizontalOverflow(page, 'the printable invoice', MOBILE)
  await screenshot(page, 'billing-invoice-390')
  await page.setViewportSize(DESKTOP)

  // The code counts its redemption in the console.
  await admin.page.reload()
  await expect(codeRow).toContainText('1 de 5')

  await admin.page.goto(`/usuario/${member.id}`)
  const refund = admin.page.getByRole('button', { name: 'Reembolsar' })
  await expect(admin.page.getByText(/está dentro de la garantía de 30 días/)).toBeVisible()
  await expectNoAxeViolations(admin.page, 'the member page with the refund card')
  await admin.page.setViewportSize(MOBILE)
  await refund.scrollIntoViewIfNeeded()
  await screenshot(admin.page, 'billing-refund-390', { fullPage: false })
  await admin.page.setViewportSize(DESKTOP)
  await refund.click()
  await expectToast(admin.page, 'Pago reembolsado y membresía cancelada')
  await expect(admin.page.getByText(/ya está reembolsado/)).toBeVisible()

  await page.goto('/perfil')
  await expect(page.getByRole('list', { name: 'Tus facturas' }).getByText('Reembolsada')).toBeVisible()
  await expect(page.getByText('Premium activo')).toHaveCount(0)
})
