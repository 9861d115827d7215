import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { commentsOf, createPost, feedAction, POST_CARD, postCard, uniqueTitle } from './support/community'
import { expect, newMember, test } from './support/fixtures'
import { expectToast, liveStreamOpen } from './support/ui'

// The feed's pages (issue 38): 10 posts with the page, the next 10 appended when the member
// reaches the end or follows 'Cargar más'; appended posts work as the first ten; without
// JavaScript 'Cargar más' is a link to the next page.
test.describe.configure({ timeout: 120_000 })

test('the next posts come on reaching the end and with “Cargar más”; an appended post is liked and commented, live', async ({
  signedInAs,
}) => {
  const [bruno, ana, carla] = [await signedInAs('premium'), await signedInAs('premium'), await signedInAs('premium')]
  const title = uniqueTitle('Una consulta que ya no está arriba')
  const write = (author: typeof ana, title: string) => feedAction(author.page, { intent: 'create-post', postType: 'text', title })
  // Ten older posts, Bruno's, and fourteen newer: his is the fifteenth, among the second ten.
  for (let n = 1; n <= 10; n++) await write(bruno, uniqueTitle(`Anterior ${n}`))
  const postId = await createPost(bruno.page, title)
  for (let n = 1; n <= 14; n++) await write(ana, uniqueTitle(`Posterior ${n}`))

  const page = carla.page
  await page.goto('/comunidad')
  const post = postCard(page, title)
  const more = page.getByRole('link', { name: 'Cargar más' })
  await expect(page.locator(POST_CARD)).toHaveCount(10)
  await expect(post).toHaveCount(0)
  await expect(more).toHaveAttribute('href', /^\/comunidad\?cursor=/)
  await expectNoAxeViolations(page, '/comunidad, first page')

  // Reaching the end: the next ten are appended, the page stays where it was, a status says so.
  await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }))
  const scrolled = await page.evaluate(() => window.scrollY)
  await expect(page.locator(POST_CARD)).toHaveCount(20)
  await expect(page.getByRole('status').filter({ hasText: '10 publicaciones más cargadas' })).toBeAttached()
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(5)
  await expect(post).toBeVisible()

  // The keyboard: 'Cargar más' appends the next ones and keeps the focus.
  await more.focus()
  await page.keyboard.press('Enter')
  await expect.poll(() => page.locator(POST_CARD).count()).toBeGreaterThan(20)
  // On the link while there are more; on the line that replaces it after the last page.
  await expect(more.or(page.getByText('No hay más publicaciones'))).toBeFocused()
  const ids = await page.locator(POST_CARD).evaluateAll((cards) => cards.map((card) => card.id))
  expect(new Set(ids).size).toBe(ids.length)
  await expectNoAxeViolations(page, '/comunidad, three pages')

  // An appended post: a like, a comment, and another member's like arriving live.
  await liveStreamOpen(page)
  await post.getByRole('button', { name: 'Me gusta' }).click()
  await expect(post.getByRole('button', { name: '1 Quitar me gusta' })).toHaveAttribute('aria-pressed', 'true')
  await post.getByRole('button', { name: '0 comentarios', exact: true }).click()
  await post.getByLabel('Escribe un comentario').fill('Me pasó lo mismo el año pasado.')
  // The comment reloads the first page, then the appended ones ('cantidad'): a live count that
  // arrives before that second answer is replaced by the answer's older one, so Ana likes after it.
  // The like's own reload may still be on its way: the one waited for is sent after the comment's answer.
  const commented = page.waitForResponse((response) => /add-comment/.test(response.request().postData() ?? ''))
  const reloadsSent: number[] = []
  page.on('response', (response) => {
    if (/\/comunidad\/publicaciones\.data\?.*cantidad=/.test(response.url())) reloadsSent.push(response.request().timing().startTime)
  })
  await post.getByRole('button', { name: 'Comentar', exact: true }).click()
  const answered = await commented.then((response) => response.request().timing())
  await expectToast(page, 'Comentario añadido')
  await expect.poll(() => reloadsSent.some((sentAt) => sentAt > answered.startTime + answered.responseEnd)).toBe(true)
  await expect(post.getByRole('button', { name: '1 comentario', exact: true })).toBeVisible()
  await feedAction(ana.page, { intent: 'like-post', postId })
  await expect(post.getByRole('button', { name: '2 Quitar me gusta' })).toBeVisible({ timeout: 15_000 })
  // The action reloaded the first page and the appended ones with it: none went away.
  expect(await page.locator(POST_CARD).count()).toBeGreaterThanOrEqual(ids.length)

  // A notification's link to a post beyond the first page opens it, first, with its comments.
  await bruno.page.goto(commentsOf(postId))
  await expect(bruno.page.locator(POST_CARD).first()).toHaveId(`post-${postId}`)
  await expect(postCard(bruno.page, title).getByRole('list', { name: 'Comentarios' })).toContainText('Me pasó lo mismo el año pasado.')
})

test('without JavaScript “Cargar más” is a link to the next ten posts', async ({ signedInAs, pageAs }) => {
  const ana = await signedInAs('premium')
  const titles = Array.from({ length: 12 }, (_, n) => uniqueTitle(`Sin JavaScript ${n + 1}`))
  for (const title of titles) await feedAction(ana.page, { intent: 'create-post', postType: 'text', title })
  const page = await pageAs(await newMember('premium'), { javaScriptEnabled: false })
  await page.goto('/comunidad')
  await expect(page.locator(POST_CARD)).toHaveCount(10)
  // The oldest two of the twelve are on the next page.
  await expect(postCard(page, titles[1]!)).toHaveCount(0)
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport)
    await page.getByRole('link', { name: 'Cargar más' }).scrollIntoViewIfNeeded()
    await screenshot(page, `feed-load-more-${viewport.width}`, { fullPage: false })
    await expectNoHorizontalOverflow(page, "/comunidad with 'Cargar más'", viewport)
  }
  const firstIds = await page.locator(POST_CARD).evaluateAll((cards) => cards.map((card) => card.id))
  await page.getByRole('link', { name: 'Cargar más' }).click()
  await expect(page).toHaveURL(/\/comunidad\?cursor=/)
  await expect(postCard(page, titles[1]!)).toBeVisible()
  await expect(postCard(page, titles[0]!)).toBeVisible()
  const nextIds = await page.locator(POST_CARD).evaluateAll((cards) => cards.map((card) => card.id))
  expect(nextIds.filter((id) => firstIds.includes(id))).toEqual([])
})
