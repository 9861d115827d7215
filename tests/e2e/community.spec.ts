import { readFileSync } from 'node:fs'
import { type Page } from '@playwright/test'
import sharp from 'sharp'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { commentsOf, createPost, feedAction, idOf, markAllRead, POST_CARD, postCard, uniqueTitle } from './support/community'
import { expect, newMember, type SignedIn, test } from './support/fixtures'
import { expectToast, liveStreamOpen } from './support/ui'

// The community: the profile gate, premium and roles, the directory, the feed (live likes and
// comments, paging, without JavaScript, deletions), notifications (bell, grouping,
// /notificaciones), the layout at 390 and 1280 px, CEO sessions, events and the tabs. Each test
// signs in its own seeded members (support/fixtures.ts) and writes its own posts, so a failure
// hides no other test; titles are unique because every test of a run shares one feed.
test.describe.configure({ timeout: 120_000 })

const THREAD = '¿Cómo preparasteis el salto a dirección general?'
const FIRST_COMMENT = 'Pedí rotar por acceso al mercado antes del salto.'

/** Without its accents, as a member may type a name in the directory's search. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '')

/** Twenty newer posts by `author` (a member's hourly allowance): whatever came before is off the feed's first page. */
async function pushBelowFirstPage(author: Page) {
  for (let n = 1; n <= 20; n++) {
    await feedAction(author, { intent: 'create-post', postType: 'text', title: uniqueTitle(`Serie ${n} de 20`) })
  }
}

/** Bruno's post with Ana's like and comment: a comment to answer, and two unread notifications in his bell. */
async function threadWithComment(bruno: SignedIn, ana: SignedIn) {
  const title = uniqueTitle(THREAD)
  const postId = await createPost(bruno.page, title)
  await feedAction(ana.page, { intent: 'like-post', postId })
  await feedAction(ana.page, { intent: 'add-comment', postId, content: FIRST_COMMENT })
  return { title, postId }
}

test('a member completes the profile, with a cropped photo, and passes the profile gate', async ({ signedInAs }) => {
  const { page } = await signedInAs('member')
  const portrait = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2d6a8a' } })
    .png()
    .toBuffer()
  await page.goto('/comunidad')
  await expect(page).toHaveURL(/\/perfil\?incompleto=1$/)
  await expect(page.getByText('2/5 completado')).toBeVisible()
  await page.getByRole('link', { name: 'Editar' }).click()
  await page.getByLabel('Empresa actual').fill('Laboratorios Ibéricos')
  await page.getByLabel('Cargo').fill('Directora Médica')
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

  await page.goto('/comunidad')
  await expect(page).toHaveURL(/\/comunidad$/)
  await expect(page.getByText('Acceso Premium Requerido').first()).toBeVisible()
})

test('the admin grants premium and a role from the member profile', async ({ signedInAs }) => {
  const [admin, member] = [await signedInAs('admin'), await signedInAs('complete')]
  await member.page.goto('/comunidad')
  await expect(member.page.getByText('Acceso Premium Requerido').first()).toBeVisible()

  await admin.page.goto(`/usuario/${member.id}`)
  const heading = admin.page.getByRole('heading', { name: member.name })
  await expect(heading).toBeVisible()
  await admin.page.getByRole('button', { name: 'Activar Premium' }).click()
  await expectToast(admin.page, 'Usuario promovido a premium')
  await expect(heading.getByText('Premium')).toBeVisible()
  await admin.page.getByRole('button', { name: 'Asignar rol moderador' }).click()
  await expectToast(admin.page, 'Rol moderador asignado correctamente')
  await expect(admin.page.getByRole('button', { name: 'Quitar rol moderador' })).toBeVisible()

  // The premium prompt is gone from the feed (the composer, in the same page, is the sync point).
  await member.page.goto('/comunidad')
  await expect(
    member.page
      .getByRole('button', { name: 'Nuevo Post' })
      .or(member.page.getByRole('link', { name: 'Nuevo Post' }))
      .first(),
  ).toBeVisible()
  await expect(member.page.getByText('Acceso Premium Requerido')).toHaveCount(0)
})

test('a premium member finds another in the directory (accents and case ignored)', async ({ signedInAs }) => {
  const [ana, other] = [await signedInAs('premium'), await newMember('complete')]
  const search = folded(other.lastName).toUpperCase()
  expect(folded(other.lastName), 'the seeded surnames carry accents').not.toBe(other.lastName)
  await ana.page.goto('/comunidad/miembros')
  await ana.page.getByRole('searchbox', { name: 'Buscar miembros' }).fill(search)
  await ana.page.getByRole('button', { name: 'Buscar', exact: true }).click()
  await expect(ana.page.getByText('1 miembro', { exact: true })).toBeVisible()
  await expect(ana.page.getByText(`${other.position} en ${other.company}`)).toBeVisible()
  await ana.page.getByRole('link', { name: `Ver Perfil de ${other.name}` }).click()
  await expect(ana.page.getByRole('heading', { level: 1, name: 'Perfil de Usuario' })).toBeVisible()
  await expect(ana.page.getByText(`${other.position} en ${other.company}`)).toBeVisible()
})

