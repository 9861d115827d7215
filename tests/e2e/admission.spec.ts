import type { Page } from '@playwright/test'
import { DESKTOP, expectNoAxeViolations, expectNoHorizontalOverflow, MOBILE, screenshot } from './support/checks'
import { newAccount } from './support/accounts'
import { expect, test } from './support/fixtures'
import { mailsTo, markMailLog, waitForMailLink } from './support/mail'
import { expectToast } from './support/ui'

// Issue 26: admission inside the product, from the landing's button to a paying member.

/** Fills the rest of /admision (name, surname and what the test types itself aside) and ticks the consent. */
async function fillApplication(page: Page, answers: { email: string; linkedin: string; sector: string }) {
  await page.getByLabel('Email').fill(answers.email)
  await page.getByLabel('Perfil de LinkedIn').fill(answers.linkedin)
  await page.getByLabel('Empresa').fill('Biofarma Ibérica')
  await page.getByLabel('Cargo actual').fill('Directora de operaciones')
  await page.getByLabel('Sector').selectOption({ label: answers.sector })
  await page.getByLabel('Años de experiencia').fill('15')
  await page.getByLabel('Puesto al que aspiras').fill('CEO')
  await page.getByLabel('¿Qué aportarías a la comunidad?').fill('Quince años llevando plantas de biológicos.')
  await page.getByLabel('¿Qué esperas de la comunidad?').fill('Conversaciones francas con quien ya ha llegado.')
  await page.getByRole('checkbox', { name: /política de privacidad/ }).check()
}

