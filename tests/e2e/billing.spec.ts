import { expect, test } from './support/fixtures'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expectToast } from './support/ui'

// Issue 40, part A (decisions/0033): a company buys in the local test checkout with its NIF,
// finds the invoice in /perfil and opens it; an admin refunds it within the guarantee.
test.use({ signedIn: 'complete' })

test('a company buys with its NIF, opens its invoice; the admin refunds it within 30 days', async ({
  page,
  signedInMember,
  signedInAs,
}) => {
  test.setTimeout(120_000)
  const member = signedInMember!

  await page.goto('/pricing')
  await expect(page.getByText('IVA incluido (21 %) para compras en España')).toBeVisible()
  await page.getByRole('button', { name: 'Hazte miembro' }).click()
  await expect(page).toHaveURL(/\/billing\/test-checkout\?session=test_cs_/)
  await expect(page.getByText('IVA incluido (21 %) para compras en España')).toBeVisible()
  await page.getByLabel('Nombre o razón social').fill('Biotec Norte, S.L.')
  await page.getByLabel('NIF (si compras como empresa)').fill('B95123456')
  await page.getByLabel('Dirección de facturación').fill('Gran Vía 10, 48001 Bilbao')
  await expectNoAxeViolations(page, 'the test checkout with billing fields')
  await page.setViewportSize(MOBILE)
  await screenshot(page, 'billing-test-checkout-390')
  await page.setViewportSize(DESKTOP)
  await page.getByRole('button', { name: 'Pagar (simulado)' }).click()
  await expect(page).toHaveURL(/\/success$/)

  await page.goto('/perfil')
  const card = page.getByRole('list', { name: 'Tus facturas' })
  await expect(card.getByText('Pagada')).toBeVisible()
  await expect(card.getByText('89,00 €')).toBeVisible()
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
  await expect(page.getByRole('row', { name: /Base imponible/ })).toContainText('73,55 €')
  await expect(page.getByRole('row', { name: /IVA 21 %/ })).toContainText('15,45 €')
  await expect(page.getByRole('row', { name: /Total/ })).toContainText('89,00 €')
  await expectNoAxeViolations(page, 'the printable invoice')
  await screenshot(page, 'billing-invoice-1280')
  await expectNoHorizontalOverflow(page, 'the printable invoice', MOBILE)
  await screenshot(page, 'billing-invoice-390')

  const admin = await signedInAs('admin')
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