test('a like and a comment on Bruno’s post reach his bell live, without reloading', async ({ signedInAs }) => {
  const [bruno, ana] = [await signedInAs('premium'), await signedInAs('premium')]
  const title = uniqueTitle(THREAD)
  await markAllRead(bruno.page)
  await bruno.page.goto('/comunidad')
  await bruno.page
    .getByRole('button', { name: 'Nuevo Post' })
    .or(bruno.page.getByRole('link', { name: 'Nuevo Post' }))
    .first()
    .click()
  const dialog = bruno.page.getByRole('dialog', { name: 'Crear post' })
  await dialog.getByLabel('Título').fill(title)
  await dialog.getByLabel('Contenido').fill('Busco experiencias de quienes pasaron de una dirección funcional a country manager.')
  await dialog.getByRole('button', { name: 'Publicar' }).click()
  await expectToast(bruno.page, 'Post creado')
  await expect(postCard(bruno.page, title)).toBeVisible()
  const bell = bruno.page.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await liveStreamOpen(bruno.page)

  await ana.page.goto('/comunidad')
  const post = postCard(ana.page, title)
  await post.getByRole('button', { name: 'Me gusta' }).click()
  await expect(post.getByRole('button', { name: 'Quitar me gusta' })).toHaveAttribute('aria-pressed', 'true')
  await post.getByRole('button', { name: /0 comentarios/ }).click()
  await post.getByLabel('Escribe un comentario').fill(FIRST_COMMENT)
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(ana.page, 'Comentario añadido')

  // Bruno's page was never reloaded: the badge counts both.
  await expect(bell).toHaveAccessibleName('Notificaciones: 2 sin leer', { timeout: 15_000 })
  await bell.click()
  await expect(bruno.page.getByRole('menuitem').filter({ hasText: 'Nuevo comentario' })).toBeVisible()
  await expect(bruno.page.getByRole('menuitem').filter({ hasText: 'Nuevo like' })).toBeVisible()
  await bruno.page.getByRole('menuitem', { name: 'Marcar todas como leídas' }).click()
  await expect(bell).toHaveAccessibleName('Notificaciones')
})

test('posts loaded with “Cargar más” stay, and stay current, when one of them is commented', async ({ signedInAs }) => {
  const [bruno, ana] = [await signedInAs('premium'), await signedInAs('premium')]
  const title = uniqueTitle(THREAD)
  await feedAction(bruno.page, { intent: 'create-post', postType: 'text', title })
  await pushBelowFirstPage(ana.page)
  await bruno.page.goto('/comunidad')
  const post = postCard(bruno.page, title)
  await expect(post).toHaveCount(0)
  await expect(bruno.page.locator(POST_CARD)).toHaveCount(10)
  // Twenty newer posts: Bruno's is on the third page.
  await bruno.page.getByRole('link', { name: 'Cargar más' }).click()
  await expect(bruno.page.locator(POST_CARD)).toHaveCount(20)
  await bruno.page.getByRole('link', { name: 'Cargar más' }).click()
  await expect(post).toBeVisible()
  const shown = await bruno.page.locator(POST_CARD).count()
  expect(shown).toBeGreaterThan(20)

  await post.getByRole('button', { name: '0 comentarios', exact: true }).click()
  await post.getByLabel('Escribe un comentario').fill('Gracias: lo probaré en mi próxima evaluación.')
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(bruno.page, 'Comentario añadido')
  // The first page was reloaded by the action; the second page was reloaded with it.
  await expect(post.getByRole('button', { name: '1 comentario', exact: true })).toBeVisible()
  await expect(post.getByText('Gracias: lo probaré en mi próxima evaluación.')).toBeVisible()
  await expect(bruno.page.locator(POST_CARD)).toHaveCount(shown)
  await bruno.page.setViewportSize({ width: 360, height: 800 })
  await post.screenshot({ path: 'test-results/screens/feed-post-360.png' })
})

test('without JavaScript a member posts a link, comments, replies, edits and deletes', async ({ pageAs }) => {
  const page = await pageAs(await newMember('premium'), { javaScriptEnabled: false })
  const [title, revisedTitle] = [uniqueTitle('Informe sin JavaScript'), uniqueTitle('Informe revisado')]

  await page.goto('/comunidad?nuevo=1')
  const composer = page.locator('form').filter({ has: page.getByRole('button', { name: 'Publicar' }) })
  await composer.getByText('Enlace', { exact: true }).click()
  await composer.getByLabel('Título').fill(title)
  await composer.getByLabel('URL (solo para posts de tipo enlace)').fill('https://example.com/informe')
  await composer.getByLabel('Contenido').fill(`${'Resumen del informe para la comunidad. '.repeat(5)}Y la conclusión final.`)
  await composer.getByRole('button', { name: 'Publicar' }).click()
  const post = postCard(page, title)
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

  // The post itself: 'Editar' is a link to the feed with its form open; then delete behind the confirmation.
  const postId = await idOf(post, 'post')
  await post.locator('footer').getByRole('link', { name: 'Editar' }).click()
  await expect(page).toHaveURL(new RegExp(`editar=${postId}`))
  const editing = page.locator(`#post-${postId}`)
  await editing.screenshot({ path: 'test-results/screens/feed-without-javascript.png' })
  await expect(editing.getByRole('link', { name: 'Cancelar' })).toHaveAttribute('href', `/comunidad#post-${postId}`)
  // Refused, the page comes back with the form open and the words typed in it.
  await editing.getByLabel('Título').fill('Informe\u202Efdp.exe')
  await editing.getByLabel('Contenido').fill('Un resumen nuevo que no se pierde')
  await editing.getByRole('button', { name: 'Guardar' }).click()
  await expect(editing.getByText('El título contiene caracteres no válidos')).toBeVisible()
  await expect(editing.getByLabel('Contenido')).toHaveValue('Un resumen nuevo que no se pierde')
  await editing.getByLabel('Título').fill(revisedTitle)
  await editing.getByRole('button', { name: 'Guardar' }).click()
  const revised = postCard(page, revisedTitle)
  await expect(revised).toBeVisible()
  await revised.locator('footer summary', { hasText: 'Eliminar' }).click()
  await revised.locator('footer').getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByRole('heading', { name: revisedTitle })).toHaveCount(0)
})

