import { expect, test } from './support/fixtures'

// A part whose code loads when first used (ui/lazy-part.tsx) and whose load failed (the network
// dropped that one file): it says so in place, and 'Reintentar' loads it, in the same page.

test("a part whose code failed to load comes with 'Reintentar', which loads it without reloading the page", async ({ signedInAs }) => {
  const { page } = await signedInAs('premium')
  const requests: string[] = []
  await page.route(/\/assets\/create-post-form-[\w-]+\.js$/, (route) => {
    requests.push(route.request().url())
    return requests.length === 1 ? route.abort('internetdisconnected') : route.continue()
  })
  await page.goto('/comunidad')
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await page.evaluate(() => Object.assign(window, { samePage: true }))

  await page.getByRole('link', { name: 'Nuevo Post' }).click()
  const dialog = page.getByRole('dialog', { name: 'Crear post' })
  await expect(dialog.getByRole('alert')).toHaveText(/No se pudo cargar esta parte de la página/)
  await dialog.getByRole('button', { name: 'Reintentar' }).click()
  await expect(dialog.getByLabel('Título')).toBeVisible()
  expect(requests).toHaveLength(2)
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
})
