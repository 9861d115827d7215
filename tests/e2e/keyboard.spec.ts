import { readFileSync } from 'node:fs'
import { expect, type Locator, type Page } from '@playwright/test'
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from 'react-router'
import sharp from 'sharp'
import { DESKTOP, expectNoAxeViolations, MOBILE } from './support/checks'
import { createPost, feedAction, idOf, postCard, uniqueTitle } from './support/community'
import { test } from './support/fixtures'
import { expectToast } from './support/ui'

// A member who uses only the keyboard keeps their place (WCAG 2.4.3): every dialog, menu and
// inline form gives focus back to the control that opened it when it closes, and what they
// deleted hands focus to what stood next to it, never to the top of the page. No click() here.

/** Presses Tab until `target` has focus (a keyboard member's way there). */
async function tabTo(page: Page, target: Locator, { max = 80, backwards = false } = {}) {
  for (let step = 0; step < max; step++) {
    if (await target.evaluate((element) => element === document.activeElement, undefined, { timeout: 500 }).catch(() => false)) return
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab')
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))
  throw new Error(`Tab never reached ${target}; focus is on ${focused}`)
}

/** Focus is on `target`, or, for a dialog, somewhere inside it. */
const focusIn = (target: Locator) => target.evaluate((element) => element.contains(document.activeElement))

test('the feed by keyboard: new post, edit, delete and the bell give focus back where it was', async ({ signedInAs }) => {
  // Every Tab is a round trip to the browser, and the top bar's stops (search, messages, the bell)
  // come before the feed's on each page: the journey takes about 50 s, near the default minute.
  test.slow()
  const { page } = await signedInAs('premium', { viewport: DESKTOP })
  const neighbour = await createPost(page, uniqueTitle('Vecino de arriba'))
  expect(neighbour).toBeTruthy()
  await page.goto('/comunidad')

  // The composer: open, Escape, and focus is on 'Nuevo Post' again (it was dropped on the body).
  // A link to the composer's own page without JavaScript; with it, the link opens the dialog.
  const newPost = page.getByRole('link', { name: 'Nuevo Post' })
  await tabTo(page, newPost)
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Crear post' })
  await expect(dialog).toBeVisible()
  expect(await focusIn(dialog), 'focus moves into the dialog').toBe(true)
  await expectNoAxeViolations(page, 'create-post dialog')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(newPost).toBeFocused()

  // Written and sent without a mouse; focus comes back to 'Nuevo Post', not to the body.
  const title = uniqueTitle('Escrito con el teclado')
  await page.keyboard.press('Enter')
  await tabTo(page, dialog.getByLabel('Título'))
  await page.keyboard.type(title)
  await tabTo(page, dialog.getByLabel('Contenido'))
  await page.keyboard.type('Sin ratón, de principio a fin.')
  await tabTo(page, dialog.getByRole('button', { name: 'Publicar' }))
  await page.keyboard.press('Enter')
  await expectToast(page, 'Post creado')
  await expect(dialog).toBeHidden()
  await expect(newPost).toBeFocused()

  // Edit in place: focus goes to the title being edited; 'Cancelar' gives it back to 'Editar'.
  // By its id: while it is edited, its heading is the edit form's.
  const card = page.locator(`#post-${await idOf(postCard(page, title), 'post')}`)
  const edit = card.getByRole('button', { name: 'Editar' })
  await tabTo(page, edit)
  await page.keyboard.press('Enter')
  await expect(card.getByLabel('Título')).toBeFocused()
  const cancel = card.getByRole('button', { name: 'Cancelar' })
  await tabTo(page, cancel)
  await page.keyboard.press('Enter')
  await expect(edit).toBeFocused()

  // Delete: Escape in the confirmation gives focus back to 'Eliminar'; deleting hands it to the
  // post that stood next to it.
  const remove = card.getByRole('button', { name: 'Eliminar' })
  await tabTo(page, remove)
  await page.keyboard.press('Enter')
  const confirm = page.getByRole('dialog', { name: 'Confirmar' })
  await expect(confirm).toBeVisible()
  await expectNoAxeViolations(page, 'confirmation dialog')
  await page.keyboard.press('Escape')
  await expect(remove).toBeFocused()
  await page.keyboard.press('Enter')
  await tabTo(page, confirm.getByRole('button', { name: 'Eliminar' }))
  await page.keyboard.press('Enter')
  await expectToast(page, 'Post eliminado')
  await expect(card).toHaveCount(0)
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true)
  expect(
    await page.evaluate(() => document.activeElement?.closest('article[id^="post-"]')?.id ?? null),
    'focus is on a post next to it',
  ).toMatch(/^post-/)

  // The bell and the user menu: Escape closes them and gives focus back to their button.
  for (const name of [/^Notificaciones/, 'Menú de usuario']) {
    const button = page.getByRole('button', { name }).first()
    await tabTo(page, button, { backwards: true, max: 200 })
    await page.keyboard.press('Enter')
    await expect(page.getByRole('menu')).toBeVisible()
    await expectNoAxeViolations(page, `${name} open`)
    await page.keyboard.press('Escape')
    await expect(page.getByRole('menu')).toBeHidden()
    await expect(button).toBeFocused()
  }
})

