import { type Browser, type BrowserContext, type Page } from '@playwright/test'
import sharp from 'sharp'
import { awaitHydrationOnGoto, expect, test } from './support/fixtures'
import { createConfirmedAccount } from './support/accounts'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expectToast } from './support/ui'

// One story, in order: two members complete their profiles, the admin makes them premium,
// one finds the other in the directory, and a like and a comment ring the author's bell live.
// No retries: a retry would replay the story on top of the accounts it already created
// (the bootstrap admin's e-mail is fixed), so it could only fail for another reason.
test.describe.configure({ mode: 'serial', timeout: 120_000, retries: 0 })

let portrait: Buffer
const contexts: BrowserContext[] = []
const pages: { admin?: Page; ana?: Page; bruno?: Page } = {}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: 'es-ES', timezoneId: 'Europe/Madrid' })
  contexts.push(context)
  return awaitHydrationOnGoto(await context.newPage())
}

async function completeProfile(page: Page, company: string, position: string) {
  await page.goto('/perfil')
  await expect(page.getByText('2/5 completado')).toBeVisible()
  await page.getByRole('link', { name: 'Editar' }).click()
  await page.getByLabel('Empresa actual').fill(company)
  await page.getByLabel('Cargo').fill(position)
  await page.getByRole('button', { name: 'Guardar' }).click()
  await expectToast(page, 'Perfil actualizado correctamente')
  await expect(page.getByText('4/5 completado')).toBeVisible()

  await page.getByLabel('Foto profesional').setInputFiles({ name: 'retrato.png', mimeType: 'image/png', buffer: portrait })
  const cropper = page.getByRole('dialog', { name: 'Ajusta tu foto' })
  await expect(cropper).toBeVisible()
  await cropper.getByRole('slider').fill('1.5')
  await expect(cropper.getByText('Zoom: 150%')).toBeVisible()
  await cropper.getByRole('button', { name: 'Resetear' }).click()
  await expect(cropper.getByText('Zoom: 100%')).toBeVisible()
  await cropper.getByRole('button', { name: 'Usar imagen' }).click()
  await expectToast(page, 'Foto de perfil actualizada')
  await expect(page.getByText('Perfil Incompleto')).toHaveCount(0)
  const avatar = page.locator('img[src^="/uploads/avatars/"]').first()
  await expect(avatar).toBeVisible()
  expect(await avatar.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(400)
}

test.beforeAll(async () => {
  portrait = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2d6a8a' } })
    .png()
    .toBuffer()
})
test.afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()))
})

test('members complete their profiles, with a cropped photo, and pass the profile gate', async ({ browser }) => {
  pages.ana = await newPage(browser)
  await createConfirmedAccount(pages.ana, { firstName: 'Ana', lastName: 'Núñez' })
  await pages.ana.goto('/comunidad')
  await expect(pages.ana).toHaveURL(/\/perfil\?incompleto=1$/)
  await completeProfile(pages.ana, 'Laboratorios Ibéricos', 'Directora Médica')
  await pages.ana.goto('/comunidad')
  await expect(pages.ana).toHaveURL(/\/comunidad$/)
  await expect(pages.ana.getByText('Acceso Premium Requerido').first()).toBeVisible()

  pages.bruno = await newPage(browser)
  await createConfirmedAccount(pages.bruno, { firstName: 'Bruno', lastName: 'Sáez' })
  await completeProfile(pages.bruno, 'MedTech Levante', 'VP Comercial')
})

test('the admin grants premium and a role from the member profile', async ({ browser }) => {
  pages.admin = await newPage(browser)
  await createConfirmedAccount(pages.admin, { firstName: 'Admin', lastName: 'Círculo', email: 'e2e-admin@example.com' })
  for (const [page, name] of [
    [pages.ana!, 'Ana Núñez'],
    [pages.bruno!, 'Bruno Sáez'],
  ] as const) {
    await page.goto('/perfil')
    // The member's own id is in the avatar key: /uploads/avatars/<userId>/…
    const src = await page.locator('img[src^="/uploads/avatars/"]').first().getAttribute('src')
    const memberId = src!.split('/')[3]!
    await pages.admin.goto(`/usuario/${memberId}`)
    await expect(pages.admin.getByRole('heading', { name })).toBeVisible()
    await pages.admin.getByRole('button', { name: 'Activar Premium' }).click()
    await expectToast(pages.admin, 'Usuario promovido a premium')
    await expect(pages.admin.getByRole('heading', { name }).getByText('Premium')).toBeVisible()
  }
  await pages.admin.getByRole('button', { name: 'Asignar rol moderador' }).click()
  await expectToast(pages.admin, 'Rol moderador asignado correctamente')
  await expect(pages.admin.getByRole('button', { name: 'Quitar rol moderador' })).toBeVisible()
})