test('with JavaScript, deleting a comment and a post each ask first and confirm with a toast', async ({ signedInAs }) => {
  const { page } = await signedInAs('premium', { viewport: DESKTOP })
  const title = uniqueTitle('Borrador que sobra')
  await feedAction(page, { intent: 'create-post', postType: 'text', title })
  await page.goto('/comunidad')
  const post = postCard(page, title)
  await post.getByRole('button', { name: '0 comentarios', exact: true }).click()
  await post.getByLabel('Escribe un comentario').fill('Comentario que sobra')
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(page, 'Comentario añadido')
  const comment = post.getByRole('article').filter({ hasText: 'Comentario que sobra' })
  await expect(comment).toBeVisible()
  await expect(post.getByRole('button', { name: '1 comentario', exact: true })).toBeVisible()

  const confirm = page.getByRole('dialog', { name: 'Confirmar' })
  await comment.getByRole('button', { name: 'Eliminar' }).click()
  await expect(confirm).toContainText('¿Estás seguro de que quieres eliminar este comentario?')
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expectToast(page, 'Comentario eliminado')
  await expect(comment).toHaveCount(0)
  await expect(post.getByRole('button', { name: '0 comentarios', exact: true })).toBeVisible()

  await post.locator('footer').getByRole('button', { name: 'Eliminar' }).click()
  await expect(confirm).toContainText('¿Estás seguro de que quieres eliminar este post?')
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expectToast(page, 'Post eliminado')
  await expect(post).toHaveCount(0)
  await page.reload()
  await expect(page.locator(POST_CARD).first()).toBeVisible()
  await expect(post).toHaveCount(0)
})

test('a notification in the bell opens its post’s comments on the feed already open', async ({ signedInAs }) => {
  const [bruno, ana, filler] = [await signedInAs('premium'), await signedInAs('premium'), await signedInAs('premium')]
  const [thread, question] = [uniqueTitle(THREAD), uniqueTitle('Consulta abierta sobre los KPI del comité')]
  await markAllRead(bruno.page)
  const threadId = await createPost(bruno.page, thread)
  await pushBelowFirstPage(filler.page)
  const bell = bruno.page.getByRole('button', { name: /^Notificaciones/ })
  const commentRow = (title: string) =>
    bruno.page
      .getByRole('menuitem')
      .filter({ hasText: 'Nuevo comentario' })
      .filter({ hasText: `«${title}»` })

  // The post is on the page, its comments closed.
  const questionId = await createPost(bruno.page, question)
  const questionCard = postCard(bruno.page, question)
  await expect(questionCard.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'false')
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await liveStreamOpen(bruno.page)
  await feedAction(ana.page, { intent: 'add-comment', postId: questionId, content: 'Margen bruto por línea y tiempo hasta el acceso.' })
  await expect(bell).toHaveAccessibleName('Notificaciones: 1 sin leer', { timeout: 15_000 })
  await bell.click()
  await commentRow(question).click()
  await expect(bruno.page).toHaveURL(new RegExp(`/comunidad\\?comentarios=${questionId}#post-${questionId}$`))
  await expect(questionCard.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'true')
  await expect(questionCard.getByRole('list', { name: 'Comentarios' })).toContainText('Margen bruto por línea y tiempo hasta el acceso.')
  await expect(bell).toHaveAccessibleName('Notificaciones')

  // A post no longer on the first page: the link brings it to the top, its comments open.
  await bruno.page.goto('/comunidad')
  const threadCard = postCard(bruno.page, thread)
  await expect(bruno.page.locator(POST_CARD).first()).toBeVisible()
  await expect(threadCard).toHaveCount(0)
  await liveStreamOpen(bruno.page)
  await feedAction(ana.page, { intent: 'add-comment', postId: threadId, content: 'Y pedí un mentor en el comité.' })
  await expect(bell).toHaveAccessibleName('Notificaciones: 1 sin leer', { timeout: 15_000 })
  await bell.click()
  await commentRow(thread).click()
  await expect(bruno.page).toHaveURL(new RegExp(`/comunidad\\?comentarios=${threadId}#post-${threadId}$`))
  await expect(bruno.page.locator(POST_CARD).first()).toHaveId(`post-${threadId}`)
  await expect(threadCard.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'true')
  await expect(threadCard.getByRole('list', { name: 'Comentarios' })).toContainText('Y pedí un mentor en el comité.')
  await expect(bell).toHaveAccessibleName('Notificaciones')
})

test('four members’ comments on one post are one line in the bell, marked read together', async ({ signedInAs }) => {
  const bruno = await signedInAs('premium')
  const commenters: SignedIn[] = []
  for (let n = 0; n < 4; n++) commenters.push(await signedInAs('premium'))
  const question = uniqueTitle('Consulta abierta sobre los KPI del comité')
  await markAllRead(bruno.page)
  const questionId = await createPost(bruno.page, question)
  const bell = bruno.page.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await liveStreamOpen(bruno.page)
  for (const [index, commenter] of commenters.entries()) {
    await feedAction(commenter.page, { intent: 'add-comment', postId: questionId, content: `Indicador ${index + 1}: cuota de mercado.` })
  }
  await expect(bell).toHaveAccessibleName('Notificaciones: 4 sin leer', { timeout: 15_000 })
  await bell.click()
  // The newest two by name, then how many more.
  const group = bruno.page
    .getByRole('menuitem')
    .filter({ hasText: `${commenters[3]!.name}, ${commenters[2]!.name} y 2 más comentaron tu publicación` })
  await expect(group).toHaveCount(1)
  await expect(group).toContainText('Nuevo comentario')
  await expect(group.getByLabel('Sin leer')).toBeVisible()
  // None of the four comments has a line of its own.
  await expect(bruno.page.getByRole('menuitem').filter({ hasText: `ha comentado en tu post «${question}»` })).toHaveCount(0)
  await group.click()
  // The four were marked read at once.
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await expect(bruno.page).toHaveURL(new RegExp(`/comunidad\\?comentarios=${questionId}#post-${questionId}$`))
  const comments = postCard(bruno.page, question).getByRole('list', { name: 'Comentarios' })
  await expect(comments.getByRole('article')).toHaveCount(4)
  await expect(comments).toContainText('Indicador 4: cuota de mercado.')
  await bruno.page.reload()
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await bell.click()
  await expect(group).toBeVisible()
  await expect(group.getByLabel('Sin leer')).toHaveCount(0)
  await bruno.page.keyboard.press('Escape')
})