test('on a phone, the menu closed with Escape gives focus back to its button', async ({ signedInAs }) => {
  const { page } = await signedInAs('premium', { viewport: MOBILE })
  await page.goto('/comunidad')
  const toggle = page.getByRole('button', { name: 'Abrir menú' })
  await tabTo(page, toggle)
  await page.keyboard.press('Enter')
  const menu = page.getByRole('navigation', { name: 'Menú' })
  await expect(menu).toBeVisible()
  await page.keyboard.press('Tab')
  expect(await focusIn(menu), 'Tab goes into the menu').toBe(true)
  await expectNoAxeViolations(page, 'mobile menu open')
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeFocused()
})

test('the photo cropper opened from the keyboard gives focus back to the file field', async ({ signedInAs }) => {
  const { page } = await signedInAs('member', { viewport: DESKTOP })
  await page.goto('/perfil')
  const picker = page.getByLabel('Foto profesional', { exact: true })
  await tabTo(page, picker)
  const chooser = page.waitForEvent('filechooser')
  await page.keyboard.press('Space')
  const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#7a5' } })
    .png()
    .toBuffer()
  await (await chooser).setFiles({ name: 'yo.png', mimeType: 'image/png', buffer: photo })
  const cropper = page.getByRole('dialog', { name: 'Ajusta tu foto' })
  await expect(cropper).toBeVisible()
  await expectNoAxeViolations(page, 'photo cropper')
  await page.keyboard.press('Escape')
  await expect(cropper).toBeHidden()
  await expect(picker).toBeFocused()
})