test('a premium member finds another in the directory (accents and case ignored)', async () => {
  const ana = pages.ana!
  await ana.goto('/comunidad/miembros')
  await ana.getByRole('searchbox', { name: 'Buscar miembros' }).fill('medtech LEVANTE')
  await ana.getByRole('button', { name: 'Buscar', exact: true }).click()
  await expect(ana.getByText('1 miembro', { exact: true })).toBeVisible()
  await expect(ana.getByText('VP Comercial en MedTech Levante')).toBeVisible()
  await ana.getByRole('searchbox', { name: 'Buscar miembros' }).fill('saez')
  await ana.getByRole('button', { name: 'Buscar', exact: true }).click()
  await ana.getByRole('link', { name: 'Ver Perfil de Bruno Sáez' }).click()
  await expect(ana.getByRole('heading', { level: 1, name: 'Perfil de Usuario' })).toBeVisible()
  await expect(ana.getByText('VP Comercial en MedTech Levante')).toBeVisible()
})

test('a like and a comment on Bruno’s post reach his bell live, without reloading', async () => {
  const bruno = pages.bruno!
  const ana = pages.ana!
  await bruno.goto('/comunidad')
  await bruno
    .getByRole('button', { name: 'Nuevo Post' })
    .or(bruno.getByRole('link', { name: 'Nuevo Post' }))
    .first()
    .click()
  const dialog = bruno.getByRole('dialog', { name: 'Crear post' })
  await dialog.getByLabel('Título').fill('¿Cómo preparasteis el salto a dirección general?')
  await dialog.getByLabel('Contenido').fill('Busco experiencias de quienes pasaron de una dirección funcional a country manager.')
  await dialog.getByRole('button', { name: 'Publicar' }).click()
  await expectToast(bruno, 'Post creado')
  await expect(bruno.getByRole('heading', { name: '¿Cómo preparasteis el salto a dirección general?' })).toBeVisible()
  const bell = bruno.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName('Notificaciones')
  // Let the event stream connect before the others act.
  await bruno.waitForTimeout(500)

  await ana.goto('/comunidad')
  const post = ana
    .locator('article')
    .filter({ has: ana.getByRole('heading', { name: '¿Cómo preparasteis el salto a dirección general?' }) })
  await post.getByRole('button', { name: 'Me gusta' }).click()
  await expect(post.getByRole('button', { name: 'Quitar me gusta' })).toHaveAttribute('aria-pressed', 'true')
  await post.getByRole('button', { name: /0 comentarios/ }).click()
  await post.getByLabel('Escribe un comentario').fill('Pedí rotar por acceso al mercado antes del salto.')
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(ana, 'Comentario añadido')

  // Bruno's page was never reloaded: the badge counts both.
  await expect(bell).toHaveAccessibleName('Notificaciones: 2 sin leer', { timeout: 15_000 })
  await bell.click()
  await expect(bruno.getByRole('menuitem').filter({ hasText: 'Nuevo comentario' })).toBeVisible()
  await expect(bruno.getByRole('menuitem').filter({ hasText: 'Nuevo like' })).toBeVisible()
  await bruno.getByRole('button', { name: 'Marcar todas como leídas' }).click()
  await expect(bell).toHaveAccessibleName('Notificaciones')
})

test('posts loaded with “Cargar más” stay, and stay current, when one of them is commented', async () => {
  const bruno = pages.bruno!
  // Twenty-one newer posts push Bruno's below the first page (20 posts); each member may post
  // 20 an hour, so Ana and Bruno share them.
  for (const [author, count] of [
    [pages.ana!, 10],
    [bruno, 11],
  ] as const) {
    for (let n = 1; n <= count; n++) {
      const response = await author.request.post('/comunidad?index', {
        form: { intent: 'create-post', postType: 'text', title: `Serie ${n} de ${count}` },
        headers: { Origin: process.env.E2E_BASE_URL! },
        maxRedirects: 0,
      })
      expect(response.status(), `post ${n} of ${count}`).toBe(200)
    }
  }
  await bruno.goto('/comunidad')
  // Post cards only: comments are articles too.
  const POST_CARD = 'article[id^="post-"]'
  const title = '¿Cómo preparasteis el salto a dirección general?'
  const post = bruno.locator('article').filter({ has: bruno.getByRole('heading', { name: title }) })
  await expect(post).toHaveCount(0)
  await expect(bruno.locator(POST_CARD)).toHaveCount(20)
  await bruno.getByRole('link', { name: 'Cargar más' }).click()
  await expect(post).toBeVisible()
  const shown = await bruno.locator(POST_CARD).count()
  expect(shown).toBeGreaterThan(20)

  await post.getByRole('button', { name: /1 comentario/ }).click()
  await post.getByLabel('Escribe un comentario').fill('Gracias: lo probaré en mi próxima evaluación.')
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(bruno, 'Comentario añadido')
  // The first page was reloaded by the action; the second page was reloaded with it.
  await expect(post.getByRole('button', { name: /2 comentarios/ })).toBeVisible()
  await expect(post.getByText('Gracias: lo probaré en mi próxima evaluación.')).toBeVisible()
  await expect(bruno.locator(POST_CARD)).toHaveCount(shown)
  await bruno.setViewportSize({ width: 360, height: 800 })
  await post.screenshot({ path: 'test-results/screens/feed-post-360.png' })
})

