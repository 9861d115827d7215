import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { createPost, postCard, uniqueTitle } from './support/community'
import { expect, test } from './support/fixtures'
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
  await entry.getByLabel('Motivo que verá el autor (para ocultar)').fill('Contiene datos personales de un paciente')
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
