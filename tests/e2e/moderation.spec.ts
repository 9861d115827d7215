import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { createPost, postCard, uniqueTitle } from './support/community'
import { expect, newMember, test } from './support/fixtures'
import { expectToast } from './support/ui'

// Issue 28: a member reports a comment, a moderator hides it with a reason, its author sees why,
// edits it and asks for a review, and the moderator makes it visible again.

test('a reported comment is hidden with a reason, edited by its author, reviewed and restored', async ({ signedInAs }) => {
  test.setTimeout(90_000)
  const [owner, author, moderator] = [
    await signedInAs('premium', { viewport: DESKTOP }),
    await signedInAs('premium', { viewport: DESKTOP }),
    await signedInAs('moderator', { viewport: DESKTOP }),
  ]
  const title = uniqueTitle('Resultados del ensayo de fase II')
  await createPost(owner.page, title)
  const comment = `Los datos del paciente 0042 están en este enlace (${Date.now().toString(36)})`

  // The author comments on the owner's post.
  await author.page.goto('/comunidad')
  const authorsPost = postCard(author.page, title)
  await authorsPost.getByRole('button', { name: /comentarios?$/ }).click()
  await authorsPost.getByLabel('Escribe un comentario').fill(comment)
  await authorsPost.getByRole('button', { name: 'Comentar', exact: true }).click()
  await expectToast(author.page, 'Comentario añadido')

  // The owner reports it.
  await owner.page.goto('/comunidad')
  const ownersPost = postCard(owner.page, title)
  await ownersPost.getByRole('button', { name: /comentarios?$/ }).click()
  const reported = ownersPost.getByRole('article').filter({ hasText: comment })
  await reported.locator('summary', { hasText: 'Informar' }).click()
  await reported.getByLabel('Confidencial o datos personales').check()
  await reported.getByLabel('Nota para el equipo de moderación (opcional)').fill('Datos de un paciente')
  await reported.getByRole('button', { name: 'Enviar informe' }).click()
  await expectToast(owner.page, 'Gracias por avisarnos. El equipo de moderación lo revisará y te contaremos qué decide.')

  // The moderator finds it in the queue and hides it with a reason.
  await moderator.page.goto('/admin/moderacion')
  await expect(moderator.page.getByRole('heading', { name: 'Moderación', level: 2 })).toBeVisible()
  const entry = moderator.page.locator('[data-slot="card"], .rounded-xl').filter({ hasText: comment }).first()
  await expect(entry).toContainText('Confidencial o datos personales')
  await expect(entry).toContainText('Datos de un paciente')
  await expectNoAxeViolations(moderator.page, '/admin/moderacion at 1280 px')
  await screenshot(moderator.page, 'moderation-queue-1280', { fullPage: false })
  await moderator.page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(moderator.page, '/admin/moderacion', MOBILE)
  await screenshot(moderator.page, 'moderation-queue-390', { fullPage: false })
  await moderator.page.setViewportSize(DESKTOP)
  await entry.getByLabel('Motivo que verá el autor (para ocultar o eliminar)').fill('Contiene datos personales de un paciente')
  await entry.getByRole('button', { name: 'Ocultar' }).click()
  await expectToast(moderator.page, 'Contenido oculto')

  // Others no longer see it; its author sees why, edits it and asks for a review.
  await owner.page.goto(`/comunidad`)
  await postCard(owner.page, title)
    .getByRole('button', { name: /comentarios?$/ })
    .click()
  await expect(postCard(owner.page, title).getByText(comment)).toHaveCount(0)

  await author.page.goto('/comunidad')
  const mine = postCard(author.page, title)
  await mine.getByRole('button', { name: /comentarios?$/ }).click()
  const hidden = author.page.locator(`#${await mine.getByRole('article').filter({ hasText: comment }).getAttribute('id')}`)
  await expect(hidden.getByRole('note')).toContainText('Oculto por moderación: Contiene datos personales de un paciente')
  await hidden.getByRole('button', { name: 'Editar' }).click()
  await hidden.getByLabel('Editar comentario').fill('Los resultados agregados del ensayo están en el informe público.')
  await hidden.getByRole('button', { name: 'Guardar' }).click()
  await expectToast(author.page, 'Comentario actualizado')
  await hidden.getByRole('button', { name: 'Pedir revisión' }).click()
  await expectToast(author.page, 'Hemos pedido al equipo de moderación que lo revise de nuevo.')

  // The moderator restores it; everyone sees it again.
  await moderator.page.goto('/admin/moderacion')
  const review = moderator.page.locator('.rounded-xl').filter({ hasText: 'Los resultados agregados del ensayo' }).first()
  await expect(review).toContainText('Revisión pedida')
  await review.getByRole('button', { name: 'Restaurar' }).click()
  await expectToast(moderator.page, 'Contenido visible de nuevo')
  await owner.page.goto('/comunidad')
  await postCard(owner.page, title)
    .getByRole('button', { name: /comentarios?$/ })
    .click()
  await expect(postCard(owner.page, title).getByText('Los resultados agregados del ensayo')).toBeVisible()
})