test('/notificaciones pages through older notifications, newest first', async ({ signedInAs }) => {
  const [bruno, ana, carla] = [await signedInAs('premium'), await signedInAs('premium'), await signedInAs('premium')]
  const title = uniqueTitle('Hilo de pruebas para las notificaciones')
  const postId = await createPost(bruno.page, title)
  // More than a page (50): Ana's like first, then 52 comments, Ana's and Carla's in turn (each may
  // comment 60 times in ten minutes), and last Carla's like.
  await feedAction(ana.page, { intent: 'like-post', postId })
  for (let n = 1; n <= 26; n++) {
    await feedAction(ana.page, { intent: 'add-comment', postId, content: `Comentario ${n} de Ana` })
    await feedAction(carla.page, { intent: 'add-comment', postId, content: `Comentario ${n} de Carla` })
  }
  await feedAction(carla.page, { intent: 'like-post', postId })

  await bruno.page.goto('/notificaciones')
  const list = bruno.page.getByRole('list', { name: 'Notificaciones' })
  const rows = list.getByRole('listitem')
  const pager = bruno.page.getByRole('navigation', { name: 'Páginas' })
  const timesShown = () => list.locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')!))
  const [newest, oldest] = [`A ${carla.name} le gusta tu post «${title}»`, `A ${ana.name} le gusta tu post «${title}»`]
  await expect(rows).toHaveCount(50)
  await expect(rows.first()).toContainText(newest)
  await expect(list.getByText(oldest)).toHaveCount(0)
  await expect(pager.getByRole('link', { name: 'Más recientes' })).toHaveCount(0)
  const firstPage = await timesShown()

  await pager.getByRole('link', { name: 'Anteriores' }).click()
  await expect(bruno.page).toHaveURL(/\/notificaciones\?pagina=2$/)
  // Older ones may follow: a new event or CEO session of another test notifies every member.
  await expect(list.getByText(oldest)).toBeVisible()
  const secondPage = await timesShown()
  await expect(pager.getByRole('link', { name: 'Anteriores' })).toHaveCount(0)
  // Newest first across both pages, none shown twice.
  const all = [...firstPage, ...secondPage]
  expect(all).toEqual([...all].sort().reverse())
  expect(new Set(all).size).toBe(all.length)

  await pager.getByRole('link', { name: 'Más recientes' }).click()
  await expect(bruno.page).toHaveURL(/\/notificaciones$/)
  await expect(rows).toHaveCount(50)
  await expect(rows.first()).toContainText(newest)
})