test('a visitor applies, an admin approves from the queue, the applicant follows the invitation, signs up, pays and is premium', async ({
  page,
  signedInAs,
}) => {
  test.setTimeout(180_000)
  const applicant = newAccount('candidata', { firstName: 'Lucía', lastName: `Admitida${Date.now()}` })
  const mark = markMailLog()

  // The landing's button leads to the form, in the same tab.
  await page.setViewportSize(DESKTOP)
  await page.goto('/')
  await page
    .locator('section')
    .first()
    .getByRole('link', { name: /^Solicitar admisión/ })
    .click()
  await expect(page).toHaveURL(/\/admision$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitar admisión' })).toBeVisible()

  // Sent incomplete, the server names what is missing and keeps what was typed.
  await page.getByLabel('Nombre', { exact: true }).fill(applicant.firstName)
  await page.getByLabel('Perfil de LinkedIn').fill('https://example.com/no-es-linkedin')
  await page.getByRole('button', { name: 'Enviar solicitud' }).click()
  await expect(page.getByText('El apellido es requerido')).toBeVisible()
  await expect(page.getByText('Indica la dirección de tu perfil de LinkedIn (https://www.linkedin.com/in/…)')).toBeVisible()
  await expect(page.getByText('Debes aceptar la política de privacidad para enviar tu solicitud')).toBeVisible()
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue(applicant.firstName)

  await page.getByLabel('Apellidos').fill(applicant.lastName)
  await fillApplication(page, { email: applicant.email, linkedin: 'https://www.linkedin.com/in/lucia-admitida', sector: 'Biotech' })
  await expectNoAxeViolations(page, '/admision at 1280 px')
  await screenshot(page, 'admission-form-1280')
  await page.getByRole('button', { name: 'Enviar solicitud' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitud recibida' })).toBeVisible()
  await expectNoAxeViolations(page, 'Solicitud recibida')

  // The e-mail brings the private status link.
  await waitForMailLink(applicant.email, 'Hemos recibido tu solicitud de admisión', { after: mark })
  const received = mailsTo(applicant.email, mark).find((mail) => mail.subject === 'Hemos recibido tu solicitud de admisión')!
  // Its links: the status page, and the LinkedIn profile among what was sent.
  await page.goto(received.links.find((link) => link.includes('/admision/estado/'))!)
  await expect(page.getByText('En revisión')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Retirar mi solicitud' })).toBeVisible()
  await expectNoHorizontalOverflow(page, 'status page', MOBILE)
  await expectNoAxeViolations(page, 'status page at 390 px')

  // The applicant changes it from there: the form with the answers as sent, the e-mail fixed.
  await page.getByRole('link', { name: 'Cambiar mi solicitud' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Cambiar mi solicitud' })).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '')
  await expect(page.getByLabel('Empresa', { exact: true })).toHaveValue('Biofarma Ibérica')
  await page.getByLabel('Cargo actual').fill('Directora general')
  await page.getByRole('checkbox', { name: /política de privacidad/ }).check()
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitud recibida' })).toBeVisible()
  await waitForMailLink(applicant.email, 'Hemos actualizado tu solicitud de admisión', { after: mark })

  // The admin finds it in the queue and approves it.
  const admin = await signedInAs('admin')
  await admin.page.setViewportSize(DESKTOP)
  await admin.page.goto('/admin')
  await admin.page.getByRole('link', { name: 'Admisiones' }).click()
  await admin.page.getByLabel('Buscar por nombre, email o empresa').fill(applicant.lastName)
  await admin.page.getByRole('button', { name: 'Aplicar' }).click()
  await expect(admin.page.getByText('1 solicitud', { exact: true })).toBeVisible()
  await expectNoAxeViolations(admin.page, '/admin/admisiones at 1280 px')
  await screenshot(admin.page, 'admission-queue-1280')
  await expectNoHorizontalOverflow(admin.page, '/admin/admisiones', MOBILE)
  await expectNoAxeViolations(admin.page, '/admin/admisiones at 390 px')
  await screenshot(admin.page, 'admission-queue-390')
  await admin.page.getByRole('link', { name: `${applicant.firstName} ${applicant.lastName}` }).click()
  await expect(admin.page.getByText('Quince años llevando plantas de biológicos.')).toBeVisible()
  await expect(admin.page.getByText('Este email aún no tiene cuenta.')).toBeVisible()
  await expectNoHorizontalOverflow(admin.page, 'application page', MOBILE)
  await expectNoAxeViolations(admin.page, 'application page at 390 px')
  await screenshot(admin.page, 'admission-application-390')
  await admin.page.setViewportSize(DESKTOP)
  await admin.page.getByRole('button', { name: 'Aprobar' }).click()
  await expect(admin.page.getByRole('status').filter({ hasText: 'Solicitud aprobada: invitación enviada' })).toBeVisible()
  await expect(admin.page.getByText('Esta solicitud está cerrada: aprobada.')).toBeVisible()
  await screenshot(admin.page, 'admission-application-1280')

  // The invitation opens sign-up with the e-mail fixed; confirming leads back to it, signed in.
  const invitation = await waitForMailLink(applicant.email, 'Tu admisión en Círculo CEO está aprobada', { after: mark })
  await page.goto(invitation)
  await page.getByRole('link', { name: 'Crear mi cuenta' }).click()
  const email = page.getByLabel('Email', { exact: true })
  await expect(email).toHaveValue(applicant.email)
  await expect(email).toHaveAttribute('readonly', '')
  await page.getByLabel('Nombre', { exact: true }).fill(applicant.firstName)
  await page.getByLabel('Apellido', { exact: true }).fill(applicant.lastName)
  await page.getByLabel('Contraseña', { exact: true }).fill(applicant.password)
  await page.getByLabel('Confirmar contraseña', { exact: true }).fill(applicant.password)
  await page.getByRole('button', { name: 'Registrarse', exact: true }).click()
  await expectToast(page, 'Cuenta creada exitosamente. Revisa tu email para confirmar tu cuenta.')
  await page.goto(await waitForMailLink(applicant.email, 'Confirma tu email', { after: mark }))
  await expect(page).toHaveURL(/\/admision\/invitacion\//)
  await expect(page.getByRole('heading', { level: 1, name: `Bienvenido, ${applicant.firstName}` })).toBeVisible()
  await expectNoAxeViolations(page, 'invitation page')

  // Chooses a plan, pays with the local test checkout and is premium.
  await page.getByRole('link', { name: 'Elegir mi plan' }).click()
  await page.getByRole('button', { name: 'Hazte miembro' }).click()
  await expect(page).toHaveURL(/\/billing\/test-checkout\?session=test_cs_/)
  await page.getByRole('button', { name: 'Pagar (simulado)' }).click()
  await expect(page).toHaveURL(/\/success$/)
  await expect(page).toHaveURL(/\/perfil$/, { timeout: 10_000 })
  await expect(page.getByText('Premium', { exact: true }).first()).toBeVisible()

  // The history names the invitation as used.
  await admin.page.reload()
  await expect(admin.page.getByText('Invitación usada: cuenta vinculada')).toBeVisible()
})

test('without JavaScript the form is sent and answered; it fits a phone', async ({ pageAs }) => {
  const page = await pageAs(null, { javaScriptEnabled: false, viewport: MOBILE })
  const applicant = newAccount('sin-js')
  await page.goto('/admision')
  await expectNoHorizontalOverflow(page, '/admision', MOBILE)
  await screenshot(page, 'admission-form-390')
  await page.getByLabel('Nombre', { exact: true }).fill(applicant.firstName)
  await page.getByLabel('Apellidos').fill('Sin Script')
  await fillApplication(page, { email: applicant.email, linkedin: 'https://www.linkedin.com/in/sin-script', sector: 'Diagnóstico' })
  await page.getByRole('button', { name: 'Enviar solicitud' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitud recibida' })).toBeVisible()

  // The same e-mail again, without the private link: the open application is not touched.
  const mark = markMailLog()
  await page.goto('/admision')
  await page.getByLabel('Nombre', { exact: true }).fill('Otra')
  await page.getByLabel('Apellidos').fill('Persona')
  await fillApplication(page, { email: applicant.email, linkedin: 'https://www.linkedin.com/in/otra-persona', sector: 'Otro' })
  await page.getByRole('button', { name: 'Enviar solicitud' }).click()
  await expect(page.getByText('Ya hay una solicitud abierta con este email.', { exact: false })).toBeVisible()
  await waitForMailLink(applicant.email, 'Tu enlace para ver o cambiar tu solicitud de admisión', { after: mark })
})

test('the form at 390 px passes axe, and a signed-in member finds their details filled in', async ({ pageAs, signedInAs }) => {
  const visitor = await pageAs(null, { viewport: MOBILE })
  await visitor.goto('/admision')
  await expectNoAxeViolations(visitor, '/admision at 390 px')
  const member = await signedInAs('complete')
  await member.page.goto('/perfil')
  await member.page.getByRole('link', { name: /Solicitar admisión/ }).click()
  await expect(member.page).toHaveURL(/\/admision$/)
  await expect(member.page.getByLabel('Email', { exact: true })).toHaveValue(member.email)
  await expect(member.page.getByLabel('Empresa', { exact: true })).toHaveValue(member.company!)
})
