import { type Page } from '@playwright/test'
import { newAccount, signIn, signOut, signUp, submitSignIn, submitSignUp } from './support/accounts'
import { expect, test } from './support/fixtures'
import { mailsTo, markMailLog, readMailLog, waitForMailLink } from './support/mail'
import { expectFieldError, expectToast, pathOf } from './support/ui'

// The links point at the server under test, whichever port it was given (E2E_PORT).
const APP = process.env.E2E_BASE_URL!
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true })
const formAlert = (page: Page, formId: string) => page.locator(`form#${formId} > [role="alert"]`)

/** Asks for a reset link on /forgot-password and returns the link from the server log. */
async function requestResetLink(page: Page, email: string) {
  const mark = markMailLog()
  await page.goto('/forgot-password')
  await expect(page.getByText('Recuperar contraseña', { exact: true })).toBeVisible()
  await field(page, 'Email').fill(email)
  await page.getByRole('button', { name: 'Enviar email de recuperación' }).click()
  await expect(page).toHaveURL(/\/auth$/)
  await expectToast(page, 'Email de recuperación enviado. Revisa tu bandeja de entrada.')
  return waitForMailLink(email, 'Restablece tu contraseña', { after: mark })
}

async function resetPasswordWith(page: Page, link: string, password: string) {
  await page.goto(link)
  await field(page, 'Nueva contraseña').fill(password)
  await field(page, 'Confirmar contraseña').fill(password)
  await page.getByRole('button', { name: 'Actualizar contraseña' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expectToast(page, 'Contraseña actualizada correctamente')
}

/**
 * Holds the page's form posts (React Router's `*.data` requests) for a moment, so the
 * pending state of a submit button can be seen; releaseFormPosts lets them through.
 */
async function holdFormPosts(page: Page, ms = 1_500) {
  await page.route(/\.data(\?|$)/, async (route) => {
    if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, ms))
    await route.fallback()
  })
}

async function releaseFormPosts(page: Page) {
  await page.unrouteAll({ behavior: 'wait' })
}

