import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expect, test } from './support/fixtures'
import { liveStreamOpen } from './support/ui'
import type { Page } from '@playwright/test'

// Issue 41: two members write to each other — a request, 'Aceptar', a reply that arrives live,
// and 'Bloquear' — by keyboard where a member would type, with axe and both widths looked at.

/** Axe at 1280 px, no overflow at 390 px, and a screenshot at each width to look at. */
async function atBothWidths(page: Page, label: string, name: string) {
  await expectNoAxeViolations(page, `${label} at 1280 px`)
  await screenshot(page, `${name}-1280`, { fullPage: false })
  await page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(page, label, MOBILE)
  await screenshot(page, `${name}-390`, { fullPage: false })
  await page.setViewportSize(DESKTOP)
}

test('a request, its acceptance, a live reply and a block between two members', async ({ signedInAs }) => {
  test.setTimeout(120_000)
  const [ana, ben] = [await signedInAs('premium', { viewport: DESKTOP }), await signedInAs('premium', { viewport: DESKTOP })]

  // Ana finds Ben's page and writes to him: Enter sends, Shift+Enter breaks the line.
  await ana.page.goto(`/usuario/${ben.id}`)
  await ana.page.getByRole('link', { name: 'Enviar mensaje' }).click()
  await expect(ana.page.getByRole('heading', { name: `Mensaje para ${ben.name}` })).toBeVisible()
  await atBothWidths(ana.page, '/mensajes/con/:id', 'new-conversation')
  const box = ana.page.getByPlaceholder('Escribe un mensaje…')
  await box.fill('Hola Ben, vi tu charla sobre acceso al mercado.')
  await box.press('Shift+Enter')
  await box.pressSequentially('¿Hablamos? https://example.com/agenda')
  await box.press('Enter')
  await expect(ana.page).toHaveURL(/\/mensajes\/[0-9a-f-]{36}$/)
  await expect(ana.page.getByText('Pendiente', { exact: true })).toBeVisible()
  const link = ana.page.getByRole('link', { name: 'https://example.com/agenda' })
  await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener')
  await expect(ana.page.getByText('Pendiente: podrás escribir de nuevo cuando acepte tu solicitud.')).toBeVisible()
  const conversationUrl = ana.page.url()

  // Ben sees the request in the top bar and in 'Solicitudes de mensaje', and accepts it.
  await ben.page.goto('/comunidad')
  await expect(ben.page.getByRole('link', { name: 'Mensajes: 1 sin leer' })).toBeVisible()
  await ben.page.getByRole('link', { name: 'Mensajes: 1 sin leer' }).click()
  await expect(ben.page.getByRole('heading', { name: 'Solicitudes de mensaje' })).toBeVisible()
  await atBothWidths(ben.page, '/mensajes', 'messages-list')
  await ben.page.getByRole('link', { name: new RegExp(ana.name) }).click()
  await ben.page.getByRole('button', { name: 'Aceptar' }).click()
  await expect(ben.page.getByPlaceholder('Escribe un mensaje…')).toBeVisible()

  // Ana keeps the conversation open; Ben's reply appears there without a reload.
  await ana.page.goto(conversationUrl)
  await liveStreamOpen(ana.page)
  await ben.page.getByPlaceholder('Escribe un mensaje…').fill('¡Claro, Ana! El jueves me viene bien.')
  await ben.page.getByRole('button', { name: 'Enviar', exact: true }).click()
  await expect(ana.page.getByText('¡Claro, Ana! El jueves me viene bien.')).toBeVisible()
  await expect(ben.page.getByPlaceholder('Escribe un mensaje…')).toHaveValue('')

  await atBothWidths(ana.page, 'a conversation', 'conversation')

  // Ana blocks Ben: he is told only that she does not accept messages.
  await ana.page.getByRole('button', { name: 'Bloquear' }).click()
  await expect(ana.page.getByRole('button', { name: 'Desbloquear' })).toBeVisible()
  await ben.page.getByPlaceholder('Escribe un mensaje…').fill('¿Sigues ahí?')
  await ben.page.getByPlaceholder('Escribe un mensaje…').press('Enter')
  await expect(ben.page.getByRole('alert').filter({ hasText: 'Este miembro no acepta mensajes.' })).toBeVisible()
  // What failed stays in the box.
  await expect(ben.page.getByPlaceholder('Escribe un mensaje…')).toHaveValue('¿Sigues ahí?')
  await ana.page.goto('/mensajes')
  await expect(ana.page.getByText('Aún no tienes conversaciones.')).toBeVisible()
})
