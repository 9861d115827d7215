import { type Page } from '@playwright/test'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { createPost, feedAction, idOf, markAllRead, postCard, uniqueTitle } from './support/community'
import { expect, test } from './support/fixtures'
import { mailsTo, markMailLog, readMailLog, waitForMailLink } from './support/mail'
import { expectToast, liveStreamOpen, scrollSettled } from './support/ui'

// Issue 14: a member sets 'Solo en la web' for comments; another member comments; no e-mail is
// queued for that kind, the bell shows it. The positive control: a reply to the member's comment,
// a topic left 'En la web y por email', is e-mailed in the same window, so the missing comment
// e-mail is the preference at work and not a batch that never ran. Then the e-mail's unsubscribe
// link, signed out, turns the replies' e-mail off too.

/** playwright.config.ts sets EMAIL_BATCH_SECONDS=3 for the server. */
const BATCH_MS = 3_000
const OWN_COMMENT = 'Añado el calendario que propuse a finanzas.'
const OTHER_COMMENT = 'Nosotros lo presentamos por trimestres.'
const REPLY = 'El calendario es lo primero que miran.'
const TOPIC = {
  comments: 'Comentarios en mis publicaciones y sesiones',
  replies: 'Respuestas a mis comentarios',
} as const

/** The radio of this topic's group ('Solo en la web'…) in the /perfil preferences. */
function channel(page: Page, topic: string, label: 'En la web y por email' | 'Solo en la web' | 'Nada') {
  return page
    .locator('#notificaciones')
    .getByRole('radiogroup', { name: topic, exact: true })
    .getByRole('radio', { name: label, exact: true })
}