test('an admin’s session and event dialogs, and the month calendar, by keyboard', async ({ signedInAs }) => {
  const { page } = await signedInAs('admin', { viewport: DESKTOP })
  await page.goto('/comunidad/sesiones')
  const newSession = page.getByRole('button', { name: 'Nueva Sesión' })
  await tabTo(page, newSession)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Nueva Sesión' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(newSession).toBeFocused()

  // An event this month, so the month grid has a day to open.
  const now = new Date()
  const day = String(Math.min(28, now.getDate() + 1)).padStart(2, '0')
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`
  const title = uniqueTitle('Cena del mes')
  await feedAction(
    page,
    {
      intent: 'create-event',
      title,
      description: 'Por teclado',
      eventDate: `${month}-${day}T20:00`,
      timeZone: 'Europe/Madrid',
      eventType: 'virtual',
    },
    '/comunidad/calendario',
  )

  await page.goto('/comunidad/calendario')
  const newEvent = page.getByRole('button', { name: 'Nuevo Evento' })
  await tabTo(page, newEvent)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Nuevo Evento' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(newEvent).toBeFocused()

  await page.goto(`/comunidad/calendario?vista=calendario&mes=${month}`)
  const grid = page.getByRole('grid')
  // One Tab stop in the grid; the arrows move between days.
  await tabTo(page, grid.locator('[tabindex="0"]'))
  const focusedDay = () => page.evaluate(() => document.activeElement?.getAttribute('data-day'))
  const start = await focusedDay()
  expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  await page.keyboard.press('ArrowRight')
  expect(await focusedDay()).not.toBe(start)
  await page.keyboard.press('ArrowLeft')
  expect(await focusedDay()).toBe(start)
  // Walk to the event's day and open it.
  const target = `${month}-${day}`
  for (let step = 0; step < 62 && (await focusedDay()) !== target; step++) {
    await page.keyboard.press((await focusedDay())! < target ? 'ArrowRight' : 'ArrowLeft')
  }
  expect(await focusedDay()).toBe(target)
  await page.keyboard.press('Enter')
  const dayDialog = page.getByRole('dialog', { name: /^Eventos del/ })
  await expect(dayDialog.getByRole('link', { name: title })).toBeVisible()
  await expectNoAxeViolations(page, 'day dialog')
  await page.keyboard.press('Escape')
  await expect(dayDialog).toBeHidden()
  // Radix gives focus back as the dialog unmounts, a moment after it is hidden: asked at once, the
  // answer was sometimes still the body (a flaky failure in CI).
  await expect.poll(focusedDay, { message: 'focus is back on the day' }).toBe(target)
})

test('the video player’s controls are reached by keyboard and Space plays and pauses', async ({ signedInAs }) => {
  test.setTimeout(120_000)
  const admin = await signedInAs('admin', { viewport: DESKTOP })
  const sessionId = await publishSession(admin.page, uniqueTitle('Sesión para el teclado'))
  await admin.page.goto(`/video/${sessionId}`)
  const video = admin.page.locator('video')
  await video.evaluate((element: HTMLVideoElement) => (element.muted = true))
  await tabTo(admin.page, video)
  const paused = () => video.evaluate((element: HTMLVideoElement) => element.paused)
  expect(await paused()).toBe(true)
  await admin.page.keyboard.press('Space')
  await expect.poll(paused).toBe(false)
  await admin.page.keyboard.press('Space')
  await expect.poll(paused).toBe(true)
})

/** A published session with the fixture's video, made as the dialog makes it (the form, then the video's one chunk). */
async function publishSession(page: Page, title: string) {
  const video = readFileSync('tests/fixtures/session.webm')
  const created = await page.request.post('/comunidad/sesiones.data', {
    headers: { Origin: process.env.E2E_BASE_URL! },
    multipart: {
      intent: 'create-session',
      title,
      summary: 'Resumen',
      description: 'Descripción',
      ceoName: 'Lucía Gómez',
      ceoPosition: 'CEO',
      ceoCompany: 'Genómica SA',
      sessionDate: '2026-11-05T19:00',
      videoSize: String(video.length),
      videoType: 'video/webm',
    },
  })
  const answer = (await decodeViaTurboStream(new Response(new Uint8Array(await created.body())).body!, globalThis)).value as {
    data: { sessionId: string; uploadUrl: string }
  }
  const { sessionId, uploadUrl } = answer.data
  const sent = await page.request.put(uploadUrl, {
    headers: { 'Content-Range': `bytes 0-${video.length - 1}/${video.length}`, Origin: process.env.E2E_BASE_URL! },
    data: video,
  })
  expect(sent.status()).toBe(201)
  // Published once the processing job has run: the page then has its player.
  await expect
    .poll(async () => (await (await page.request.get(`/video/${sessionId}`)).text()).includes('<video'), {
      timeout: 60_000,
      message: 'the session is published',
    })
    .toBe(true)
  return sessionId
}
