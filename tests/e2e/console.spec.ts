import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expect, test } from './support/fixtures'

// Issue 25: the operator's console. Looked at as an admin at 1280 and 390 px, with axe.

const folded = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '')

test('an admin opens the console from their menu: the dashboard, by period, readable on a phone', async ({ signedInAs }) => {
  const { page } = await signedInAs('admin')
  await page.setViewportSize(DESKTOP)
  await page.goto('/comunidad')
  await page.getByRole('button', { name: 'Menú de usuario' }).click()
  await page.getByRole('menuitem', { name: 'Consola' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Consola' })).toBeVisible()
  for (const heading of ['Miembros', 'Ingresos', 'Actividad', 'Contenido', 'Funcionamiento']) {
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
  }
  await expect(page.getByText('Ingresos mensuales (MRR)')).toBeVisible()
  // The weekly series are tables for screen readers, the bars for the eye.
  await expect(page.getByRole('table', { name: /Posts: por semana/ })).toBeAttached()
  await expect(page.getByRole('link', { name: '30 días' })).toHaveAttribute('aria-current', 'page')
  await page.getByRole('link', { name: '7 días' }).click()
  await expect(page).toHaveURL(/periodo=7/)
  await expect(page.getByText('nuevos en los últimos 7 días')).toBeVisible()
  await expectNoAxeViolations(page, '/admin at 1280 px')
  await screenshot(page, 'console-dashboard-1280')
  await expectNoHorizontalOverflow(page, '/admin', MOBILE)
  await expectNoAxeViolations(page, '/admin at 390 px')
  await screenshot(page, 'console-dashboard-390')
})

test('the members table finds a member without accents, filters, and exports the CSV a spreadsheet opens', async ({ signedInAs }) => {
  const [admin, member] = [await signedInAs('admin'), await signedInAs('complete')]
  // A name a spreadsheet would run as a formula.
  const firstName = '=HIPERVINCULO("https://evil.example")'
  const saved = await member.page.request.post('/perfil', {
    form: { intent: 'profile', firstName, lastName: member.lastName, company: member.company!, position: member.position! },
    headers: { Origin: process.env.E2E_BASE_URL! },
    maxRedirects: 0,
  })
  expect(saved.status()).toBe(302)
  const name = `${firstName} ${member.lastName}`
  const { page } = admin
  await page.setViewportSize(DESKTOP)
  await page.goto('/admin/miembros')
  await page.getByLabel('Buscar por nombre, e-mail o empresa').fill(folded(member.lastName).toUpperCase())
  await page.getByLabel('Premium', { exact: true }).selectOption('no')
  await page.getByRole('button', { name: 'Aplicar' }).click()
  await expect(page).toHaveURL(/premium=no/)
  await expect(page.getByRole('link', { name })).toBeVisible()
  await expectNoAxeViolations(page, '/admin/miembros at 1280 px')
  await screenshot(page, 'console-members-1280')

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar CSV' }).click()])
  expect(download.suggestedFilename()).toMatch(/^miembros-\d{4}-\d{2}-\d{2}\.csv$/)
  const bytes = readFileSync((await download.path())!)
  expect([...bytes.subarray(0, 3)], 'UTF-8 with a byte-order mark').toEqual([0xef, 0xbb, 0xbf])
  const [header, ...rows]: string[][] = parse(bytes.subarray(3).toString('utf8'), { delimiter: ';', record_delimiter: '\r\n' })
  expect(header).toEqual(['Nombre', 'Email', 'Empresa', 'Cargo', 'Premium', 'Origen', 'Roles', 'Perfil completo', 'Alta', 'Perfil'])
  // Exactly the table on screen: the member found, with every value, the formula shown as text.
  expect(rows).toEqual([
    [
      `'${name}`,
      member.email,
      member.company,
      member.position,
      'No',
      '',
      '',
      'Sí',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
      `${process.env.E2E_BASE_URL}/usuario/${member.id}`,
    ],
  ])

  await page.getByRole('link', { name }).click()
  await expect(page.getByRole('heading', { name: 'Gestión de roles' })).toBeVisible()

  await page.goto('/admin/miembros')
  await expectNoHorizontalOverflow(page, '/admin/miembros', MOBILE)
  await expectNoAxeViolations(page, '/admin/miembros at 390 px')
  await screenshot(page, 'console-members-390')
})

test('an announcement saved in the settings shows on the community until its day; the audit log names it', async ({ signedInAs }) => {
  const [admin, premium] = [await signedInAs('admin'), await signedInAs('premium')]
  const text = `Cena de socios ${Date.now()}`
  const { page } = admin
  await page.goto('/admin/ajustes')
  await page.getByLabel('Texto del aviso').fill(text)
  await page.getByRole('button', { name: 'Guardar ajustes' }).click()
  // Without an end day the form says what is missing and keeps the text.
  await expect(page.getByText('Indica hasta qué día se muestra el aviso')).toBeVisible()
  await expect(page.getByLabel('Texto del aviso')).toHaveValue(text)
  await page.getByLabel('Mostrar hasta (incluido)').fill('2099-12-31')
  await page.getByRole('button', { name: 'Guardar ajustes' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Ajustes guardados' })).toBeVisible()
  await expectNoAxeViolations(page, '/admin/ajustes')

  await premium.page.goto('/comunidad')
  await expect(premium.page.getByRole('complementary', { name: 'Aviso' })).toHaveText(text)

  await page.goto('/admin/registro?accion=settings_changed')
  await expect(page.getByText(text).first()).toBeVisible()
  await expectNoAxeViolations(page, '/admin/registro')

  // Back to no announcement, so other journeys see the community as it was.
  await page.goto('/admin/ajustes')
  await page.getByLabel('Texto del aviso').fill('')
  await page.getByLabel('Mostrar hasta (incluido)').fill('')
  await page.getByRole('button', { name: 'Guardar ajustes' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Ajustes guardados' })).toBeVisible()
  await premium.page.reload()
  await expect(premium.page.getByRole('complementary', { name: 'Aviso' })).toHaveCount(0)
})

test('to a member the console does not exist; the jobs page answers an admin', async ({ signedInAs }) => {
  const member = await signedInAs('premium')
  const response = await member.page.goto('/admin/miembros')
  expect(response?.status()).toBe(404)
  await expect(member.page.getByText('Página no encontrada').first()).toBeVisible()
  const admin = await signedInAs('admin')
  await admin.page.goto('/admin/trabajos')
  await expect(admin.page.getByRole('heading', { name: 'Fallidos' })).toBeVisible()
  await expectNoAxeViolations(admin.page, '/admin/trabajos')
})