test('a member reports another from their profile; a moderator warns them; the warned member reads why', async ({ signedInAs }) => {
  test.setTimeout(60_000)
  const [reporter, target, moderator] = [
    await signedInAs('premium', { viewport: MOBILE }),
    await signedInAs('premium', { viewport: DESKTOP }),
    await signedInAs('moderator', { viewport: DESKTOP }),
  ]
  await reporter.page.goto(`/usuario/${target.id}`)
  await expect(reporter.page.getByRole('heading', { name: target.name })).toBeVisible()
  await reporter.page.locator('summary', { hasText: 'Informar' }).click()
  await reporter.page.getByLabel('Ofensivo o acoso').check()
  await reporter.page.getByLabel('Nota para el equipo de moderación (opcional)').fill('Mensajes insistentes después de decirle que no')
  await expectNoAxeViolations(reporter.page, '/usuario/:id with the report form open at 390 px')
  await expectNoHorizontalOverflow(reporter.page, '/usuario/:id', MOBILE)
  await reporter.page.getByRole('button', { name: 'Enviar informe' }).click()
  await expectToast(reporter.page, 'Gracias por avisarnos. El equipo de moderación lo revisará y te contaremos qué decide.')

  await moderator.page.goto('/admin/moderacion')
  const entry = moderator.page
    .locator('.rounded-xl')
    .filter({ hasText: `Perfil de ${target.name}` })
    .first()
  await expect(entry).toContainText('Ofensivo o acoso')
  await expect(entry.getByRole('link', { name: 'Ver su perfil' })).toHaveAttribute('href', `/usuario/${target.id}`)
  await expectNoHorizontalOverflow(moderator.page, '/admin/moderacion with a reported member', MOBILE)
  await entry.scrollIntoViewIfNeeded()
  await screenshot(moderator.page, 'moderation-member-390', { fullPage: false })
  await moderator.page.setViewportSize(DESKTOP)
  await entry.getByLabel('Aviso o motivo que verá el miembro').fill('Respeta a quien te dice que no le interesa')
  await entry.getByRole('button', { name: 'Advertir al autor' }).click()
  await expectToast(moderator.page, 'Aviso enviado')
  await expect(moderator.page.getByText(`Perfil de ${target.name}`)).toHaveCount(0)

  await target.page.goto('/notificaciones')
  await expect(target.page.getByText('Un aviso del equipo de moderación')).toBeVisible()
  await expect(target.page.getByText('Respeta a quien te dice que no le interesa')).toBeVisible()
})

test('without JavaScript, a member reports a post on a page of its own', async ({ pageAs, signedInAs }) => {
  const author = await signedInAs('premium', { viewport: DESKTOP })
  const title = uniqueTitle('Oferta de consultoría')
  await createPost(author.page, title)
  const page = await pageAs(await newMember('premium'), { javaScriptEnabled: false, viewport: MOBILE })
  await page.goto('/comunidad')
  const post = postCard(page, title)
  await post.locator('summary', { hasText: 'Informar' }).click()
  await post.getByRole('link', { name: 'Abrir el formulario para informar' }).click()
  await expect(page.getByRole('heading', { name: 'Informar al equipo de moderación' })).toBeVisible()
  await page.getByLabel('Spam').check()
  await page.getByRole('button', { name: 'Enviar informe' }).click()
  await expect(page.getByRole('status')).toHaveText(
    'Gracias por avisarnos. El equipo de moderación lo revisará y te contaremos qué decide.',
  )
  await expectNoHorizontalOverflow(page, '/moderacion/informar', MOBILE)
})
