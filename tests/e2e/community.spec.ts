import { readFileSync } from 'node:fs'
import { type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { awaitHydrationOnGoto, expect, test } from './support/fixtures'
import { createConfirmedAccount, sharedMember } from './support/accounts'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expectToast } from './support/ui'

// One story, in order: two members complete their profiles, the admin makes them premium,
// one finds the other in the directory, and a like and a comment ring the author's bell live.
// Then the feed pages, works without JavaScript and confirms deletions; notifications open their
// post, group in the bell and page on /notificaciones; the pages fit at 390 and 1280 px; the
// community tabs are URLs of their own. Later tests use the posts and accounts of earlier ones.
// No retries: a retry would replay the story on top of the accounts it already created
// (the bootstrap admin's e-mail is fixed), so it could only fail for another reason.
test.describe.configure({ mode: 'serial', timeout: 120_000, retries: 0 })

let portrait: Buffer
const contexts: BrowserContext[] = []
const pages: { admin?: Page; ana?: Page; bruno?: Page } = {}
/** Bruno's first post: the story's thread, pushed below the first page of the feed from the fifth test on. */
const THREAD = '¿Cómo preparasteis el salto a dirección general?'
/** Post cards only: comments are articles too. */
const POST_CARD = 'article[id^="post-"]'
/** Bruno's question of the notification tests, and the post that collects enough notifications for two pages. */
const QUESTION = 'Consulta abierta sobre los KPI del comité'
const TEST_THREAD = 'Hilo de pruebas para las notificaciones'
const ids: { thread?: string; question?: string } = {}

/** The feed's card of the post with this title. */
function postCard(page: Page, title: string) {
  return page.locator(POST_CARD).filter({ has: page.getByRole('heading', { name: title, exact: true }) })
}

/** The post's id, from its card (`post-<id>`). */
async function postIdOf(card: Locator) {
  const id = await card.getAttribute('id')
  expect(id, 'a post card has the id post-<uuid>').toMatch(/^post-[0-9a-f-]{36}$/)
  return id!.slice('post-'.length)
}

/** A change to the feed posted as a form (the /comunidad action), as the member of this page. */
async function feedAction(page: Page, form: Record<string, string>) {
  const response = await page.request.post('/comunidad?index', {
    form,
    headers: { Origin: process.env.E2E_BASE_URL! },
    maxRedirects: 0,
  })
  expect(response.status(), `${form.intent} ${JSON.stringify(form)}`).toBe(200)
}

/** /comunidad with this post's comments open (where a notification leads), the post shown first if it is not on the page. */
const commentsOf = (postId: string) => `/comunidad?comentarios=${postId}#post-${postId}`

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
  await page.getByRole('button', { name: 'Guardar', exact: true }).click()
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

/** The admin opens the member's profile (the member's id is in their avatar key) and makes them premium. */
async function grantPremium(admin: Page, member: Page, name: string) {
  await member.goto('/perfil')
  // The member's own id is in the avatar key: /uploads/avatars/<userId>/…
  const src = await member.locator('img[src^="/uploads/avatars/"]').first().getAttribute('src')
  const memberId = src!.split('/')[3]!
  await admin.goto(`/usuario/${memberId}`)
  await expect(admin.getByRole('heading', { name })).toBeVisible()
  await admin.getByRole('button', { name: 'Activar Premium' }).click()
  await expectToast(admin, 'Usuario promovido a premium')
  await expect(admin.getByRole('heading', { name }).getByText('Premium')).toBeVisible()
}