test('without JavaScript a member posts a link, comments, replies, edits and deletes', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: 'es-ES',
    javaScriptEnabled: false,
    storageState: await pages.bruno!.context().storageState(),
  })
  contexts.push(context)
  const page = await context.newPage()

  await page.goto('/comunidad?nuevo=1')
  const composer = page.locator('form').filter({ has: page.getByRole('button', { name: 'Publicar' }) })
  await composer.getByText('Enlace', { exact: true }).click()
  await composer.getByLabel('Título').fill('Informe sin JavaScript')
  await composer.getByLabel('URL (solo para posts de tipo enlace)').fill('https://example.com/informe')
  await composer.getByLabel('Contenido').fill(`${'Resumen del informe para la comunidad. '.repeat(5)}Y la conclusión final.`)
  await composer.getByRole('button', { name: 'Publicar' }).click()
  const post = page.locator('article[id^="post-"]').filter({ has: page.getByRole('heading', { name: 'Informe sin JavaScript' }) })
  await expect(post).toBeVisible()
  await expect(post.getByRole('link', { name: /example\.com\/informe/ })).toHaveAttribute('rel', /noopener/)
  // Long text shows a preview; 'Ver más' opens the rest.
  await expect(post.locator('p', { hasText: 'Y la conclusión final.' })).toBeHidden()
  await post.locator('summary', { hasText: 'Ver más' }).click()
  await expect(post.locator('p', { hasText: 'Y la conclusión final.' })).toBeVisible()

  // Comments open through a link; each form posts the page and comes back with them open.
  await post.getByRole('link', { name: '0 comentarios' }).click()
  await post.getByLabel('Escribe un comentario').fill('Primera opinión')
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  const comment = post.locator('article').filter({ hasText: 'Primera opinión' })
  await expect(comment).toBeVisible()

  await comment.locator('summary', { hasText: 'Responder' }).click()
  await comment.getByLabel('Escribe una respuesta').fill('Una respuesta')
  await comment.getByRole('button', { name: 'Responder', exact: true }).click()
  await expect(post.getByRole('list', { name: 'Respuestas' }).locator('p', { hasText: 'Una respuesta' })).toBeVisible()

  const first = post.locator('article').filter({ hasText: 'Primera opinión' })
  await first.locator('summary', { hasText: 'Editar' }).first().click()
  await first.getByLabel('Editar comentario').fill('Opinión corregida')
  await first.getByRole('button', { name: 'Guardar' }).click()
  const corrected = post.locator('article').filter({ hasText: 'Opinión corregida' })
  await expect(corrected.first()).toBeVisible()

  const reply = post.locator('article').filter({ hasText: 'Una respuesta' }).last()
  await reply.locator('summary', { hasText: 'Eliminar' }).click()
  await expect(reply.getByText('¿Estás seguro de que quieres eliminar este comentario?')).toBeVisible()
  await reply.getByRole('button', { name: 'Eliminar' }).click()
  await expect(post.locator('p', { hasText: 'Una respuesta' })).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: 'Comentario eliminado' })).toBeVisible()

  // The post itself: edit, then delete behind the confirmation.
  const footer = post.locator('footer')
  await footer.locator('summary', { hasText: 'Editar' }).click()
  await post.screenshot({ path: 'test-results/screens/feed-without-javascript.png' })
  await footer.getByLabel('Título').fill('Informe revisado')
  await footer.getByRole('button', { name: 'Guardar' }).click()
  const revised = page.locator('article[id^="post-"]').filter({ has: page.getByRole('heading', { name: 'Informe revisado' }) })
  await expect(revised).toBeVisible()
  await revised.locator('footer summary', { hasText: 'Eliminar' }).click()
  await revised.locator('footer').getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByRole('heading', { name: 'Informe revisado' })).toHaveCount(0)
})