test('with comments set to “Solo en la web”, a comment rings the bell but is not e-mailed; a reply is, and its link unsubscribes', async ({
  signedInAs,
  pageAs,
}) => {
  test.setTimeout(120_000)
  const [ireneMember, brunoMember] = [await signedInAs('premium'), await signedInAs('premium')]
  const [irene, bruno] = [ireneMember.page, brunoMember.page]
  const POST_TITLE = uniqueTitle('Cómo presentar el plan de acceso al comité')

  // Irene's post, with a comment of her own (which Bruno will answer).
  const postId = await createPost(irene, POST_TITLE)
  await feedAction(irene, { intent: 'add-comment', postId, content: OWN_COMMENT })

  // Her preferences: comments only on the web, replies still by e-mail (the default), and no digest
  // (a Monday-morning digest would be a second e-mail in the window this test counts).
  await irene.setViewportSize(DESKTOP)
  await irene.goto('/perfil#notificaciones')
  const card = irene.locator('#notificaciones')
  await expect(card.getByRole('heading', { level: 2, name: 'Notificaciones', exact: true })).toBeVisible()
  await expect(card.getByRole('checkbox', { name: 'Recibir notificaciones por email' })).toBeChecked()
  // The defaults of issue 14.
  await expect(channel(irene, TOPIC.comments, 'En la web y por email')).toBeChecked()
  await expect(channel(irene, TOPIC.replies, 'En la web y por email')).toBeChecked()
  await expect(channel(irene, 'Me gusta en mis publicaciones y comentarios', 'Solo en la web')).toBeChecked()
  await expect(channel(irene, 'Nuevas sesiones CEO', 'Solo en la web')).toBeChecked()
  await expect(channel(irene, 'Nuevos eventos', 'Solo en la web')).toBeChecked()
  await expect(channel(irene, 'Mis eventos: recordatorios y plazas liberadas', 'En la web y por email')).toBeChecked()
  const digest = card.getByRole('group', { name: 'Resumen de la comunidad por email' })
  await expect(digest.getByRole('radio', { name: 'Semanal', exact: true })).toBeChecked()

  for (const viewport of [MOBILE, DESKTOP]) {
    await irene.setViewportSize(viewport)
    await irene.goto('/perfil#notificaciones')
    // The e-mail's 'Gestionar mis preferencias' lands here (scrolling smoothly): the card's title
    // ends up in view, not under the fixed top bar.
    await scrollSettled(irene)
    const title = card.getByRole('heading', { level: 2, name: 'Notificaciones', exact: true })
    await expect(title).toBeInViewport()
    const [titleBox, barBox] = [(await title.boundingBox())!, (await irene.getByRole('banner').boundingBox())!]
    expect(titleBox.y, `at ${viewport.width} px the card's title is below the top bar`).toBeGreaterThanOrEqual(barBox.y + barBox.height)
    await irene.screenshot({ path: `test-results/screens/notification-preferences-anchor-${viewport.width}.png` })
    await expectNoHorizontalOverflow(irene, `/perfil#notificaciones at ${viewport.width}`, viewport)
    await expectNoAxeViolations(irene, `/perfil#notificaciones at ${viewport.width}`)
    // From the top: a full-page screenshot of a scrolled page draws the fixed top bar mid-page.
    await irene.evaluate(() => window.scrollTo(0, 0))
    await screenshot(irene, `notification-preferences-${viewport.width}`)
    await card.screenshot({ path: `test-results/screens/notification-preferences-card-${viewport.width}.png` })
  }

  await channel(irene, TOPIC.comments, 'Solo en la web').check()
  await digest.getByRole('radio', { name: 'Nunca', exact: true }).check()
  await irene.getByRole('button', { name: 'Guardar preferencias' }).click()
  await expectToast(irene, 'Preferencias de notificación guardadas')
  await irene.reload()
  await expect(channel(irene, TOPIC.comments, 'Solo en la web')).toBeChecked()
  await expect(channel(irene, TOPIC.replies, 'En la web y por email')).toBeChecked()
  await expect(digest.getByRole('radio', { name: 'Nunca', exact: true })).toBeChecked()

  // Irene waits on the feed; her bell listens.
  await markAllRead(irene)
  await irene.goto('/comunidad')
  const bell = irene.getByRole('button', { name: /^Notificaciones/ })
  await expect(bell).toHaveAccessibleName('Notificaciones')
  await liveStreamOpen(irene)
  const mark = markMailLog()

  // Bruno comments on her post (a 'comments' notification) and answers her comment (a 'replies' one).
  await bruno.setViewportSize(DESKTOP)
  await bruno.goto(`/comunidad?comentarios=${postId}#post-${postId}`)
  const post = postCard(bruno, POST_TITLE)
  const comments = post.getByRole('list', { name: 'Comentarios' })
  await expect(comments).toContainText(OWN_COMMENT)
  await post.getByLabel('Escribe un comentario').fill(OTHER_COMMENT)
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(bruno, 'Comentario añadido')
  await expect(comments).toContainText(OTHER_COMMENT)
  const ownComment = comments.getByRole('article').filter({ hasText: OWN_COMMENT }).first()
  await ownComment.getByRole('button', { name: 'Responder', exact: true }).first().click()
  const replyForm = post.locator('form').filter({ has: bruno.getByLabel('Escribe una respuesta') })
  await replyForm.getByLabel('Escribe una respuesta').fill(REPLY)
  await replyForm.getByRole('button', { name: 'Responder', exact: true }).click()
  await expectToast(bruno, 'Respuesta añadida')
  const replyId = await idOf(post.getByRole('article').filter({ hasText: REPLY }).last(), 'comment')

  // The bell shows both, live (opening it marks nothing read, so the e-mail still has the reply).
  await expect(bell).toHaveAccessibleName('Notificaciones: 2 sin leer', { timeout: 15_000 })
  await bell.click()
  const menu = irene.getByRole('menu')
  await expect(menu.getByRole('menuitem').filter({ hasText: 'Nuevo comentario' })).toContainText(
    `${brunoMember.name} ha comentado en tu post «${POST_TITLE}»`,
  )
  await expect(menu.getByRole('menuitem').filter({ hasText: 'Nueva respuesta' })).toContainText(
    `${brunoMember.name} ha respondido a tu comentario en «${POST_TITLE}»`,
  )
  await irene.keyboard.press('Escape')

  // The reply's e-mail comes after the batch window; one more window later nothing else has come.
  const replySubject = `Nueva respuesta: ${brunoMember.name} ha respondido a tu comentario en «${POST_TITLE}»`
  await waitForMailLink(ireneMember.email, replySubject, { after: mark })
  await irene.waitForTimeout(BATCH_MS + 1_000)
  const mails = mailsTo(ireneMember.email, mark)
  expect(
    mails.map((mail) => mail.subject),
    'one e-mail to Irene, the reply alone (a single-item subject, not "Tienes N novedades")',
  ).toEqual([replySubject])
  const entries = readMailLog({ after: mark }).filter((entry) => entry.to === ireneMember.email.toLowerCase())
  expect(entries.length, 'the ✉ lines of the e-mail are in the log').toBeGreaterThan(0)
  for (const entry of entries) {
    expect(entry.subject, 'no e-mail about the comment').not.toMatch(/Nuevo comentario|novedades|ha comentado/)
    expect(entry.subject).toBe(replySubject)
  }
  const [mail] = mails
  const links = entries.map((entry) => entry.url)
  expect([...mail!.links].sort(), 'the ✉ lines are the links of that one e-mail').toEqual([...new Set(links)].sort())
  const base = process.env.E2E_BASE_URL!
  expect(links, 'the e-mail links to the exact reply').toContain(`${base}/comunidad?comentarios=${postId}#comment-${replyId}`)
  expect(
    links.some((link) => link.includes(`comment-`) && !link.endsWith(`#comment-${replyId}`)),
    "no link to Bruno's comment",
  ).toBe(false)
  const unsubscribeLinks = links.filter((link) => link.startsWith(`${base}/correo/baja/`))
  expect(unsubscribeLinks, 'one unsubscribe link: the e-mail has one topic').toHaveLength(1)

  // The e-mail's link opens the reply itself.
  await irene.goto(`/comunidad?comentarios=${postId}#comment-${replyId}`)
  await expect(irene.locator(`[id="comment-${replyId}"]`)).toContainText(REPLY)

  // The unsubscribe link works without signing in.
  const visitor = await pageAs(null)
  await visitor.setViewportSize(DESKTOP)
  await visitor.goto(unsubscribeLinks[0]!)
  await expect(visitor.getByRole('heading', { level: 1, name: 'Dejar de recibir emails' })).toBeVisible()
  await expect(visitor.getByRole('main').getByRole('listitem')).toHaveText([TOPIC.replies])
  await expect(visitor.getByRole('button', { name: 'Confirmar la baja' })).toBeVisible()
  for (const viewport of [MOBILE, DESKTOP]) {
    await expectNoHorizontalOverflow(visitor, `unsubscribe page at ${viewport.width}`, viewport)
    await expectNoAxeViolations(visitor, `unsubscribe page at ${viewport.width}`)
    await screenshot(visitor, `unsubscribe-${viewport.width}`)
  }
  await visitor.getByRole('button', { name: 'Confirmar la baja' }).click()
  await expect(visitor.getByRole('heading', { level: 1, name: 'Listo: ya no recibirás estos emails' })).toBeVisible()
  await expect(visitor.getByText('Seguirás viendo estas novedades en la campana de la web.')).toBeVisible()
  await expect(visitor.getByRole('button', { name: 'Confirmar la baja' })).toHaveCount(0)
  await expectNoAxeViolations(visitor, 'unsubscribe page, done')
  await screenshot(visitor, 'unsubscribe-done-1280')

  await irene.goto('/perfil#notificaciones')
  await expect(channel(irene, TOPIC.replies, 'Solo en la web')).toBeChecked()
  await expect(channel(irene, TOPIC.comments, 'Solo en la web')).toBeChecked()

  // A link that is not one of ours.
  const response = await visitor.goto('/correo/baja/garbage')
  expect(response?.status()).toBe(400)
  await expect(visitor.getByRole('heading', { level: 1, name: 'Enlace no válido' })).toBeVisible()
  await expect(visitor.getByRole('link', { name: 'Ir a mis preferencias' })).toHaveAttribute('href', '/perfil#notificaciones')
  await expectNoHorizontalOverflow(visitor, 'invalid unsubscribe link at 390', MOBILE)
  await screenshot(visitor, 'unsubscribe-invalid-390')
})