test.describe('Cuenta: del registro a la nueva contraseña', () => {
  test('registro, confirmación, sesión y recuperación de contraseña', async ({ page }) => {
    test.setTimeout(150_000)
    const account = newAccount('journey', { firstName: 'Lucía', lastName: 'Viaje' })
    const newPassword = 'Otra-clave-2026'

    await test.step('el formulario de registro valida en línea', async () => {
      await page.goto('/')
      await page.getByRole('banner').getByRole('link', { name: 'Registrarse' }).click()
      await expect(page).toHaveURL(/\/auth\?tab=registro$/)
      await expect(page.getByRole('link', { name: 'Registrarse', exact: true }).and(page.locator('[aria-current="page"]'))).toHaveCount(1)
      await expect(page.getByRole('navigation', { name: 'Acceso' }).getByRole('link', { name: 'Iniciar Sesión' })).not.toHaveAttribute(
        'aria-current',
        'page',
      )

      // Sending the empty form: every required field says what is missing.
      await page.getByRole('button', { name: 'Registrarse', exact: true }).click()
      await expectFieldError(field(page, 'Nombre'), 'El nombre es requerido')
      await expectFieldError(field(page, 'Apellido'), 'El apellido es requerido')
      await expectFieldError(field(page, 'Email'), 'Por favor ingresa un email válido')
      await expectFieldError(field(page, 'Contraseña'), 'La contraseña es requerida')

      await field(page, 'Nombre').fill('N'.repeat(60))
      await field(page, 'Email').fill('lucia@')
      await field(page, 'Contraseña').fill('corta')
      await field(page, 'Confirmar contraseña').fill('distinta')
      await field(page, 'Confirmar contraseña').blur()
      // The field takes at most 50 characters.
      await expect(field(page, 'Nombre')).toHaveValue('N'.repeat(50))
      await expectFieldError(field(page, 'Email'), 'Por favor ingresa un email válido')
      await expectFieldError(field(page, 'Contraseña'), 'La contraseña debe tener al menos 8 caracteres')

      // With the other fields right, the confirmation must match the password.
      await field(page, 'Nombre').fill(account.firstName)
      await field(page, 'Apellido').fill(account.lastName)
      await field(page, 'Email').fill(account.email)
      await field(page, 'Contraseña').fill(account.password)
      await field(page, 'Confirmar contraseña').fill(`${account.password}-otra`)
      await expectFieldError(field(page, 'Confirmar contraseña'), 'Las contraseñas no coinciden')
      await field(page, 'Confirmar contraseña').fill(account.password)
      await expect(field(page, 'Confirmar contraseña')).not.toHaveAttribute('aria-invalid', 'true')
      // Nothing was sent: still on the sign-up form.
      await expect(page).toHaveURL(/\/auth\?tab=registro$/)
    })

    let mark = 0
    await test.step('el registro pide confirmar el email', async () => {
      mark = markMailLog()
      await holdFormPosts(page)
      await submitSignUp(page, account)
      // While the server works, the button says so and cannot be pressed twice.
      await expect(page.getByRole('button', { name: 'Registrando...' })).toBeDisabled()
      await releaseFormPosts(page)
      await expectToast(page, 'Cuenta creada exitosamente. Revisa tu email para confirmar tu cuenta.')
      // The sign-in form opens with the e-mail filled in.
      await expect(page.locator('form#sign-in')).toBeVisible()
      await expect(page.getByRole('navigation', { name: 'Acceso' }).getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute(
        'aria-current',
        'page',
      )
      await expect(field(page, 'Email')).toHaveValue(account.email)
    })

    await test.step('el enlace de confirmación inicia sesión y lleva al perfil', async () => {
      const link = await waitForMailLink(account.email, 'Confirma tu email', { after: mark })
      expect(link).toMatch(new RegExp(`^${APP}/api/auth/verify-email\\?token=[^&]+`))
      await page.goto(link)
      await expect(page).toHaveURL(/\/perfil(\?|$)/)
      await expect(page.getByRole('heading', { level: 1, name: 'Mi Perfil' })).toBeVisible()
      const card = page.getByRole('region', { name: 'Perfil Incompleto' })
      await expect(card).toBeVisible()
      await expect(card).toContainText('2/5 completado')
      const items = card.getByRole('listitem')
      await expect(items).toHaveCount(5)
      for (const [index, label] of ['Foto profesional', 'Nombre', 'Apellido', 'Empresa actual', 'Cargo'].entries()) {
        await expect(items.nth(index)).toContainText(label)
      }
      // First and last name come from the sign-up; the other three are pending.
      await expect(items.filter({ hasText: '(completado)' })).toHaveCount(2)
      await expect(items.filter({ hasText: 'Nombre' })).toContainText('(completado)')
      await expect(items.filter({ hasText: 'Apellido' })).toContainText('(completado)')
      await expect(page.getByText(account.email).first()).toBeVisible()
      // The top bar shows the signed-in member: avatar with the name's first letter.
      await expect(page.getByRole('button', { name: 'Menú de usuario' })).toHaveText(account.firstName.charAt(0))
      await expect(page.getByRole('banner').getByRole('link', { name: 'Iniciar Sesión' })).toHaveCount(0)
    })

    await test.step('el email de bienvenida lleva al perfil', async () => {
      const welcome = await waitForMailLink(account.email, '¡Bienvenido a la comunidad!', { after: mark })
      expect(welcome).toBe(`${APP}/perfil`)
    })

    await test.step('cerrar sesión', async () => {
      await signOut(page)
      await expect(page.getByRole('banner').getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()
    })

    await test.step('una contraseña equivocada se rechaza', async () => {
      await page.getByRole('banner').getByRole('link', { name: 'Iniciar Sesión' }).click()
      await expect(page).toHaveURL(/\/auth$/)
      await holdFormPosts(page)
      await submitSignIn(page, account.email, 'No-es-la-clave-1')
      await expect(page.getByRole('button', { name: 'Iniciando...' })).toBeDisabled()
      await releaseFormPosts(page)
      await expect(formAlert(page, 'sign-in')).toHaveText('Email o contraseña incorrectos')
      await expect(page).toHaveURL(/\/auth$/)
      await expect(page.getByRole('button', { name: 'Menú de usuario' })).toHaveCount(0)
    })

    await test.step('iniciar sesión', async () => {
      await submitSignIn(page, account.email, account.password)
      await expectToast(page, 'Sesión iniciada exitosamente')
      // Home of a member is /comunidad, which sends an incomplete profile to /perfil.
      await expect(page).toHaveURL(/\/perfil(\?|$)/)
      await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible()
    })

    await test.step('con sesión, /auth redirige fuera', async () => {
      const response = await page.goto('/auth')
      expect(response?.ok()).toBe(true)
      await expect(page).toHaveURL(/\/perfil(\?|$)/)
      await page.goto('/auth?tab=registro')
      await expect(page).toHaveURL(/\/perfil(\?|$)/)
    })

    await test.step('cerrar sesión otra vez', async () => {
      await signOut(page)
    })

    await test.step('el formulario de recuperación valida y envía el enlace', async () => {
      await page.goto('/auth')
      await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click()
      await expect(page).toHaveURL(/\/auth\?tab=recuperar$/)
      await expect(page.getByText('Recuperar contraseña', { exact: true })).toBeVisible()
      const submit = page.getByRole('button', { name: 'Enviar email de recuperación' })
      await submit.click()
      await expectFieldError(field(page, 'Email'), 'Por favor ingresa tu email')
      await field(page, 'Email').fill('no-es-un-email')
      await expectFieldError(field(page, 'Email'), 'Por favor ingresa un email válido')
      await expect(page).toHaveURL(/\/auth\?tab=recuperar$/)

      mark = markMailLog()
      await field(page, 'Email').fill(account.email)
      await submit.click()
      await expect(page).toHaveURL(/\/auth$/)
      await expectToast(page, 'Email de recuperación enviado. Revisa tu bandeja de entrada.')
    })

    await test.step('el formulario de nueva contraseña valida', async () => {
      const link = await waitForMailLink(account.email, 'Restablece tu contraseña', { after: mark })
      expect(link).toMatch(new RegExp(`^${APP}/reset-password\\?type=recovery&token=[^&]+$`))
      await page.goto(link)
      await expect(page.getByText('Nueva contraseña', { exact: true }).first()).toBeVisible()
      const submit = page.getByRole('button', { name: 'Actualizar contraseña' })
      await submit.click()
      await expectFieldError(field(page, 'Nueva contraseña'), 'Por favor completa todos los campos')
      await expectFieldError(field(page, 'Confirmar contraseña'), 'Por favor completa todos los campos')

      await field(page, 'Nueva contraseña').fill('abc')
      await field(page, 'Confirmar contraseña').fill('abc')
      await submit.click()
      await expectFieldError(field(page, 'Nueva contraseña'), 'La contraseña debe tener al menos 6 caracteres')

      await field(page, 'Nueva contraseña').fill(newPassword)
      await field(page, 'Confirmar contraseña').fill(`${newPassword}x`)
      await submit.click()
      await expectFieldError(field(page, 'Confirmar contraseña'), 'Las contraseñas no coinciden')
      expect(pathOf(page)).toMatch(/^\/reset-password\?/)

      await field(page, 'Confirmar contraseña').fill(newPassword)
      await submit.click()
      await expect(page).toHaveURL(/\/$/)
      await expectToast(page, 'Contraseña actualizada correctamente')
    })

    await test.step('la contraseña antigua ya no sirve y la nueva sí', async () => {
      await page.goto('/auth')
      await submitSignIn(page, account.email, account.password)
      await expect(formAlert(page, 'sign-in')).toHaveText('Email o contraseña incorrectos')
      await signIn(page, account.email, newPassword, { navigate: false })
      await expect(page).toHaveURL(/\/perfil(\?|$)/)
    })
  })

  test('registro repetido e inicio de sesión sin confirmar', async ({ page }) => {
    const account = newAccount('unconfirmed')
    await signUp(page, account)

    let mark = 0
    await test.step('sin confirmar no se puede iniciar sesión', async () => {
      // signUp left the sign-in form open with the e-mail filled in.
      mark = markMailLog()
      await field(page, 'Contraseña').fill(account.password)
      await page.locator('form#sign-in').getByRole('button', { name: 'Iniciar Sesión' }).click()
      await expect(formAlert(page, 'sign-in')).toHaveText('Por favor confirma tu email antes de iniciar sesión')
      await expect(page.getByRole('button', { name: 'Menú de usuario' })).toHaveCount(0)
    })

    await test.step('registrarse otra vez con el mismo email', async () => {
      await page.goto('/auth?tab=registro')
      await submitSignUp(page, { ...account, firstName: 'Otra', password: 'Otra-clave-distinta-1' })
      await expectToast(page, 'Ya existe una cuenta con este email')
      await expect(page.locator('form#sign-in')).toBeVisible()
      await expect(field(page, 'Email')).toHaveValue(account.email)
      await expect(page.getByRole('navigation', { name: 'Acceso' }).getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute(
        'aria-current',
        'page',
      )
    })

    await test.step('el email de confirmación reenviado al intentar entrar también lleva al perfil', async () => {
      // Signing in unconfirmed sends a fresh confirmation e-mail; it must work like the first one.
      const link = await waitForMailLink(account.email, 'Confirma tu email', { after: mark })
      await page.goto(link)
      await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible()
      await expect(page).toHaveURL(/\/perfil(\?|$)/)
    })
  })

  test('restablecer la contraseña cierra las demás sesiones', async ({ pageAs, signedInAs }) => {
    test.setTimeout(120_000)
    // Session 1: this page, signed in by its seeded session.
    const { page, ...account } = await signedInAs('member')
    await page.goto('/perfil')
    await expect(page).toHaveURL(/\/perfil$/)

    // Session 2: another browser, signed in with the form.
    const secondPage = await pageAs(null)
    await signIn(secondPage, account.email, account.password)
    await secondPage.goto('/perfil')
    await expect(secondPage).toHaveURL(/\/perfil$/)

    // The reset, from a third browser without a session.
    const resetPage = await pageAs(null)
    const link = await requestResetLink(resetPage, account.email)
    await resetPasswordWith(resetPage, link, 'Clave-tras-reset-9')

    for (const signedOut of [page, secondPage]) {
      await signedOut.goto('/perfil')
      await expect(signedOut).toHaveURL(/\/auth\?redirectTo=%2Fperfil$/)
      await expect(signedOut.getByRole('button', { name: 'Menú de usuario' })).toHaveCount(0)
    }
  })

  test('/forgot-password valida y responde igual para un email desconocido', async ({ page, member }) => {
    await page.goto('/forgot-password')
    await expect(page.getByText('Recuperar contraseña', { exact: true })).toBeVisible()
    const submit = page.getByRole('button', { name: 'Enviar email de recuperación' })
    await submit.click()
    await expectFieldError(field(page, 'Email'), 'Por favor ingresa tu email')
    await field(page, 'Email').fill('sin-arroba.example.com')
    await submit.click()
    await expectFieldError(field(page, 'Email'), 'Por favor ingresa un email válido')
    await expect(page).toHaveURL(/\/forgot-password$/)

    const unknown = `e2e-${Date.now()}-nadie@example.com`
    const mark = markMailLog()
    await field(page, 'Email').fill(unknown)
    await submit.click()
    await expect(page).toHaveURL(/\/auth$/)
    await expectToast(page, 'Email de recuperación enviado. Revisa tu bandeja de entrada.')
    // ...and nothing is sent to an address without an account. The control: a reset for an account,
    // asked for afterwards. The worker runs jobs one at a time in the order they were queued, so
    // once its e-mail is in the log, any e-mail of the first request would be there before it.
    await requestResetLink(page, member.email)
    expect(mailsTo(unknown, mark), 'e-mails to the unknown address').toEqual([])
    expect(readMailLog({ after: mark }).filter((entry) => entry.to === unknown.toLowerCase())).toEqual([])
  })

  test.describe('enlaces de recuperación no válidos', () => {
    for (const { path, message } of [
      { path: '/reset-password?type=signup&token=x', message: 'Enlace de recuperación inválido' },
      { path: '/reset-password', message: 'Enlace de recuperación inválido' },
      { path: '/reset-password?type=recovery', message: 'Enlace de recuperación inválido' },
      // The link's own words never reach the page: only the fixed message of a known code.
      { path: '/reset-password?error=access_denied&error_description=Enlace+caducado', message: 'Enlace de recuperación inválido' },
      {
        path: '/reset-password?error=INVALID_TOKEN&error_description=Llama+al+900',
        message: 'El enlace de recuperación no es válido o ha caducado',
      },
    ]) {
      test(`${path} lleva a /auth con "${message}"`, async ({ page }) => {
        await page.goto(path)
        await expect(page).toHaveURL(/\/auth$/)
        await expectToast(page, message)
        await expect(page.locator('form#sign-in')).toBeVisible()
      })
    }
  })
})
