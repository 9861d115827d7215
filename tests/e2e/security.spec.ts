import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { unzipSync } from 'fflate'
import { signOut, submitSignIn } from './support/accounts'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { expect, test } from './support/fixtures'
import { mailsTo, markMailLog, waitForMailLink } from './support/mail'
import { expectToast } from './support/ui'

// Issue 27 (first part): the devices signed in to an account, in /perfil's 'Seguridad' card.

test.use({ signedIn: 'complete' })

test("'Seguridad' lists this device, marked, and reads well at 390 and 1280 px", async ({ page }) => {
  await page.setViewportSize(DESKTOP)
  await page.goto('/perfil#seguridad')
  const card = page.locator('#seguridad')
  await expect(card.getByRole('heading', { name: 'Seguridad' })).toBeVisible()
  await expect(card.getByText('Este dispositivo')).toBeVisible()
  // The seeded session was not made by a browser (support/seed-members.mjs): no browser to name.
  await expect(card.getByText('Dispositivo desconocido')).toBeVisible()
  await expect(card.getByText(/Dirección aproximada 127\.0\.x\.x/)).toBeVisible()
  // Changing the address asks for the password; a wrong one is told in Spanish and the address typed stays.
  await page.getByLabel('Nuevo email').fill('nueva-direccion@example.com')
  await page.locator('form#change-email').getByLabel('Contraseña actual').fill('no-es-la-clave')
  await page.getByRole('button', { name: 'Cambiar email' }).click()
  await expect(page.getByText('La contraseña actual no es correcta')).toBeVisible()
  await expect(page.getByLabel('Nuevo email')).toHaveValue('nueva-direccion@example.com')
  await expectNoAxeViolations(page, '/perfil at 1280 px')
  await card.scrollIntoViewIfNeeded()
  await screenshot(page, 'security-1280', { fullPage: false })
  await page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(page, '/perfil', MOBILE)
  await card.scrollIntoViewIfNeeded()
  await screenshot(page, 'security-390', { fullPage: false })
})

test("a member downloads their data ('Descargar mis datos', a ZIP by e-mail), then deletes their account", async ({
  page,
  member,
  signedInAs,
}) => {
  // An admin gives them premium first: the export tells them, without naming the admin.
  const admin = await signedInAs('admin')
  await admin.page.goto(`/usuario/${member.id}`)
  await admin.page.getByRole('button', { name: 'Activar Premium' }).click()
  await expectToast(admin.page, 'Usuario promovido a premium')

  const mark = markMailLog()
  await page.goto('/perfil#tus-datos')
  await page.getByRole('button', { name: 'Descargar mis datos' }).click()
  await expectToast(page, 'Estamos preparando tus datos. Te enviaremos un email con el enlace de descarga en unos minutos.')
  const link = await waitForMailLink(member.email, 'Tus datos están listos para descargar', { after: mark })
  const download = await page.request.get(link)
  expect(download.status()).toBe(200)
  expect(download.headers()['content-type']).toBe('application/zip')
  const files = unzipSync(new Uint8Array(await download.body()))
  const json = new TextDecoder().decode(files['mis-datos.json'])
  const data = JSON.parse(json)
  expect(data.cuenta).toEqual([expect.objectContaining({ id: member.id, email: member.email, first_name: member.firstName })])
  expect(data.perfil).toEqual([expect.objectContaining({ last_name: member.lastName, is_premium: true, premium_source: 'admin' })])
  expect(data.registro_de_acciones).toEqual([expect.objectContaining({ action: 'premium_granted', details: { source: 'admin' } })])
  for (const theirs of [admin.id, admin.email, admin.name]) expect(json).not.toContain(theirs)
  // Asked again the same day: the card says when.
  await page.getByRole('button', { name: 'Descargar mis datos' }).click()
  await expect(page.locator('#tus-datos').getByText('Ya pediste tus datos hoy.', { exact: false })).toBeVisible()
  await expectNoAxeViolations(page, '/perfil, Tus datos')

  // 'Eliminar mi cuenta': a wrong password is told in Spanish and nothing goes; with theirs, the account goes.
  const deletion = page.locator('section', { has: page.getByRole('heading', { name: 'Eliminar mi cuenta' }) })
  await deletion.scrollIntoViewIfNeeded()
  await screenshot(page, 'delete-account-1280', { fullPage: false })
  await page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(page, '/perfil, Eliminar mi cuenta', MOBILE)
  await deletion.scrollIntoViewIfNeeded()
  await screenshot(page, 'delete-account-390', { fullPage: false })
  await expect(deletion.getByLabel(/Conservarlo como «Miembro eliminado»/)).toBeChecked()
  await deletion.getByLabel('Entiendo que no se puede deshacer').check()
  await deletion.getByLabel('Contraseña actual').fill('no-es-la-clave')
  await deletion.getByRole('button', { name: 'Eliminar mi cuenta' }).click()
  await expect(deletion.getByText('La contraseña actual no es correcta')).toBeVisible()
  await deletion.getByLabel('Entiendo que no se puede deshacer').check()
  await deletion.getByLabel('Contraseña actual').fill(member.password)
  const gone = markMailLog()
  await deletion.getByRole('button', { name: 'Eliminar mi cuenta' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expectToast(page, 'Tu cuenta se ha eliminado. Gracias por haber formado parte de la comunidad.')
  await expect
    .poll(() => mailsTo(member.email, gone).map((mail) => mail.subject), { timeout: 15_000 })
    .toContain('Tu cuenta se ha eliminado')
  // Signed out, and the password no longer opens anything.
  await page.goto('/perfil')
  await expect(page).toHaveURL(/\/auth/)
  await submitSignIn(page, member.email, member.password)
  await expect(page.locator('#sign-in-error')).toHaveText('Email o contraseña incorrectos')
})

test('two-factor sign-in: an admin turns it on from the profile with an authenticator code, then is asked for it after the password', async ({
  signedInAs,
}) => {
  test.setTimeout(90_000)
  const { page, ...member } = await signedInAs('admin', { viewport: DESKTOP })
  await page.goto('/perfil#seguridad')
  const card = page.locator('#seguridad')
  await card.locator('form#two-factor').getByLabel('Contraseña actual').fill(member.password)
  await card.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click()
  await expect(card.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' })).toBeVisible()
  await expect(card.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem')).toHaveCount(10)
  await expectNoAxeViolations(page, 'two-factor enrolment at 1280 px')
  await card.scrollIntoViewIfNeeded()
  await screenshot(page, 'two-factor-enrolment-1280', { fullPage: false })
  await page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(page, 'two-factor enrolment', MOBILE)
  await card.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' }).scrollIntoViewIfNeeded()
  await screenshot(page, 'two-factor-enrolment-390', { fullPage: false })

  // What the member's authenticator app computes from the key the page shows; each code works once,
  // so signing in takes the next period's (the server accepts one period either side of its own).
  const totpURI = await card.locator('input[name="totpURI"]').inputValue()
  const code = (periods = 0) =>
    createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!)).hotp(Math.floor(Date.now() / 30_000) + periods)
  await card.getByLabel('Código', { exact: true }).fill('000000')
  await card.getByRole('button', { name: 'Activar', exact: true }).click()
  await expect(card.getByText('El código no es correcto', { exact: false })).toBeVisible()
  await card.getByLabel('Código', { exact: true }).fill(await code())
  await card.getByRole('button', { name: 'Activar', exact: true }).click()
  await expectToast(page, 'Verificación en dos pasos activada')
  await expect(card.getByText('Activada', { exact: true })).toBeVisible()

  await page.setViewportSize(DESKTOP)
  await signOut(page)
  await page.goto('/auth')
  await submitSignIn(page, member.email, member.password)
  await expect(page).toHaveURL(/\/auth\?tab=codigo/)
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible()
  await expectNoAxeViolations(page, '/auth?tab=codigo')
  await page.getByLabel('Código', { exact: true }).fill(await code(1))
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expectToast(page, 'Sesión iniciada exitosamente')
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible()
  // Signed in with the code, the admin reaches the console.
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { name: 'Consola', level: 1 })).toBeVisible()
})