test('the admin grants premium and a role from the member profile', async ({ browser }) => {
  pages.admin = await newPage(browser)
  await createConfirmedAccount(pages.admin, { firstName: 'Admin', lastName: 'Círculo', email: 'e2e-admin@example.com' })
  await grantPremium(pages.admin, pages.ana!, 'Ana Núñez')
  await grantPremium(pages.admin, pages.bruno!, 'Bruno Sáez')
  // Still on Bruno's profile.
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
  ids.thread = await postIdOf(postCard(bruno, THREAD))
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
  await bruno.getByRole('menuitem', { name: 'Marcar todas como leídas' }).click()
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

test('with JavaScript, deleting a comment and a post each ask first and confirm with a toast', async () => {
  const bruno = pages.bruno!
  await bruno.setViewportSize(DESKTOP)
  const title = 'Borrador que sobra'
  await feedAction(bruno, { intent: 'create-post', postType: 'text', title })
  await bruno.goto('/comunidad')
  const post = postCard(bruno, title)
  await post.getByRole('button', { name: '0 comentarios', exact: true }).click()
  await post.getByLabel('Escribe un comentario').fill('Comentario que sobra')
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(bruno, 'Comentario añadido')
  const comment = post.getByRole('article').filter({ hasText: 'Comentario que sobra' })
  await expect(comment).toBeVisible()
  await expect(post.getByRole('button', { name: '1 comentario', exact: true })).toBeVisible()

  const confirm = bruno.getByRole('dialog', { name: 'Confirmar' })
  await comment.getByRole('button', { name: 'Eliminar' }).click()
  await expect(confirm).toContainText('¿Estás seguro de que quieres eliminar este comentario?')
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expectToast(bruno, 'Comentario eliminado')
  await expect(comment).toHaveCount(0)
  await expect(post.getByRole('button', { name: '0 comentarios', exact: true })).toBeVisible()

  await post.locator('footer').getByRole('button', { name: 'Eliminar' }).click()
  await expect(confirm).toContainText('¿Estás seguro de que quieres eliminar este post?')
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expectToast(bruno, 'Post eliminado')
  await expect(post).toHaveCount(0)
  await bruno.reload()
  await expect(bruno.locator(POST_CARD).first()).toBeVisible()
  await expect(post).toHaveCount(0)
})

test('a notification in the bell opens its post’s comments on the feed already open', async () => {
  const [ana, bruno] = [pages.ana!, pages.bruno!]
  const bell = bruno.getByRole('button', { name: /^Notificaciones/ })
  const commentRow = (title: string) =>
    bruno
      .getByRole('menuitem')
      .filter({ hasText: 'Nuevo comentario' })
      .filter({ hasText: `«${title}»` })

  // The post is on the page, its comments closed.
  await feedAction(bruno, { intent: 'create-post', postType: 'text', title: QUESTION })
  await bruno.goto('/comunidad')
  const question = postCard(bruno, QUESTION)
  ids.question = await postIdOf(question)
  await expect(question.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'false')
  await expect(bell).toHaveAccessibleName('Notificaciones')
  // Let the event stream connect before Ana acts.
  await bruno.waitForTimeout(500)
  await feedAction(ana, { intent: 'add-comment', postId: ids.question, content: 'Margen bruto por línea y tiempo hasta el acceso.' })
  await expect(bell).toHaveAccessibleName('Notificaciones: 1 sin leer', { timeout: 15_000 })
  await bell.click()
  await commentRow(QUESTION).click()
  await expect(bruno).toHaveURL(new RegExp(`/comunidad\\?comentarios=${ids.question}#post-${ids.question}$`))
  await expect(question.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'true')
  await expect(question.getByRole('list', { name: 'Comentarios' })).toContainText('Margen bruto por línea y tiempo hasta el acceso.')
  await expect(bell).toHaveAccessibleName('Notificaciones')

  // A post no longer on the first page: the link brings it to the top, its comments open.
  await bruno.goto('/comunidad')
  const thread = postCard(bruno, THREAD)
  await expect(bruno.locator(POST_CARD).first()).toBeVisible()
  await expect(thread).toHaveCount(0)
  await bruno.waitForTimeout(500)
  await feedAction(ana, { intent: 'add-comment', postId: ids.thread!, content: 'Y pedí un mentor en el comité.' })
  await expect(bell).toHaveAccessibleName('Notificaciones: 1 sin leer', { timeout: 15_000 })
  await bell.click()
  await commentRow(THREAD).click()
  await expect(bruno).toHaveURL(new RegExp(`/comunidad\\?comentarios=${ids.thread}#post-${ids.thread}$`))
  await expect(bruno.locator(POST_CARD).first()).toHaveId(`post-${ids.thread}`)
  await expect(thread.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'true')
  await expect(thread.getByRole('list', { name: 'Comentarios' })).toContainText('Y pedí un mentor en el comité.')
  await expect(bell).toHaveAccessibleName('Notificaciones')
})

test('four members’ comments on one post are one line in the bell, marked read together', async ({ browser }) => {
  const [admin, bruno] = [pages.admin!, pages.bruno!]
  // Commenting takes a complete profile, the admin's too.
  await completeProfile(admin, 'Círculo CEO', 'Administración de la comunidad')
  const newcomers: Page[] = []
  for (const [firstName, lastName, company, position] of [
    ['Carla', 'Ortiz', 'Farma Norte', 'Directora de Acceso al Mercado'],
    ['Diego', 'Fuentes', 'BioGalicia', 'Director General'],
  ] as const) {
    const page = await newPage(browser)
    await createConfirmedAccount(page, { firstName, lastName })
    await completeProfile(page, company, position)
    await grantPremium(admin, page, `${firstName} ${lastName}`)
    newcomers.push(page)
  }
  const [carla, diego] = newcomers as [Page, Page]

  await bruno.goto('/comunidad')
  const bell = bruno.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await bruno.waitForTimeout(500)
  // Ana commented in the previous test; the admin, Carla and Diego comment now, in this order.
  for (const [page, content] of [
    [admin, 'Cuota de mercado frente al plan.'],
    [carla, 'Acceso: tiempos de precio y reembolso.'],
    [diego, 'Y siempre el flujo de caja.'],
  ] as const) {
    await feedAction(page, { intent: 'add-comment', postId: ids.question!, content })
  }
  await expect(bell).toHaveAccessibleName('Notificaciones: 3 sin leer', { timeout: 15_000 })
  await bell.click()
  const group = bruno.getByRole('menuitem').filter({ hasText: 'Diego Fuentes, Carla Ortiz y 2 más comentaron tu publicación' })
  await expect(group).toHaveCount(1)
  await expect(group).toContainText('Nuevo comentario')
  await expect(group.getByLabel('Sin leer')).toBeVisible()
  // None of the four comments has a line of its own.
  await expect(bruno.getByRole('menuitem').filter({ hasText: `ha comentado en tu post «${QUESTION}»` })).toHaveCount(0)
  await group.click()
  // The three unread ones were marked read at once.
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await expect(bruno).toHaveURL(new RegExp(`/comunidad\\?comentarios=${ids.question}#post-${ids.question}$`))
  const comments = postCard(bruno, QUESTION).getByRole('list', { name: 'Comentarios' })
  await expect(comments.getByRole('article')).toHaveCount(4)
  await expect(comments).toContainText('Y siempre el flujo de caja.')
  await bruno.reload()
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await bell.click()
  await expect(group).toBeVisible()
  await expect(group.getByLabel('Sin leer')).toHaveCount(0)
  await bruno.keyboard.press('Escape')
})

test('/notificaciones pages through older notifications, newest first', async () => {
  const [ana, admin, bruno] = [pages.ana!, pages.admin!, pages.bruno!]
  await feedAction(bruno, { intent: 'create-post', postType: 'text', title: TEST_THREAD })
  await bruno.goto('/comunidad')
  const testThread = await postIdOf(postCard(bruno, TEST_THREAD))
  // More than a page (50) in all: 44 comments, Ana's and the admin's in turn (each may comment
  // 60 times in ten minutes), and last the admin's like.
  for (let n = 1; n <= 22; n++) {
    await feedAction(ana, { intent: 'add-comment', postId: testThread, content: `Comentario ${n} de Ana` })
    await feedAction(admin, { intent: 'add-comment', postId: testThread, content: `Comentario ${n} del admin` })
  }
  await feedAction(admin, { intent: 'like-post', postId: testThread })

  await bruno.goto('/notificaciones')
  const list = bruno.getByRole('list', { name: 'Notificaciones' })
  const rows = list.getByRole('listitem')
  const pager = bruno.getByRole('navigation', { name: 'Páginas' })
  const timesShown = () => list.locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')!))
  // The newest first; Bruno's first notification (Ana's like, in the fourth test) is not on this page.
  const oldest = `A Ana Núñez le gusta tu post «${THREAD}»`
  await expect(rows).toHaveCount(50)
  await expect(rows.first()).toContainText(`A Admin Círculo le gusta tu post «${TEST_THREAD}»`)
  await expect(list.getByText(oldest)).toHaveCount(0)
  await expect(pager.getByRole('link', { name: 'Más recientes' })).toHaveCount(0)
  const firstPage = await timesShown()

  await pager.getByRole('link', { name: 'Anteriores' }).click()
  await expect(bruno).toHaveURL(/\/notificaciones\?pagina=2$/)
  await expect(rows.last()).toContainText(oldest)
  const secondPage = await timesShown()
  expect(secondPage.length).toBeGreaterThan(0)
  expect(secondPage.length).toBeLessThan(50)
  await expect(pager.getByRole('link', { name: 'Anteriores' })).toHaveCount(0)
  // Newest first across both pages, none shown twice.
  const all = [...firstPage, ...secondPage]
  expect(all).toEqual([...all].sort().reverse())
  expect(new Set(all).size).toBe(all.length)

  await pager.getByRole('link', { name: 'Más recientes' }).click()
  await expect(bruno).toHaveURL(/\/notificaciones$/)
  await expect(rows).toHaveCount(50)
  await expect(rows.first()).toContainText(`A Admin Círculo le gusta tu post «${TEST_THREAD}»`)
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
    const firstPost = bruno.locator(POST_CARD).first()
    await expect(firstPost).toBeVisible()
    await expectNoHorizontalOverflow(bruno, `/comunidad at ${label}`, viewport)
    await expectNoAxeViolations(bruno, `/comunidad at ${label}`)
    await screenshot(bruno, `feed-${label}`)

    // The stats panel: after the feed on a phone, beside it on a desktop.
    const stats = bruno.getByRole('region', { name: 'La comunidad' })
    await expect(stats).toBeVisible()
    const [statsBox, postBox] = [await stats.boundingBox(), await firstPost.boundingBox()]
    if (label === '390') {
      expect(statsBox!.y, 'at 390 px the stats panel comes below the first post').toBeGreaterThanOrEqual(postBox!.y + postBox!.height)
    } else {
      expect(statsBox!.x, 'at 1280 px the stats panel is beside the feed').toBeGreaterThanOrEqual(postBox!.x + postBox!.width)
    }

    // The thread is not on the first page any more: its notification link shows it first, comments open.
    await bruno.goto(commentsOf(ids.thread!))
    const post = postCard(bruno, THREAD)
    await expect(post.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'true')
    const commentList = post.getByRole('list', { name: 'Comentarios' })
    await expect(commentList).toBeVisible()
    // The reply form stays inside its comment, the comment list and the post card.
    await commentList.getByRole('button', { name: 'Responder' }).first().click()
    const replyField = post.getByLabel('Escribe una respuesta')
    await expect(replyField).toBeVisible()
    // Inside `has`, a locator is matched within the candidate element.
    const replyForm = post.locator('form').filter({ has: bruno.getByLabel('Escribe una respuesta') })
    const replyButton = replyForm.getByRole('button', { name: 'Responder', exact: true })
    await expect(replyButton).toBeVisible()
    const comment = commentList.getByRole('article').filter({ has: bruno.getByLabel('Escribe una respuesta') })
    for (const [inner, innerName] of [
      [replyForm, 'the reply form'],
      [replyButton, 'its Responder button'],
    ] as const) {
      for (const [outer, outerName] of [
        [comment, 'its comment'],
        [commentList, 'the comment list'],
        [post, 'the post card'],
      ] as const) {
        const [a, b] = [(await inner.boundingBox())!, (await outer.boundingBox())!]
        expect(a.x + a.width, `at ${label} px the right edge of ${innerName} is inside ${outerName}`).toBeLessThanOrEqual(
          b.x + b.width + 0.5,
        )
        expect(a.x, `at ${label} px the left edge of ${innerName} is inside ${outerName}`).toBeGreaterThanOrEqual(b.x - 0.5)
      }
    }
    // The comment list scrolls up and down, never sideways.
    const list = await commentList.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }))
    expect(list.scrollWidth, `at ${label} px the comment list does not scroll sideways`).toBeLessThanOrEqual(list.clientWidth)
    await expectNoHorizontalOverflow(bruno, `/comunidad with a reply form at ${label}`, viewport)
    // From the top: a full-page screenshot of a scrolled page draws the sticky header mid-page.
    await bruno.evaluate(() => window.scrollTo(0, 0))
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

test('the bell’s “Marcar todas como leídas” is a menu item the keyboard reaches (axe clean)', async () => {
  const bruno = pages.bruno!
  await bruno.setViewportSize(DESKTOP)
  await bruno.goto('/comunidad')
  const bell = bruno.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName(/sin leer/)
  const menu = bruno.getByRole('menu')
  const markAll = menu
    .getByRole('button', { name: 'Marcar todas como leídas' })
    .or(menu.getByRole('menuitem', { name: 'Marcar todas como leídas' }))
  const isFocused = () => markAll.evaluate((element) => element === document.activeElement)
  // The keyboard: open the bell (the menu focuses its first item), then move through it with
  // the arrows, then with Tab.
  await bell.focus()
  await bruno.keyboard.press('Enter')
  await expect(bruno.getByRole('menu')).toBeVisible()
  await expect(markAll).toBeEnabled()
  let reached = await isFocused()
  for (const key of reached ? [] : [...Array(14).fill('ArrowDown'), 'Tab', 'Tab']) {
    await bruno.keyboard.press(key)
    if (await bruno.getByRole('menu').isHidden()) break
    if ((reached = await isFocused())) break
  }
  expect.soft(reached, 'the keyboard reaches “Marcar todas como leídas” in the open bell').toBe(true)
  await bruno.keyboard.press('Escape')
  await bell.click()
  await expect(bruno.getByRole('menu')).toBeVisible()
  await expectNoAxeViolations(bruno, 'the open bell')
  await bruno.keyboard.press('Escape')
})

test('at 390 px the reply field takes its row, and opening it puts the cursor in it', async () => {
  const bruno = pages.bruno!
  await bruno.setViewportSize(MOBILE)
  await bruno.goto(commentsOf(ids.thread!))
  const post = postCard(bruno, THREAD)
  const commentList = post.getByRole('list', { name: 'Comentarios' })
  await commentList.getByRole('button', { name: 'Responder' }).first().click()
  const field = post.getByLabel('Escribe una respuesta')
  await expect(field).toBeVisible()
  await expect(field).toBeFocused()
  const comment = commentList.getByRole('article').filter({ has: bruno.getByLabel('Escribe una respuesta') })
  const [fieldBox, commentBox] = [(await field.boundingBox())!, (await comment.boundingBox())!]
  expect(
    fieldBox.width,
    `the reply field (${fieldBox.width} px) is at least half as wide as its comment (${commentBox.width} px)`,
  ).toBeGreaterThanOrEqual(commentBox.width / 2)
})

test('at 390 px an unread notification’s text keeps its row beside “Marcar como leída”', async () => {
  const bruno = pages.bruno!
  await bruno.setViewportSize(MOBILE)
  await bruno.goto('/notificaciones')
  const row = bruno
    .getByRole('list', { name: 'Notificaciones' })
    .getByRole('listitem')
    .filter({ has: bruno.getByRole('button', { name: 'Marcar como leída' }) })
    .first()
  await expect(row).toBeVisible()
  const text = row.getByText(/le gusta tu post|ha comentado en tu post/)
  const [textBox, rowBox] = [(await text.boundingBox())!, (await row.boundingBox())!]
  expect(textBox.width, `the text (${textBox.width} px) takes at least half of its row (${rowBox.width} px)`).toBeGreaterThanOrEqual(
    rowBox.width / 2,
  )
})

test('the notifications page lists, filters and marks as read; the bell groups and links to it', async () => {
  const bruno = pages.bruno!
  await bruno.setViewportSize(DESKTOP)
  await bruno.goto('/comunidad')
  await bruno.getByRole('button', { name: /^Notificaciones/ }).click()
  // The 44 comments on the test thread are one line, the newest commenter first; the like keeps its own.
  await expect(bruno.getByRole('menuitem').filter({ hasText: 'Admin Círculo y Ana Núñez comentaron tu publicación' })).toHaveCount(1)
  await expect(bruno.getByRole('menuitem').filter({ hasText: `ha comentado en tu post «${TEST_THREAD}»` })).toHaveCount(0)
  await expect(bruno.getByRole('menuitem').filter({ hasText: `A Admin Círculo le gusta tu post «${TEST_THREAD}»` })).toHaveCount(1)
  await bruno.getByRole('menuitem', { name: 'Ver todas' }).click()
  await expect(bruno).toHaveURL(/\/notificaciones$/)
  await expect(bruno.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible()

  const list = bruno.getByRole('list', { name: 'Notificaciones' })
  await expect(list.getByRole('listitem').first()).toBeVisible()
  await bruno.getByRole('link', { name: /^No leídas/ }).click()
  await expect(bruno).toHaveURL(/\/notificaciones\?solo=no-leidas$/)
  await bruno.getByRole('button', { name: 'Marcar todas como leídas' }).click()
  await expect(bruno.getByText('No tienes notificaciones sin leer.')).toBeVisible()
  await expect(bruno.getByRole('button', { name: 'Notificaciones' })).toBeVisible()
})

test('community tabs are links with their own URLs; the old ?tab= links land on them', async ({ browser }) => {
  const ana = pages.ana!
  await ana.setViewportSize(DESKTOP)
  await ana.goto('/comunidad')
  const tabs = ana.getByRole('navigation', { name: 'Secciones de la comunidad' })
  await expect(tabs.getByRole('link', { name: 'Comunidad' })).toHaveAttribute('aria-current', 'page')
  await expect(ana.locator(POST_CARD).first()).toBeVisible()

  // A tab is a link; the browser's back button returns to the feed.
  await expect(tabs.getByRole('link', { name: 'Miembros' })).toHaveAttribute('href', '/comunidad/miembros')
  await tabs.getByRole('link', { name: 'Miembros' }).click()
  await expect(ana).toHaveURL(/\/comunidad\/miembros$/)
  await expect(tabs.getByRole('link', { name: 'Miembros' })).toHaveAttribute('aria-current', 'page')
  await expect(ana.getByRole('searchbox', { name: 'Buscar miembros' })).toBeVisible()
  await expect(ana.locator(POST_CARD)).toHaveCount(0)
  await ana.goBack()
  await expect(ana).toHaveURL(/\/comunidad$/)
  await expect(tabs.getByRole('link', { name: 'Comunidad' })).toHaveAttribute('aria-current', 'page')
  await expect(ana.locator(POST_CARD).first()).toBeVisible()
  await expect(ana.getByRole('searchbox', { name: 'Buscar miembros' })).toHaveCount(0)

  // The first version's ?tab= links: a permanent redirect that keeps the rest of the query.
  for (const [legacy, target] of [
    ['/comunidad?tab=miembros&q=ana', '/comunidad/miembros?q=ana'],
    ['/comunidad?tab=sesiones', '/comunidad/sesiones'],
    ['/comunidad?tab=calendario', '/comunidad/calendario'],
    ['/comunidad?tab=comunidad', '/comunidad'],
  ] as const) {
    const response = await ana.request.get(legacy, { maxRedirects: 0 })
    expect(response.status(), `${legacy} answers a permanent redirect`).toBe(301)
    expect(response.headers()['location'], `${legacy} redirects to ${target}`).toBe(target)
  }
  await ana.goto('/comunidad?tab=miembros&q=ana')
  await expect(ana).toHaveURL(/\/comunidad\/miembros\?q=ana$/)
  await expect(ana.getByRole('searchbox', { name: 'Buscar miembros' })).toHaveValue('ana')
  await expect(ana.getByRole('link', { name: 'Ver Perfil de Ana Núñez' })).toBeVisible()
  await expect(ana.getByRole('link', { name: 'Ver Perfil de Bruno Sáez' })).toHaveCount(0)
  await ana.goto('/comunidad?tab=sesiones')
  await expect(ana).toHaveURL(/\/comunidad\/sesiones$/)
  await expect(ana.getByRole('heading', { level: 2, name: 'Sesiones con CEOs' })).toBeVisible()
  await expect(tabs.getByRole('link', { name: 'Sesiones' })).toHaveAttribute('aria-current', 'page')
  await ana.goto('/comunidad?tab=calendario')
  await expect(ana).toHaveURL(/\/comunidad\/calendario$/)
  await expect(ana.getByRole('heading', { level: 2, name: 'Calendario de eventos' })).toBeVisible()
  await expect(tabs.getByRole('link', { name: 'Calendario' })).toHaveAttribute('aria-current', 'page')

  // A member whose profile is incomplete follows the same link to the profile gate, not to an error.
  const member = await sharedMember(browser)
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    storageState: member.storageState,
  })
  contexts.push(context)
  const incomplete = awaitHydrationOnGoto(await context.newPage())
  const response = await incomplete.goto('/comunidad?tab=miembros')
  expect(response?.status()).toBe(200)
  await expect(incomplete).toHaveURL(/\/perfil\?incompleto=1$/)
  await expect(incomplete.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
  await expect(incomplete.getByRole('heading', { name: /Algo ha fallado|No se puede continuar|no encontrada/i })).toHaveCount(0)
})

test('a like on an open feed moves the count on the other member’s screen without reloading', async () => {
  const [ana, bruno] = [pages.ana!, pages.bruno!]
  // The thread is not on the first page any more: both open it as its notification link does.
  await bruno.goto(commentsOf(ids.thread!))
  await ana.goto(commentsOf(ids.thread!))
  // The post's own like toggle (the comments have theirs): 'Me gusta' or 'Quitar me gusta', after the count.
  const likeOf = (page: Page) =>
    postCard(page, THREAD)
      .locator('footer')
      .getByRole('button', { name: /me gusta$/i })
  // Its text is the count, then the label for screen readers: '1Quitar me gusta'.
  const countOf = async (page: Page) => Number.parseInt(await likeOf(page).innerText(), 10)
  await expect(likeOf(bruno)).toBeVisible()
  const before = await countOf(bruno)
  expect(before, 'the count Bruno sees').not.toBeNaN()
  // Let Bruno's event stream connect before Ana acts.
  await bruno.waitForTimeout(500)
  const likedBefore = await likeOf(ana).getAttribute('aria-pressed')
  await likeOf(ana).click()
  await expect(likeOf(ana)).not.toHaveAttribute('aria-pressed', likedBefore!)
  const expected = likedBefore === 'true' ? before - 1 : before + 1
  await expect(likeOf(bruno)).toHaveText(new RegExp(`^${expected}\\D`))
})

const SESSION_TITLE = 'Del laboratorio al comité de dirección'

test('an admin publishes a CEO session; a premium member watches, likes and comments; without premium only the promo', async ({
  browser,
}) => {
  const [admin, ana] = [pages.admin!, pages.ana!]
  await admin.setViewportSize(DESKTOP)
  await admin.goto('/comunidad/sesiones')
  await admin.getByRole('button', { name: 'Nueva Sesión' }).click()
  const dialog = admin.getByRole('dialog', { name: 'Nueva Sesión' })
  await expect(dialog).toBeVisible()

  // Spec 001 §8: nothing is sent while required fields are empty.
  await dialog.getByRole('button', { name: 'Crear sesión' }).click()
  await expectToast(admin, 'Campos requeridos')

  await dialog.getByLabel('Título *').fill(SESSION_TITLE)
  await dialog.getByLabel('Resumen *').fill('Cómo una científica llegó a dirigir una biotech cotizada.')
  await dialog.getByLabel('Descripción *').fill('Financiación, equipo, regulación y el primer consejo de administración.')
  await dialog.getByLabel('Nombre del CEO *').fill('Marta Ibáñez')
  await dialog.getByLabel('Cargo *').fill('CEO')
  await dialog.getByLabel('Empresa *').fill('Genómica Mediterránea')
  await dialog.getByLabel('Fecha de la sesión (hora de Madrid) *').fill('2026-11-05T19:00')
  // Tags: Enter and 'Agregar', trimmed, without repeats.
  const tag = dialog.getByLabel('Etiquetas', { exact: true })
  await tag.fill(' Liderazgo ')
  await tag.press('Enter')
  await tag.fill('liderazgo')
  await dialog.getByRole('button', { name: 'Agregar' }).click()
  await tag.fill('Regulación')
  await dialog.getByRole('button', { name: 'Agregar' }).click()
  await expect(dialog.getByRole('list', { name: 'Etiquetas añadidas' }).getByRole('listitem')).toHaveText(
    ['Liderazgo', 'Regulación'].map((name) => new RegExp(`^${name}`)),
  )
  // A PDF that is not a PDF is refused and the picker cleared (spec 001 §5).
  await dialog.getByLabel('PDF', { exact: true }).setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') })
  await expectToast(admin, 'Tipo de archivo inválido')
  await expect(dialog.getByText('Solo se permiten archivos PDF')).toBeVisible()
  await dialog
    .getByLabel('PDF', { exact: true })
    .setInputFiles({ name: 'resumen.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% resumen\n') })
  // Over one 5 MiB chunk, so the upload goes through the 308 'go on' answers: the fixture's two
  // seconds, padded with zeros after the WebM segment (players and ffprobe ignore them).
  const paddedVideo = Buffer.concat([readFileSync('tests/fixtures/session.webm'), Buffer.alloc(6 * 1024 * 1024)])
  await dialog.getByLabel('Video *').setInputFiles({ name: 'sesion.webm', mimeType: 'video/webm', buffer: paddedVideo })
  await screenshot(admin, 'sessions-dialog-1280')
  await expectNoHorizontalOverflow(admin, 'session dialog at 390', MOBILE)
  await screenshot(admin, 'sessions-dialog-390')
  await expectNoAxeViolations(admin, 'session dialog')
  await admin.setViewportSize(DESKTOP)
  await dialog.getByRole('button', { name: 'Crear sesión' }).click()
  await expectToast(admin, 'Sesión creada')
  await expect(dialog).toBeHidden()

  // The panel follows the session to 'Publicada' by itself (it looks again every 10 s).
  const panel = admin.getByRole('region', { name: 'Mis sesiones en proceso' })
  const row = panel.getByRole('listitem').filter({ hasText: SESSION_TITLE })
  await expect(row.getByText(/Procesando video...|Publicada/)).toBeVisible()
  await expect(row.getByText('Publicada')).toBeVisible({ timeout: 60_000 })

  // A premium member finds it by a word without its accent, opens it and plays it.
  await ana.setViewportSize(DESKTOP)
  await ana.goto('/comunidad/sesiones?buscar=genomica')
  const card = ana.getByRole('article').filter({ has: ana.getByRole('link', { name: SESSION_TITLE }) })
  await expect(card.getByText('PDF')).toBeVisible()
  await expect(card.getByText('Liderazgo')).toBeVisible()
  await expectNoAxeViolations(ana, 'sessions tab')
  await card.getByRole('link', { name: SESSION_TITLE }).click()
  await expect(ana).toHaveURL(/\/video\/[0-9a-f-]{36}$/)
  const sessionPath = new URL(ana.url()).pathname
  await expect(ana.getByRole('heading', { level: 1, name: SESSION_TITLE })).toBeVisible()
  await expect(ana.getByText('1 visualización')).toBeVisible()
  const video = ana.locator('video')
  await expect(video).toHaveAttribute('src', /\/uploads\/sessions\//)
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true
    await element.play()
  })
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { message: 'the video plays' })
    .toBeGreaterThan(0)
  await expect(ana.getByRole('link', { name: 'Ver PDF' })).toHaveAttribute('href', /\/uploads\/sessions\/.+name=resumen\.pdf/)

  const like = ana.getByRole('button', { name: /me gusta$/i }).first()
  await like.click()
  await expect(like).toHaveAttribute('aria-pressed', 'true')
  await expect(like).toHaveText(/^1/)
  const comments = ana.getByRole('region', { name: /Comentarios/ })
  await comments.getByPlaceholder('Escribe un comentario...').fill('¿Cómo elegisteis al primer consejero independiente?')
  await comments.getByRole('button', { name: 'Comentar' }).click()
  await expectToast(ana, 'Comentario añadido')
  await expect(comments.getByText('¿Cómo elegisteis al primer consejero independiente?')).toBeVisible()
  await expectNoAxeViolations(ana, 'video page')
  for (const viewport of [MOBILE, DESKTOP]) {
    await expectNoHorizontalOverflow(ana, `video page at ${viewport.width}`, viewport)
    await screenshot(ana, `video-page-${viewport.width}`)
  }
  await ana.goto('/comunidad/sesiones')
  await expectNoHorizontalOverflow(ana, 'sessions tab at 390', MOBILE)
  await screenshot(ana, 'sessions-tab-390')

  // A member without premium: the promo where the video would be, and no address of it.
  const newcomer = await newPage(browser)
  await createConfirmedAccount(newcomer, { firstName: 'Elena', lastName: 'Vidal' })
  await completeProfile(newcomer, 'Dispositivos Atlántico', 'Gerente de Producto')
  const response = await newcomer.goto(sessionPath)
  expect(response?.status()).toBe(200)
  await expect(newcomer.getByText('Acceso Premium Requerido').first()).toBeVisible()
  await expect(newcomer.locator('video')).toHaveCount(0)
  expect(await response!.text()).not.toContain('/uploads/sessions/')
  await newcomer.goto('/comunidad/sesiones')
  await expect(newcomer.getByRole('link', { name: SESSION_TITLE })).toHaveCount(0)
  await expect(newcomer.getByText('Solicitar Admisión').first()).toBeVisible()

  // The video page's 'Editar' opens the edit dialog on the tab (spec: /comunidad?edit={id}).
  await admin.goto(sessionPath)
  await admin.getByRole('link', { name: 'Editar' }).click()
  await expect(admin).toHaveURL(/\/comunidad\/sesiones\?editar=/)
  const edit = admin.getByRole('dialog', { name: 'Editar Sesión' })
  await expect(edit.getByLabel('Título *')).toHaveValue(SESSION_TITLE)
  await expect(edit.getByLabel('Fecha de la sesión (hora de Madrid) *')).toHaveValue('2026-11-05T19:00')
  await edit.getByLabel('Título *').fill(`${SESSION_TITLE} (2026)`)
  await edit.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectToast(admin, 'Sesión actualizada')
  await expect(edit).toBeHidden()
  const adminCard = admin.getByRole('article').filter({ has: admin.getByRole('link', { name: `${SESSION_TITLE} (2026)` }) })
  await expect(adminCard).toBeVisible()

  // Deleting asks first (spec 001 §8), then the card is gone.
  await adminCard.getByRole('button', { name: 'Eliminar' }).click()
  const confirm = admin.getByRole('dialog', { name: 'Confirmar' })
  await expect(confirm.getByText('¿Estás seguro de que quieres eliminar esta sesión?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expectToast(admin, 'Sesión eliminada')
  await expect(adminCard).toHaveCount(0)
  await admin.goto(sessionPath)
  await expect(admin.getByRole('heading', { name: 'Video no encontrado' })).toBeVisible()
})

