import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { createPost, feedAction, uniqueTitle } from './support/community'
import { expect, test } from './support/fixtures'

// Issue 39: one search for the whole community. A member types without accents, finds a comment
// and lands on it in its thread; the page is checked with axe and at 390 and 1280 px.
test('a member searches without accents, opens a comment result and lands on the comment', async ({ signedInAs }) => {
  const author = await signedInAs('premium')
  const reader = await signedInAs('premium')
  const postId = await createPost(author.page, uniqueTitle('Precios de referencia en Alemania'))
  const word = `farmacoeconomía${Date.now().toString(36).replace(/\d/g, '')}`
  await feedAction(author.page, { intent: 'add-comment', postId, content: `La evaluación ${word} pesa más que el precio de lista.` })

  const { page } = reader
  await page.setViewportSize(DESKTOP)
  await page.goto('/comunidad')
  // '/' focuses the top bar's box from a community page.
  await page.keyboard.press('/')
  const box = page.getByRole('searchbox', { name: 'Buscar en la comunidad' })
  await expect(box).toBeFocused()
  await box.fill(
    `evaluacion ${word
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toUpperCase()}`,
  )
  await box.press('Enter')
  await expect(page).toHaveURL(/\/buscar\?q=/)

  const results = page.getByRole('list', { name: 'Resultados' })
  const result = results.getByRole('listitem').filter({ hasText: 'Comentario' })
  await expect(result).toHaveCount(1)
  await expect(result.locator('mark').first()).toHaveText(/evaluación/i)
  await expect(page.getByRole('link', { name: /Comentarios \(1\)/ })).toBeVisible()
  await expectNoAxeViolations(page, '/buscar')
  await screenshot(page, 'search-1280')
  await page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(page, '/buscar', MOBILE)
  await screenshot(page, 'search-390')

  await result.getByRole('link').click()
  await expect(page).toHaveURL(new RegExp(`/comunidad\\?comentarios=${postId}#comment-`))
  const comment = page.locator(`[id="${new URL(page.url()).hash.slice(1)}"]`)
  await expect(comment).toContainText(word)
  await expect(comment).toBeInViewport()

  // Nothing found: the hint, in Spanish.
  await page.goto('/buscar?q=%22nadaqueencontrar')
  await expect(page.getByText('Prueba con menos palabras o sin comillas')).toBeVisible()
  await expectNoAxeViolations(page, '/buscar sin resultados')
})