test('passkeys: one added from the profile (with the password) in Chromium’s virtual authenticator signs the member in without a password', async ({
  page,
  member,
}) => {
  // A platform authenticator with a fingerprint that always agrees, as a laptop's would.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  })
  await page.setViewportSize(DESKTOP)
  await page.goto('/perfil#seguridad')
  const keys = page.locator('section', { has: page.getByRole('heading', { name: 'Llaves de acceso' }) })
  // A device left signed in is not enough: the password first, and a wrong one is told in Spanish.
  await keys.getByLabel('Contraseña actual').fill('no-es-la-clave')
  await keys.getByRole('button', { name: 'Añadir una llave de acceso' }).click()
  await expect(keys.getByRole('alert')).toHaveText('La contraseña actual no es correcta')
  await expect(keys.getByRole('listitem')).toHaveCount(0)
  // By keyboard: the password typed, Enter adds the key.
  await keys.getByLabel('Contraseña actual').fill(member.password)
  await keys.getByLabel('Contraseña actual').press('Enter')
  await expectToast(page, 'Llave de acceso añadida')
  await expect(keys.getByRole('listitem')).toHaveCount(1)
  await expect(keys.getByRole('button', { name: /^Eliminar la llave/ })).toBeVisible()
  await expect(keys.getByLabel('Contraseña actual')).toHaveValue('')
  // The same authenticator again: the browser refuses a second passkey for the account, and says why.
  await keys.getByLabel('Contraseña actual').fill(member.password)
  await keys.getByRole('button', { name: 'Añadir una llave de acceso' }).click()
  await expect(keys.getByRole('alert')).toHaveText('Esta llave de acceso ya está en tu cuenta.')
  await expectNoAxeViolations(page, '/perfil, Llaves de acceso')
  await keys.scrollIntoViewIfNeeded()
  await screenshot(page, 'passkeys-1280', { fullPage: false })
  await page.setViewportSize(MOBILE)
  await expectNoHorizontalOverflow(page, '/perfil, Llaves de acceso', MOBILE)
  await keys.scrollIntoViewIfNeeded()
  await screenshot(page, 'passkeys-390', { fullPage: false })

  await page.setViewportSize(DESKTOP)
  await signOut(page)
  await page.goto('/auth?redirectTo=%2Fperfil')
  await page.getByRole('button', { name: 'Entrar con una llave de acceso' }).click()
  await expectToast(page, 'Sesión iniciada exitosamente')
  await expect(page).toHaveURL(/\/perfil$/)
  await expect(page.getByRole('heading', { name: 'Mi Perfil' })).toBeVisible()

  // Removed, it no longer signs anyone in.
  await keys.getByRole('button', { name: /^Eliminar la llave/ }).click()
  await expectToast(page, 'Llave de acceso eliminada')
  await signOut(page)
  await page.goto('/auth')
  await page.getByRole('button', { name: 'Entrar con una llave de acceso' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Esta llave de acceso no corresponde a ninguna cuenta' })).toBeVisible()
})