test('an admin creates an event; a premium member registers, downloads the .ics and finds it on its day of the calendar', async ({
  browser,
}) => {
  const [admin, ana] = [pages.admin!, pages.ana!]
  // The 15th of next month at 19:00 in Madrid.
  const now = new Date()
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15))
  const month = `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, '0')}`
  const title = 'Mesa redonda: acceso al mercado'

  await admin.setViewportSize(DESKTOP)
  await admin.goto('/comunidad/calendario')
  await admin.getByRole('button', { name: 'Nuevo Evento' }).click()
  const dialog = admin.getByRole('dialog', { name: 'Nuevo Evento' })
  await dialog.getByLabel('Título *').fill(title)
  await dialog.getByLabel('Descripción breve *').fill('Tres directoras de acceso comparten cómo negocian con los pagadores.')
  await dialog.getByLabel('Fecha y hora *').fill(`${month}-15T19:00`)
  await dialog.getByLabel('Tipo *').selectOption('virtual')
  await dialog.getByLabel('Máximo de asistentes').fill('20')
  // Spec 001 §5: the external link must be a URL.
  await dialog.getByLabel('Enlace externo').fill('no es un enlace')
  await dialog.getByRole('button', { name: 'Crear evento' }).click()
  await expect(dialog.getByText('El enlace externo debe ser una URL válida (http o https)')).toBeVisible()
  await dialog.getByLabel('Enlace externo').fill('https://meet.example.com/circulo')
  await dialog.getByRole('button', { name: 'Crear evento' }).click()
  await expectToast(admin, 'Evento creado')

  await ana.setViewportSize(DESKTOP)
  await ana.goto('/comunidad/calendario')
  const card = ana.getByRole('article').filter({ has: ana.getByRole('heading', { name: title }) })
  await expect(card.getByText('0 asistentes confirmados de 20')).toBeVisible()
  await expect(card.getByText('(hora de Madrid)')).toBeVisible()
  await card.getByRole('button', { name: 'Registrarse' }).click()
  await expectToast(ana, 'Registrado al evento')
  await expect(card.getByRole('button', { name: 'Registrado' })).toBeVisible()
  await expectNoAxeViolations(ana, 'calendar list')
  await card.getByRole('link', { name: /Ver detalles/ }).click()
  await expect(ana.getByRole('heading', { name: title })).toBeVisible()
  const eventPage = new URL(ana.url()).pathname
  await expect(ana.getByRole('region', { name: /Asistentes confirmados/ }).getByRole('link', { name: 'Ana Núñez' })).toBeVisible()
  const [download] = await Promise.all([ana.waitForEvent('download'), ana.getByRole('link', { name: 'Añadir al calendario' }).click()])
  const ics = readFileSync(await download.path(), 'utf8')
  expect(ics).toContain(`DTSTART;TZID=Europe/Madrid:${month.replace('-', '')}15T190000`)
  expect(ics).toContain(`SUMMARY:${title.replace(/[,;]/g, (c) => `\\${c}`)}`)
  await expectNoAxeViolations(ana, 'event page')
  for (const viewport of [MOBILE, DESKTOP]) {
    await expectNoHorizontalOverflow(ana, `event page at ${viewport.width}`, viewport)
    await screenshot(ana, `event-page-${viewport.width}`)
  }

  // The month shows it on the 15th; the day opens a dialog with it.
  await ana.goto(`/comunidad/calendario?vista=calendario&mes=${month}`)
  const day = ana.getByRole('button', { name: /^15 de .*, 1 evento$/ })
  await expect(day).toBeVisible()
  await expect(day.getByText(title)).toBeVisible()
  await expectNoAxeViolations(ana, 'month calendar')
  await screenshot(ana, 'calendar-month-1280')
  await day.click()
  await expect(ana.getByRole('dialog', { name: /^Eventos del 15 de/ }).getByRole('link', { name: title })).toBeVisible()
  await ana.keyboard.press('Escape')
  await expectNoHorizontalOverflow(ana, 'month calendar at 390', MOBILE)
  await screenshot(ana, 'calendar-month-390')

  // A member in Mexico City sees the hour in their own zone beside Madrid's.
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    storageState: await ana.context().storageState(),
  })
  contexts.push(context)
  const abroad = awaitHydrationOnGoto(await context.newPage())
  await abroad.goto(eventPage)
  // 19:00 in Madrid that day, as an instant, then as the hour in Mexico City.
  const wall = Date.parse(`${month}-15T19:00:00Z`)
  const instant = new Date(wall - madridOffsetMs(new Date(wall - 60 * 60 * 1000)))
  const mexicoHour = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Mexico_City',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant)
  await expect(abroad.getByText(`${mexicoHour} en tu zona horaria`)).toBeVisible()
  await expect(abroad.getByText('19:00 (hora de Madrid)')).toBeVisible()
})

/** Madrid's offset from UTC at that moment (one or two hours), from the browser-independent Intl data. */
function madridOffsetMs(date: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Madrid',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, Number(part.value)]),
  )
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!) - date.getTime()
}