test('at 390 × 844 and 1280 × 800: the feed, the bell, the notifications page, the profile and the auth page fit, pass axe, and are saved as screenshots', async ({
  signedInAs,
  pageAs,
}) => {
  const [bruno, ana] = [await signedInAs('premium'), await signedInAs('premium')]
  const thread = await threadWithComment(bruno, ana)
  const visitor = await pageAs(null)
  for (const [label, viewport] of [
    ['390', MOBILE],
    ['1280', DESKTOP],
  ] as const) {
    await bruno.page.setViewportSize(viewport)
    await bruno.page.goto('/comunidad')
    const firstPost = bruno.page.locator(POST_CARD).first()
    await expect(firstPost).toBeVisible()
    await expectNoHorizontalOverflow(bruno.page, `/comunidad at ${label}`, viewport)
    await expectNoAxeViolations(bruno.page, `/comunidad at ${label}`)
    await screenshot(bruno.page, `feed-${label}`)

    // The stats panel: after the feed on a phone, beside it on a desktop.
    const stats = bruno.page.getByRole('region', { name: 'La comunidad' })
    await expect(stats).toBeVisible()
    const [statsBox, postBox] = [await stats.boundingBox(), await firstPost.boundingBox()]
    if (label === '390') {
      expect(statsBox!.y, 'at 390 px the stats panel comes below the first post').toBeGreaterThanOrEqual(postBox!.y + postBox!.height)
    } else {
      expect(statsBox!.x, 'at 1280 px the stats panel is beside the feed').toBeGreaterThanOrEqual(postBox!.x + postBox!.width)
    }

    // The thread as its notification link shows it: first, its comments open.
    await bruno.page.goto(commentsOf(thread.postId))
    const post = postCard(bruno.page, thread.title)
    await expect(post.getByRole('button', { name: /comentarios?$/ })).toHaveAttribute('aria-expanded', 'true')
    const commentList = post.getByRole('list', { name: 'Comentarios' })
    await expect(commentList).toBeVisible()
    // The reply form stays inside its comment, the comment list and the post card.
    await commentList.getByRole('button', { name: 'Responder' }).first().click()
    const replyField = post.getByLabel('Escribe una respuesta')
    await expect(replyField).toBeVisible()
    // Inside `has`, a locator is matched within the candidate element.
    const replyForm = post.locator('form').filter({ has: bruno.page.getByLabel('Escribe una respuesta') })
    const replyButton = replyForm.getByRole('button', { name: 'Responder', exact: true })
    await expect(replyButton).toBeVisible()
    const comment = commentList.getByRole('article').filter({ has: bruno.page.getByLabel('Escribe una respuesta') })
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
    await expectNoHorizontalOverflow(bruno.page, `/comunidad with a reply form at ${label}`, viewport)
    // From the top: a full-page screenshot of a scrolled page draws the sticky header mid-page.
    await bruno.page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(bruno.page, `feed-reply-${label}`)

    const bell = bruno.page.getByRole('button', { name: /^Notificaciones/ })
    await bell.click()
    await expect(bruno.page.getByRole('menu')).toBeVisible()
    await expectNoAxeViolations(bruno.page, `the bell at ${label}`)
    await screenshot(bruno.page, `bell-${label}`)
    await bruno.page.keyboard.press('Escape')

    await bruno.page.goto('/notificaciones')
    await expect(bruno.page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible()
    await expect(bruno.page.getByRole('list', { name: 'Notificaciones' }).getByRole('listitem').first()).toBeVisible()
    await expectNoHorizontalOverflow(bruno.page, `/notificaciones at ${label}`, viewport)
    await expectNoAxeViolations(bruno.page, `/notificaciones at ${label}`)
    await screenshot(bruno.page, `notifications-${label}`)

    await bruno.page.goto('/perfil')
    await expect(bruno.page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
    await expectNoHorizontalOverflow(bruno.page, `/perfil at ${label}`, viewport)
    await expectNoAxeViolations(bruno.page, `/perfil at ${label}`)
    await screenshot(bruno.page, `profile-${label}`)

    await visitor.setViewportSize(viewport)
    await visitor.goto('/auth?tab=registro')
    await expect(visitor.getByRole('heading', { name: 'Crea tu cuenta' })).toBeVisible()
    await expectNoHorizontalOverflow(visitor, `/auth at ${label}`, viewport)
    await expectNoAxeViolations(visitor, `/auth at ${label}`)
    await screenshot(visitor, `auth-${label}`)
  }
})

test('the bell’s “Marcar todas como leídas” is a menu item the keyboard reaches (axe clean)', async ({ signedInAs }) => {
  const [bruno, ana] = [await signedInAs('premium', { viewport: DESKTOP }), await signedInAs('premium')]
  await threadWithComment(bruno, ana)
  await bruno.page.goto('/comunidad')
  const bell = bruno.page.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName(/sin leer/)
  const menu = bruno.page.getByRole('menu')
  const markAll = menu
    .getByRole('button', { name: 'Marcar todas como leídas' })
    .or(menu.getByRole('menuitem', { name: 'Marcar todas como leídas' }))
  const isFocused = () => markAll.evaluate((element) => element === document.activeElement)
  // The keyboard: open the bell (the menu focuses its first item), then move through it with
  // the arrows, then with Tab.
  await bell.focus()
  await bruno.page.keyboard.press('Enter')
  await expect(bruno.page.getByRole('menu')).toBeVisible()
  await expect(markAll).toBeEnabled()
  let reached = await isFocused()
  for (const key of reached ? [] : [...Array(14).fill('ArrowDown'), 'Tab', 'Tab']) {
    await bruno.page.keyboard.press(key)
    if (await bruno.page.getByRole('menu').isHidden()) break
    if ((reached = await isFocused())) break
  }
  expect.soft(reached, 'the keyboard reaches “Marcar todas como leídas” in the open bell').toBe(true)
  await bruno.page.keyboard.press('Escape')
  await bell.click()
  await expect(bruno.page.getByRole('menu')).toBeVisible()
  await expectNoAxeViolations(bruno.page, 'the open bell')
  await bruno.page.keyboard.press('Escape')
})

test('at 390 px the reply field takes its row, and opening it puts the cursor in it', async ({ signedInAs }) => {
  const [bruno, ana] = [await signedInAs('premium', { viewport: MOBILE }), await signedInAs('premium')]
  const thread = await threadWithComment(bruno, ana)
  await bruno.page.goto(commentsOf(thread.postId))
  const post = postCard(bruno.page, thread.title)
  const commentList = post.getByRole('list', { name: 'Comentarios' })
  await commentList.getByRole('button', { name: 'Responder' }).first().click()
  const field = post.getByLabel('Escribe una respuesta')
  await expect(field).toBeVisible()
  await expect(field).toBeFocused()
  const comment = commentList.getByRole('article').filter({ has: bruno.page.getByLabel('Escribe una respuesta') })
  const [fieldBox, commentBox] = [(await field.boundingBox())!, (await comment.boundingBox())!]
  expect(
    fieldBox.width,
    `the reply field (${fieldBox.width} px) is at least half as wide as its comment (${commentBox.width} px)`,
  ).toBeGreaterThanOrEqual(commentBox.width / 2)
})

test('at 390 px an unread notification’s text keeps its row beside “Marcar como leída”', async ({ signedInAs }) => {
  const [bruno, ana] = [await signedInAs('premium', { viewport: MOBILE }), await signedInAs('premium')]
  await threadWithComment(bruno, ana)
  await bruno.page.goto('/notificaciones')
  const row = bruno.page
    .getByRole('list', { name: 'Notificaciones' })
    .getByRole('listitem')
    .filter({ has: bruno.page.getByRole('button', { name: 'Marcar como leída' }) })
    .filter({ hasText: /le gusta tu post|ha comentado en tu post/ })
    .first()
  await expect(row).toBeVisible()
  const text = row.getByText(/le gusta tu post|ha comentado en tu post/)
  const [textBox, rowBox] = [(await text.boundingBox())!, (await row.boundingBox())!]
  expect(textBox.width, `the text (${textBox.width} px) takes at least half of its row (${rowBox.width} px)`).toBeGreaterThanOrEqual(
    rowBox.width / 2,
  )
})

test('the notifications page lists, filters and marks as read; the bell groups and links to it', async ({ signedInAs }) => {
  const [bruno, ana, carla] = [await signedInAs('premium', { viewport: DESKTOP }), await signedInAs('premium'), await signedInAs('premium')]
  const title = uniqueTitle('Hilo de pruebas para las notificaciones')
  const postId = await createPost(bruno.page, title)
  for (let n = 1; n <= 2; n++) {
    await feedAction(ana.page, { intent: 'add-comment', postId, content: `Comentario ${n} de Ana` })
    await feedAction(carla.page, { intent: 'add-comment', postId, content: `Comentario ${n} de Carla` })
  }
  await feedAction(carla.page, { intent: 'like-post', postId })
  await bruno.page.goto('/comunidad')
  await bruno.page.getByRole('button', { name: /^Notificaciones/ }).click()
  // The four comments are one line, the newest commenter first; the like keeps its own.
  const menuItem = (text: string) => bruno.page.getByRole('menuitem').filter({ hasText: text })
  await expect(menuItem(`${carla.name} y ${ana.name} comentaron tu publicación`)).toHaveCount(1)
  await expect(menuItem(`ha comentado en tu post «${title}»`)).toHaveCount(0)
  await expect(menuItem(`A ${carla.name} le gusta tu post «${title}»`)).toHaveCount(1)
  await bruno.page.getByRole('menuitem', { name: 'Ver todas' }).click()
  await expect(bruno.page).toHaveURL(/\/notificaciones$/)
  await expect(bruno.page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible()

  const list = bruno.page.getByRole('list', { name: 'Notificaciones' })
  await expect(list.getByRole('listitem').first()).toBeVisible()
  await bruno.page.getByRole('link', { name: /^No leídas/ }).click()
  await expect(bruno.page).toHaveURL(/\/notificaciones\?solo=no-leidas$/)
  await bruno.page.getByRole('button', { name: 'Marcar todas como leídas' }).click()
  await expect(bruno.page.getByText('No tienes notificaciones sin leer.')).toBeVisible()
  await expect(bruno.page.getByRole('button', { name: 'Notificaciones' })).toBeVisible()
})

test('community tabs are links with their own URLs; the old ?tab= links land on them', async ({ signedInAs }) => {
  const [ana, other] = [await signedInAs('premium', { viewport: DESKTOP }), await newMember('complete')]
  // A post, so that the feed has a card to look for.
  await createPost(ana.page, uniqueTitle('Bienvenida a la comunidad'))
  const tabs = ana.page.getByRole('navigation', { name: 'Secciones de la comunidad' })
  await expect(tabs.getByRole('link', { name: 'Comunidad' })).toHaveAttribute('aria-current', 'page')
  await expect(ana.page.locator(POST_CARD).first()).toBeVisible()

  // A tab is a link; the browser's back button returns to the feed.
  await expect(tabs.getByRole('link', { name: 'Miembros' })).toHaveAttribute('href', '/comunidad/miembros')
  await tabs.getByRole('link', { name: 'Miembros' }).click()
  await expect(ana.page).toHaveURL(/\/comunidad\/miembros$/)
  await expect(tabs.getByRole('link', { name: 'Miembros' })).toHaveAttribute('aria-current', 'page')
  await expect(ana.page.getByRole('searchbox', { name: 'Buscar miembros' })).toBeVisible()
  await expect(ana.page.locator(POST_CARD)).toHaveCount(0)
  await ana.page.goBack()
  await expect(ana.page).toHaveURL(/\/comunidad$/)
  await expect(tabs.getByRole('link', { name: 'Comunidad' })).toHaveAttribute('aria-current', 'page')
  await expect(ana.page.locator(POST_CARD).first()).toBeVisible()
  await expect(ana.page.getByRole('searchbox', { name: 'Buscar miembros' })).toHaveCount(0)

  // The first version's ?tab= links: a permanent redirect that keeps the rest of the query.
  for (const [legacy, target] of [
    ['/comunidad?tab=miembros&q=ana.page', '/comunidad/miembros?q=ana.page'],
    ['/comunidad?tab=sesiones', '/comunidad/sesiones'],
    ['/comunidad?tab=calendario', '/comunidad/calendario'],
    ['/comunidad?tab=comunidad', '/comunidad'],
  ] as const) {
    const response = await ana.page.request.get(legacy, { maxRedirects: 0 })
    expect(response.status(), `${legacy} answers a permanent redirect`).toBe(301)
    expect(response.headers()['location'], `${legacy} redirects to ${target}`).toBe(target)
  }
  const search = folded(ana.lastName).toLowerCase()
  await ana.page.goto(`/comunidad?tab=miembros&q=${encodeURIComponent(search)}`)
  await expect(ana.page).toHaveURL((url) => url.pathname === '/comunidad/miembros' && url.searchParams.get('q') === search)
  await expect(ana.page.getByRole('searchbox', { name: 'Buscar miembros' })).toHaveValue(search)
  await expect(ana.page.getByRole('link', { name: `Ver Perfil de ${ana.name}` })).toBeVisible()
  await expect(ana.page.getByRole('link', { name: `Ver Perfil de ${other.name}` })).toHaveCount(0)
  await ana.page.goto('/comunidad?tab=sesiones')
  await expect(ana.page).toHaveURL(/\/comunidad\/sesiones$/)
  await expect(ana.page.getByRole('heading', { level: 2, name: 'Sesiones con CEOs' })).toBeVisible()
  await expect(tabs.getByRole('link', { name: 'Sesiones' })).toHaveAttribute('aria-current', 'page')
  await ana.page.goto('/comunidad?tab=calendario')
  await expect(ana.page).toHaveURL(/\/comunidad\/calendario$/)
  await expect(ana.page.getByRole('heading', { level: 2, name: 'Calendario de eventos' })).toBeVisible()
  await expect(tabs.getByRole('link', { name: 'Calendario' })).toHaveAttribute('aria-current', 'page')

  // A member whose profile is incomplete follows the same link to the profile gate, not to an error.
  const { page: incomplete } = await signedInAs('member')
  const response = await incomplete.goto('/comunidad?tab=miembros')
  expect(response?.status()).toBe(200)
  await expect(incomplete).toHaveURL(/\/perfil\?incompleto=1$/)
  await expect(incomplete.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
  await expect(incomplete.getByRole('heading', { name: /Algo ha fallado|No se puede continuar|no encontrada/i })).toHaveCount(0)
})

test('a like on an open feed moves the count on the other member’s screen without reloading', async ({ signedInAs }) => {
  const [bruno, ana] = [await signedInAs('premium'), await signedInAs('premium')]
  const title = uniqueTitle(THREAD)
  const postId = await createPost(bruno.page, title)
  await bruno.page.goto(commentsOf(postId))
  await ana.page.goto(commentsOf(postId))
  // The post's own like toggle (the comments have theirs), after the count: its text is the
  // count, then the label for screen readers ('0Me gusta').
  const likeOf = (page: Page) =>
    postCard(page, title)
      .locator('footer')
      .getByRole('button', { name: /me gusta$/i })
  await expect(likeOf(bruno.page)).toHaveText(/^0\D/)
  await liveStreamOpen(bruno.page)
  await likeOf(ana.page).click()
  await expect(likeOf(ana.page)).toHaveAttribute('aria-pressed', 'true')
  await expect(likeOf(bruno.page)).toHaveText(/^1\D/)
})

test('an admin publishes a CEO session; a premium member watches, likes and comments; without premium only the promo', async ({
  signedInAs,
}) => {
  const [admin, ana] = [await signedInAs('admin', { viewport: DESKTOP }), await signedInAs('premium', { viewport: DESKTOP })]
  const SESSION_TITLE = uniqueTitle('Del laboratorio al comité de dirección')
  await admin.page.goto('/comunidad/sesiones')
  await admin.page.getByRole('button', { name: 'Nueva Sesión' }).click()
  const dialog = admin.page.getByRole('dialog', { name: 'Nueva Sesión' })
  await expect(dialog).toBeVisible()

  // Spec 001 §8: nothing is sent while required fields are empty.
  await dialog.getByRole('button', { name: 'Crear sesión' }).click()
  await expectToast(admin.page, 'Campos requeridos')

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
  await expectToast(admin.page, 'Tipo de archivo inválido')
  await expect(dialog.getByText('Solo se permiten archivos PDF')).toBeVisible()
  await dialog
    .getByLabel('PDF', { exact: true })
    .setInputFiles({ name: 'resumen.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% resumen\n') })
  // Over one 5 MiB chunk, so the upload goes through the 308 'go on' answers: the fixture's two
  // seconds, padded with zeros after the WebM segment (players and ffprobe ignore them).
  const paddedVideo = Buffer.concat([readFileSync('tests/fixtures/session.webm'), Buffer.alloc(6 * 1024 * 1024)])
  await dialog.getByLabel('Video *').setInputFiles({ name: 'sesion.webm', mimeType: 'video/webm', buffer: paddedVideo })
  await screenshot(admin.page, 'sessions-dialog-1280')
  await expectNoHorizontalOverflow(admin.page, 'session dialog at 390', MOBILE)
  await screenshot(admin.page, 'sessions-dialog-390')
  await expectNoAxeViolations(admin.page, 'session dialog')
  await admin.page.setViewportSize(DESKTOP)
  await dialog.getByRole('button', { name: 'Crear sesión' }).click()
  await expectToast(admin.page, 'Sesión creada')
  await expect(dialog).toBeHidden()

  // The panel follows the session to 'Publicada' by itself (it looks again every 10 s).
  const panel = admin.page.getByRole('region', { name: 'Mis sesiones en proceso' })
  const row = panel.getByRole('listitem').filter({ hasText: SESSION_TITLE })
  await expect(row.getByText(/Procesando video...|Publicada/)).toBeVisible()
  await expect(row.getByText('Publicada')).toBeVisible({ timeout: 60_000 })

  // A premium member finds it by a word without its accent, opens it and plays it.
  await ana.page.setViewportSize(DESKTOP)
  await ana.page.goto('/comunidad/sesiones?buscar=genomica')
  const card = ana.page.getByRole('article').filter({ has: ana.page.getByRole('link', { name: SESSION_TITLE }) })
  await expect(card.getByText('PDF')).toBeVisible()
  await expect(card.getByText('Liderazgo')).toBeVisible()
  await expectNoAxeViolations(ana.page, 'sessions tab')
  await card.getByRole('link', { name: SESSION_TITLE }).click()
  await expect(ana.page).toHaveURL(/\/video\/[0-9a-f-]{36}$/)
  const sessionPath = new URL(ana.page.url()).pathname
  await expect(ana.page.getByRole('heading', { level: 1, name: SESSION_TITLE })).toBeVisible()
  await expect(ana.page.getByText('1 visualización')).toBeVisible()
  const video = ana.page.locator('video')
  await expect(video).toHaveAttribute('src', /\/uploads\/sessions\//)
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true
    await element.play()
  })
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { message: 'the video plays' })
    .toBeGreaterThan(0)
  await expect(ana.page.getByRole('link', { name: 'Ver PDF' })).toHaveAttribute('href', /\/uploads\/sessions\/.+name=resumen\.pdf/)

  const like = ana.page.getByRole('button', { name: /me gusta$/i }).first()
  await like.click()
  await expect(like).toHaveAttribute('aria-pressed', 'true')
  await expect(like).toHaveText(/^1/)
  const comments = ana.page.getByRole('region', { name: /Comentarios/ })
  await comments.getByPlaceholder('Escribe un comentario...').fill('¿Cómo elegisteis al primer consejero independiente?')
  await comments.getByRole('button', { name: 'Comentar' }).click()
  await expectToast(ana.page, 'Comentario añadido')
  await expect(comments.getByText('¿Cómo elegisteis al primer consejero independiente?')).toBeVisible()
  await expectNoAxeViolations(ana.page, 'video page')
  for (const viewport of [MOBILE, DESKTOP]) {
    await expectNoHorizontalOverflow(ana.page, `video page at ${viewport.width}`, viewport)
    await screenshot(ana.page, `video-page-${viewport.width}`)
  }
  await ana.page.goto('/comunidad/sesiones')
  await expectNoHorizontalOverflow(ana.page, 'sessions tab at 390', MOBILE)
  await screenshot(ana.page, 'sessions-tab-390')

  // A member without premium: the promo where the video would be, and no address of it.
  const { page: newcomer } = await signedInAs('complete')
  const response = await newcomer.goto(sessionPath)
  expect(response?.status()).toBe(200)
  await expect(newcomer.getByText('Acceso Premium Requerido').first()).toBeVisible()
  await expect(newcomer.locator('video')).toHaveCount(0)
  expect(await response!.text()).not.toContain('/uploads/sessions/')
  await newcomer.goto('/comunidad/sesiones')
  await expect(newcomer.getByRole('link', { name: SESSION_TITLE })).toHaveCount(0)
  await expect(newcomer.getByText('Solicitar Admisión').first()).toBeVisible()

  // The video page's 'Editar' opens the edit dialog on the tab (spec: /comunidad?edit={id}).
  await admin.page.goto(sessionPath)
  await admin.page.getByRole('link', { name: 'Editar' }).click()
  await expect(admin.page).toHaveURL(/\/comunidad\/sesiones\?editar=/)
  const edit = admin.page.getByRole('dialog', { name: 'Editar Sesión' })
  await expect(edit.getByLabel('Título *')).toHaveValue(SESSION_TITLE)
  await expect(edit.getByLabel('Fecha de la sesión (hora de Madrid) *')).toHaveValue('2026-11-05T19:00')
  await edit.getByLabel('Título *').fill(`${SESSION_TITLE} (2026)`)
  await edit.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectToast(admin.page, 'Sesión actualizada')
  await expect(edit).toBeHidden()
  const adminCard = admin.page.getByRole('article').filter({ has: admin.page.getByRole('link', { name: `${SESSION_TITLE} (2026)` }) })
  await expect(adminCard).toBeVisible()

  // Deleting asks first (spec 001 §8), then the card is gone.
  await adminCard.getByRole('button', { name: 'Eliminar' }).click()
  const confirm = admin.page.getByRole('dialog', { name: 'Confirmar' })
  await expect(confirm.getByText('¿Estás seguro de que quieres eliminar esta sesión?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expectToast(admin.page, 'Sesión eliminada')
  await expect(adminCard).toHaveCount(0)
  await admin.page.goto(sessionPath)
  await expect(admin.page.getByRole('heading', { name: 'Video no encontrado' })).toBeVisible()
})

test('an admin creates an event; a premium member registers, downloads the .ics and finds it on its day of the calendar', async ({
  signedInAs,
  pageAs,
}) => {
  const [admin, ana] = [await signedInAs('admin'), await signedInAs('premium')]
  // The 15th of next month at 19:00 in Madrid.
  const now = new Date()
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15))
  const month = `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, '0')}`
  const title = uniqueTitle('Mesa redonda: acceso al mercado')

  await admin.page.setViewportSize(DESKTOP)
  await admin.page.goto('/comunidad/calendario')
  await admin.page.getByRole('button', { name: 'Nuevo Evento' }).click()
  const dialog = admin.page.getByRole('dialog', { name: 'Nuevo Evento' })
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
  await expectToast(admin.page, 'Evento creado')

  await ana.page.setViewportSize(DESKTOP)
  await ana.page.goto('/comunidad/calendario')
  const card = ana.page.getByRole('article').filter({ has: ana.page.getByRole('heading', { name: title }) })
  await expect(card.getByText('0 asistentes confirmados de 20')).toBeVisible()
  await expect(card.getByText('(hora de Madrid)')).toBeVisible()
  await card.getByRole('button', { name: 'Registrarse' }).click()
  await expectToast(ana.page, 'Registrado al evento')
  await expect(card.getByRole('button', { name: 'Registrado' })).toBeVisible()
  await expectNoAxeViolations(ana.page, 'calendar list')
  await card.getByRole('link', { name: /Ver detalles/ }).click()
  await expect(ana.page.getByRole('heading', { name: title })).toBeVisible()
  const eventPage = new URL(ana.page.url()).pathname
  await expect(ana.page.getByRole('region', { name: /Asistentes confirmados/ }).getByRole('link', { name: ana.name })).toBeVisible()
  const [download] = await Promise.all([
    ana.page.waitForEvent('download'),
    ana.page.getByRole('link', { name: 'Añadir al calendario' }).click(),
  ])
  const ics = readFileSync(await download.path(), 'utf8')
  expect(ics).toContain(`DTSTART;TZID=Europe/Madrid:${month.replace('-', '')}15T190000`)
  expect(ics).toContain(`SUMMARY:${title.replace(/[,;]/g, (c) => `\\${c}`)}`)
  await expectNoAxeViolations(ana.page, 'event page')
  for (const viewport of [MOBILE, DESKTOP]) {
    await expectNoHorizontalOverflow(ana.page, `event page at ${viewport.width}`, viewport)
    await screenshot(ana.page, `event-page-${viewport.width}`)
  }

  // The month shows it on the 15th; the day opens a dialog with it.
  await ana.page.goto(`/comunidad/calendario?vista=calendario&mes=${month}`)
  // Other runs of this test may have put events on the same day.
  const day = ana.page.getByRole('button', { name: /^15 de .*, \d+ eventos?$/ })
  await expect(day).toBeVisible()
  await expect(day.getByText(title)).toBeVisible()
  await expectNoAxeViolations(ana.page, 'month calendar')
  await screenshot(ana.page, 'calendar-month-1280')
  await day.click()
  await expect(ana.page.getByRole('dialog', { name: /^Eventos del 15 de/ }).getByRole('link', { name: title })).toBeVisible()
  await ana.page.keyboard.press('Escape')
  await expectNoHorizontalOverflow(ana.page, 'month calendar at 390', MOBILE)
  await screenshot(ana.page, 'calendar-month-390')

  // A member in Mexico City sees the hour in their own zone beside Madrid's.
  const abroad = await pageAs(ana, { locale: 'es-MX', timezoneId: 'America/Mexico_City' })
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