test('at 390 × 844 and 1280 × 800: the feed, the bell, the notifications page, the profile and the auth page fit, pass axe, and were looked at', async ({
  browser,
}) => {
  const bruno = pages.bruno!
  const visitor = await newPage(browser)
  for (const [label, viewport] of [
    ['390', MOBILE],
    ['1280', DESKTOP],
  ] as const) {
    await bruno.setViewportSize(viewport)
    await bruno.goto('/comunidad')
    await expect(bruno.locator('article[id^="post-"]').first()).toBeVisible()
    await expectNoHorizontalOverflow(bruno, `/comunidad at ${label}`, viewport)
    await expectNoAxeViolations(bruno, `/comunidad at ${label}`)
    await screenshot(bruno, `feed-${label}`)

    // The comments of a post open, with the reply form inside its card.
    const post = bruno
      .locator('article[id^="post-"]')
      .filter({ has: bruno.getByRole('heading', { name: '¿Cómo preparasteis el salto a dirección general?' }) })
    await post.getByRole('button', { name: /comentarios?$/ }).click()
    await post.getByRole('button', { name: 'Responder' }).first().click()
    await expect(post.getByLabel('Escribe una respuesta')).toBeVisible()
    await expectNoHorizontalOverflow(bruno, `/comunidad with a reply form at ${label}`, viewport)
    await screenshot(bruno, `feed-reply-${label}`)

    const bell = bruno.getByRole('button', { name: /^Notificaciones/ })
    await bell.click()
    await expect(bruno.getByRole('menu')).toBeVisible()
    await expectNoAxeViolations(bruno, `the bell at ${label}`)
    await screenshot(bruno, `bell-${label}`)
    await bruno.keyboard.press('Escape')

    await bruno.goto('/notificaciones')
    await expect(bruno.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible()
    await expect(bruno.getByRole('list', { name: 'Notificaciones' }).getByRole('listitem').first()).toBeVisible()
    await expectNoHorizontalOverflow(bruno, `/notificaciones at ${label}`, viewport)
    await expectNoAxeViolations(bruno, `/notificaciones at ${label}`)
    await screenshot(bruno, `notifications-${label}`)

    await bruno.goto('/perfil')
    await expect(bruno.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
    await expectNoHorizontalOverflow(bruno, `/perfil at ${label}`, viewport)
    await expectNoAxeViolations(bruno, `/perfil at ${label}`)
    await screenshot(bruno, `profile-${label}`)

    await visitor.setViewportSize(viewport)
    await visitor.goto('/auth?tab=registro')
    await expect(visitor.getByRole('heading', { name: 'Crea tu cuenta' })).toBeVisible()
    await expectNoHorizontalOverflow(visitor, `/auth at ${label}`, viewport)
    await expectNoAxeViolations(visitor, `/auth at ${label}`)
    await screenshot(visitor, `auth-${label}`)
  }
})

test('the notifications page lists, filters and marks as read; the bell groups and links to it', async () => {
  const bruno = pages.bruno!
  await bruno.setViewportSize(DESKTOP)
  await bruno.goto('/notificaciones')
  const list = bruno.getByRole('list', { name: 'Notificaciones' })
  await expect(list.getByRole('listitem').first()).toBeVisible()
  await bruno.getByRole('link', { name: /^No leídas/ }).click()
  await expect(bruno).toHaveURL(/\/notificaciones\?solo=no-leidas$/)
  await bruno.getByRole('button', { name: 'Marcar todas como leídas' }).click()
  await expect(bruno.getByText('No tienes notificaciones sin leer.')).toBeVisible()
  await expect(bruno.getByRole('button', { name: 'Notificaciones' })).toBeVisible()
})

test('a like on an open feed moves the count on the other member’s screen without reloading', async () => {
  const [ana, bruno] = [pages.ana!, pages.bruno!]
  const title = '¿Cómo preparasteis el salto a dirección general?'
  await bruno.goto('/comunidad')
  await ana.goto('/comunidad')
  const card = (page: Page) => page.locator('article[id^="post-"]').filter({ has: page.getByRole('heading', { name: title }) })
  const likeOf = (page: Page) => card(page).locator('footer button[aria-pressed]').first()
  const before = Number(await likeOf(bruno).innerText())
  // Let Bruno's event stream connect before Ana acts.
  await bruno.waitForTimeout(500)
  await likeOf(ana).click()
  const expected = (await likeOf(ana).getAttribute('aria-pressed')) === 'true' ? before + 1 : before - 1
  await expect(likeOf(bruno)).toHaveText(String(expected))
})
