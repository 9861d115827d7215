import { and, count, eq, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { auditLog } from '~/platform/audit/schema'
import { REQUEST_MESSAGES } from '~/platform/http/responses.server'
import { jobs } from '~/platform/jobs/schema'
import * as root from '~/root'
import { profiles } from './schema'
import { user, verification } from '~/platform/auth/schema'
import * as authRoute from './auth.route'
import * as authApiRoute from './auth-api.route'
import * as forgotRoute from './forgot-password.route'
import * as logoutRoute from './logout.route'
import * as perfilRoute from './profile.route'
import * as resetRoute from './reset-password.route'
import { useTestDatabase } from '../../../tests/setup/database'
import {
  BASE_URL,
  cookiesFrom,
  createConfirmedUser,
  firstLink,
  formRequest,
  getRequest,
  latestMailTo,
  queuedMails,
  run,
  TEST_IP,
  uniqueEmail,
} from '../../../tests/setup/requests'
import { getAuth } from '~/features/account/auth.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'

useTestDatabase()

const context = { cspNonce: 'test' }
const authAction = (request: Request) => run(() => authRoute.action({ request, params: {}, context } as any))
const authLoader = (request: Request) => run(() => authRoute.loader({ request, params: {}, context } as any))

function signUpFields(overrides: Record<string, string> = {}) {
  return {
    intent: 'signup',
    firstName: 'Lucía',
    lastName: 'Fernández',
    email: uniqueEmail('signup'),
    password: 'una-clave-larga',
    confirmPassword: 'una-clave-larga',
    ...overrides,
  }
}

async function userCount() {
  const [row] = await getDb().select({ n: count() }).from(user)
  return row!.n
}

function errorsOf(outcome: { data: any }) {
  return outcome.data.submission.error as Record<string, string[]>
}

/** The toast a redirect carries in its flash cookie, decoded as the browser would store it (signed, not encrypted). */
function toastCookieText(headers: Headers) {
  const cookie = headers.getSetCookie().find((setCookie) => setCookie.startsWith('toast='))
  if (!cookie) throw new Error('No toast cookie')
  const value = decodeURIComponent(cookie.slice('toast='.length).split(';')[0]!)
  return Buffer.from(value.slice(0, value.lastIndexOf('.')), 'base64').toString('utf8')
}

/** What the next page shows: the root loader reads (and clears) the flash cookie. */
async function toastAfter(redirect: { headers: Headers }) {
  const next = await run(() =>
    root.loader({ request: getRequest('/auth', { cookie: cookiesFrom(redirect.headers) }), params: {}, context } as any),
  )
  return next.data.toast as { type: string; title: string; description?: string } | null
}

describe('sign-up', () => {
  test.each([
    [{ firstName: '' }, 'firstName', 'El nombre es requerido'],
    [{ firstName: '   ' }, 'firstName', 'El nombre es requerido'],
    [{ firstName: 'x'.repeat(51) }, 'firstName', 'El nombre es demasiado largo'],
    [{ lastName: '' }, 'lastName', 'El apellido es requerido'],
    [{ lastName: 'y'.repeat(51) }, 'lastName', 'El apellido es demasiado largo'],
    [{ email: 'not-an-email' }, 'email', 'Por favor ingresa un email válido'],
    [{ email: '' }, 'email', 'Por favor ingresa un email válido'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'email', 'El email es demasiado largo'],
    [{ password: 'corta', confirmPassword: 'corta' }, 'password', 'La contraseña debe tener al menos 8 caracteres'],
    [{ confirmPassword: 'otra-clave-larga' }, 'confirmPassword', 'Las contraseñas no coinciden'],
    [{ firstName: 'Ana\u0000<script>' }, 'firstName', 'Contiene caracteres no válidos'],
  ])('refuses %o on the server with the spec message', async (overrides, field, message) => {
    const before = await userCount()
    const outcome = await authAction(formRequest('/auth', signUpFields(overrides)))
    expect(outcome.status).toBe(400)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Revisa los datos del formulario' } })
    expect(errorsOf(outcome)[field]).toEqual([message])
    expect(await userCount()).toBe(before)
  })

  // The invisible direction marks (left-to-right, right-to-left, Arabic letter mark) reorder a
  // name as the overrides do.
  test.each([
    ['U+200E', '\u200E'],
    ['U+200F', '\u200F'],
    ['U+061C', '\u061C'],
  ])('refuses the direction mark %s in the first and the last name, creating nothing', async (_name, mark) => {
    const before = await userCount()
    for (const field of ['firstName', 'lastName']) {
      const outcome = await authAction(formRequest('/auth', signUpFields({ [field]: `Ana${mark}exe.gnp` })))
      expect(outcome.status).toBe(400)
      expect(errorsOf(outcome)[field]).toEqual(['Contiene caracteres no válidos'])
    }
    expect(await userCount()).toBe(before)
  })

  test('creates the account, queues the confirmation e-mail and opens sign-in with the e-mail', async () => {
    const fields = signUpFields({ firstName: '  Lucía ', email: '  Mixed.Case@Example.com ' })
    const outcome = await authAction(formRequest('/auth', fields))
    expect(outcome.status).toBe(200)
    expect(outcome.data).toMatchObject({
      ok: true,
      signedUpEmail: 'mixed.case@example.com',
      message: { title: 'Cuenta creada exitosamente. Revisa tu email para confirmar tu cuenta.' },
    })
    const [created] = await getDb().select().from(user).where(eq(user.email, 'mixed.case@example.com'))
    expect(created).toMatchObject({ firstName: 'Lucía', lastName: 'Fernández', emailVerified: false })
    const mail = await latestMailTo('mixed.case@example.com', 'Confirma tu email')
    expect(firstLink(mail!.text)).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/)
    // No profile and no welcome before the first confirmed sign-in.
    expect(await getDb().select().from(profiles).where(eq(profiles.userId, created!.id))).toEqual([])
  })

  test('an existing e-mail gets the spec message and moves to sign-in, creating nothing', async () => {
    const { email } = await createConfirmedUser()
    const before = await userCount()
    const outcome = await authAction(formRequest('/auth', signUpFields({ email: email.toUpperCase() })))
    expect(outcome.status).toBe(409)
    expect(outcome.data).toEqual({
      ok: true,
      existingEmail: email,
      message: { title: 'Ya existe una cuenta con este email', type: 'info' },
    })
    expect(await userCount()).toBe(before)
  })

  test('a body that is not a form post is refused with 415, creating nothing', async () => {
    const before = await userCount()
    const fields = signUpFields()
    const request = new Request(`${BASE_URL}/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: BASE_URL, 'x-app-client-ip': TEST_IP },
      body: JSON.stringify(fields),
    })
    const outcome = await authAction(request)
    expect(outcome.status).toBe(415)
    expect(outcome.data).toEqual({ ok: false, message: { title: REQUEST_MESSAGES.unsupportedType } })
    expect(await userCount()).toBe(before)
    expect(await getDb().select().from(user).where(eq(user.email, fields.email))).toEqual([])
  })

  test('a signed-in member cannot post the form again', async () => {
    const { cookie } = await createConfirmedUser()
    const outcome = await authAction(formRequest('/auth', signUpFields(), { cookie }))
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/comunidad')
  })
})

describe('sign-in', () => {
  test('refuses an unconfirmed e-mail with the spec message', async () => {
    const fields = signUpFields()
    await authAction(formRequest('/auth', fields))
    const outcome = await authAction(formRequest('/auth', { intent: 'signin', email: fields.email, password: fields.password }))
    expect(outcome.status).toBe(403)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Por favor confirma tu email antes de iniciar sesión' } })
    expect(outcome.headers.getSetCookie()).toEqual([])
  })

  test('wrong password: spec message, no session, an audit entry', async () => {
    const { email } = await createConfirmedUser()
    const outcome = await authAction(formRequest('/auth', { intent: 'signin', email, password: 'no-es-esta' }))
    expect(outcome.status).toBe(400)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Email o contraseña incorrectos' } })
    expect(outcome.headers.getSetCookie()).toEqual([])
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.action, 'sign_in_failed'))
    expect(entries.some((entry) => entry.details?.email === email)).toBe(true)
  })

  test.each([
    [{ email: 'nope', password: 'x' }, 'email', 'Por favor ingresa un email válido'],
    [{ email: 'a@b.es', password: '' }, 'password', 'La contraseña es requerida'],
  ])('validates %o on the server', async (fields, field, message) => {
    const outcome = await authAction(formRequest('/auth', { intent: 'signin', ...fields }))
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('Revisa tu email y tu contraseña')
    expect(errorsOf(outcome)[field]).toEqual([message])
  })

  test('success sets an httpOnly session cookie and goes to the safe redirect target', async () => {
    const { email, password } = await createConfirmedUser()
    const outcome = await authAction(formRequest('/auth', { intent: 'signin', email, password, redirectTo: '/perfil' }))
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/perfil')
    const sessionCookie = outcome.headers.getSetCookie().find((cookie) => cookie.includes('session_token'))
    expect(sessionCookie).toMatch(/HttpOnly/i)
    expect(sessionCookie).toMatch(/SameSite=Lax/i)
    expect(toastCookieText(outcome.headers)).toContain('Sesión iniciada exitosamente')
    const cookie = cookiesFrom(outcome.headers)
    const profile = await run(() => perfilRoute.loader({ request: getRequest('/perfil', { cookie }), params: {}, context } as any))
    expect(profile.status).toBe(200)
    expect(profile.data.email).toBe(email)
  })

  test.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n//evil.example',
  ])('never redirects off-site (%s)', async (target) => {
    const { email, password } = await createConfirmedUser()
    const outcome = await authAction(formRequest('/auth', { intent: 'signin', email, password, redirectTo: target }))
    expect(outcome.location).toBe('/comunidad')
  })

  test('is rate limited per e-mail with a Spanish 429 message', async () => {
    const { email } = await createConfirmedUser()
    const statuses: number[] = []
    let last
    for (let attempt = 0; attempt < 9; attempt++) {
      last = await authAction(formRequest('/auth', { intent: 'signin', email, password: 'mala-clave' }))
      statuses.push(last.status)
    }
    expect(statuses.slice(0, 8).every((status) => status === 400)).toBe(true)
    expect(statuses[8]).toBe(429)
    expect(last!.data.ok).toBe(false)
    expect(last!.data.message.title).toMatch(/^Demasiados intentos\. Espera \d+ minutos? y vuelve a intentarlo\.$/)
  })

  test('signed-in visitors are sent from /auth to /comunidad', async () => {
    const { cookie } = await createConfirmedUser()
    const outcome = await authLoader(getRequest('/auth', { cookie }))
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/comunidad')
  })
})

describe('confirmation and first sign-in', () => {
  test('ensures the profile from the sign-up names and queues one welcome e-mail', async () => {
    const fields = signUpFields({ firstName: '  Marta  ', lastName: ' Ruiz ' })
    await authAction(formRequest('/auth', fields))
    const email = fields.email
    const link = firstLink((await latestMailTo(email, 'Confirma tu email'))!.text)
    const confirmed = await getAuth().handler(new Request(link))
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get('Location')).toBe('/auth?confirmacion=1')

    const [account] = await getDb().select().from(user).where(eq(user.email, email))
    expect(account!.emailVerified).toBe(true)
    const [profile] = await getDb().select().from(profiles).where(eq(profiles.userId, account!.id))
    expect(profile).toMatchObject({ firstName: 'Marta', lastName: 'Ruiz', isPremium: false })

    // Signing in again later sends no second welcome.
    await authAction(formRequest('/auth', { intent: 'signin', email, password: fields.password }))
    const welcomes = await getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `mail.send:welcome:${account!.id}`))
    expect(welcomes).toHaveLength(1)
    expect(welcomes[0]!.name).toBe('mail.send')
    expect(welcomes[0]!.payload).toMatchObject({ to: email, subject: '¡Bienvenido a la comunidad!' })
    expect(await queuedMails(email, '¡Bienvenido a la comunidad!')).toHaveLength(1)
  })

  test('a forged confirmation token is refused and verifies nothing', async () => {
    const fields = signUpFields()
    await authAction(formRequest('/auth', fields))
    const response = await getAuth().handler(
      new Request('http://localhost:3000/api/auth/verify-email?token=forged&callbackURL=%2Fauth%3Fconfirmacion%3D1'),
    )
    expect(response.headers.getSetCookie().some((cookie) => cookie.includes('session_token='))).toBe(false)
    const [account] = await getDb().select().from(user).where(eq(user.email, fields.email))
    expect(account!.emailVerified).toBe(false)
  })
})

describe("better-auth's own endpoints", () => {
  const apiLoader = (request: Request) => run(() => authApiRoute.loader({ request, params: {}, context } as any))
  const apiAction = (request: Request) => run(() => authApiRoute.action({ request, params: {}, context } as any))
  const json = (path: string, body: object) =>
    new Request(`http://localhost:3000${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })

  test('sign-up, sign-in and user updates cannot bypass our forms and their rules', async () => {
    const email = uniqueEmail('bypass')
    for (const request of [
      json('/api/auth/sign-up/email', { email, password: '123456', name: 'x', firstName: 'x'.repeat(10_000) }),
      json('/api/auth/sign-in/email', { email, password: '123456' }),
      json('/api/auth/update-user', { firstName: '<script>' }),
      json('/api/auth/request-password-reset', { email }),
      json('/api/auth/verify-email', { token: 'x' }),
      // Two-factor settings, the e-mail change and the sessions: only through /perfil's forms (password first).
      json('/api/auth/two-factor/disable', { password: '123456' }),
      json('/api/auth/two-factor/enable', { password: '123456' }),
      json('/api/auth/two-factor/verify-totp', { code: '000000' }),
      json('/api/auth/change-email', { newEmail: 'otra@example.com' }),
      json('/api/auth/revoke-sessions', {}),
      // Passkeys: only through /perfil's and /auth's forms.
      json('/api/auth/passkey/verify-registration', { response: { id: 'x' } }),
      json('/api/auth/passkey/verify-authentication', { response: { id: 'x' } }),
      json('/api/auth/passkey/delete-passkey', { id: 'x' }),
    ]) {
      expect((await apiAction(request)).status).toBe(404)
    }
    expect((await apiLoader(new Request('http://localhost:3000/api/auth/get-session'))).status).toBe(404)
    expect((await apiLoader(new Request('http://localhost:3000/api/auth/passkey/generate-authenticate-options'))).status).toBe(404)
    expect(await getDb().select().from(user).where(eq(user.email, email))).toEqual([])
  })

  test('the e-mail confirmation link still reaches better-auth through this route; a forged one is sent back to /auth with an error, not a 5xx', async () => {
    const fields = signUpFields()
    await authAction(formRequest('/auth', fields))
    const confirmed = await apiLoader(new Request(firstLink((await latestMailTo(fields.email, 'Confirma tu email'))!.text)))
    expect(confirmed).toMatchObject({ status: 302, location: '/auth?confirmacion=1' })
    expect((await getDb().select({ emailVerified: user.emailVerified }).from(user).where(eq(user.email, fields.email)))[0]).toEqual({
      emailVerified: true,
    })
    const forged = await apiLoader(new Request('http://localhost:3000/api/auth/verify-email?token=forged&callbackURL=%2Fauth'))
    expect(forged).toMatchObject({ status: 302, location: '/auth?error=INVALID_TOKEN' })
  })
})

describe('password recovery', () => {
  const forgotAction = (request: Request) => run(() => forgotRoute.action({ request, params: {}, context } as any))
  const resetAction = (request: Request) => run(() => resetRoute.action({ request, params: {}, context } as any))
  const resetLoader = (path: string) => run(() => resetRoute.loader({ request: getRequest(path), params: {}, context } as any))
  const LINK_USED = 'Error al actualizar contraseña: el enlace ha caducado o ya se ha usado. Solicita uno nuevo.'

  /** Asks for a reset link through the form and returns the one the e-mail carries. */
  async function requestResetLink(email: string) {
    const asked = await forgotAction(formRequest('/forgot-password', { intent: 'forgot', email }))
    expect(asked.status).toBe(302)
    const link = new URL(firstLink((await latestMailTo(email, 'Restablece tu contraseña'))!.text))
    return { path: `${link.pathname}${link.search}`, token: link.searchParams.get('token')! }
  }

  const resetWith = (token: string, password: string) =>
    resetAction(formRequest('/reset-password', { intent: 'reset-password', token, password, confirmPassword: password }))

  test.each([
    ['', 'Por favor ingresa tu email'],
    ['no-es-email', 'Por favor ingresa un email válido'],
  ])('validates the e-mail %j', async (email, message) => {
    const outcome = await forgotAction(formRequest('/forgot-password', { intent: 'forgot', email }))
    expect(outcome.status).toBe(400)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Por favor ingresa un email válido' } })
    expect(errorsOf(outcome).email).toEqual([message])
  })

  test('answers the same for an unknown e-mail and sends nothing', async () => {
    const email = uniqueEmail('unknown')
    const outcome = await forgotAction(formRequest('/forgot-password', { intent: 'forgot', email }))
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/auth')
    expect(toastCookieText(outcome.headers)).toContain('Email de recuperación enviado. Revisa tu bandeja de entrada.')
    expect(await latestMailTo(email)).toBeUndefined()
  })

  test('answers an existing and an unknown e-mail alike, before any e-mail exists; only the account gets one, from the job', async () => {
    const { email: known } = await createConfirmedUser()
    const unknown = uniqueEmail('nadie')
    const resetJobs = (email: string) =>
      getDb()
        .select({ status: jobs.status })
        .from(jobs)
        .where(and(eq(jobs.name, 'account.password-reset'), sql`${jobs.payload}->>'email' = ${email}`))
    const resetMails = (email: string) => queuedMails(email, 'Restablece tu contraseña')

    const answers = []
    for (const email of [known, unknown]) {
      // An address of its own: the other recovery tests share TEST_IP's budget of 10.
      const outcome = await forgotAction(formRequest('/forgot-password', { intent: 'forgot', email }, { ip: '198.51.100.20' }))
      // Returned with the work still queued: nothing looked up, no e-mail written or sent yet.
      expect(await resetJobs(email)).toEqual([{ status: 'queued' }])
      expect(await resetMails(email)).toEqual([])
      answers.push({
        status: outcome.status,
        location: outcome.location,
        data: outcome.data,
        cookies: outcome.headers.getSetCookie().map((cookie) => cookie.split('=')[0]),
        toast: toastCookieText(outcome.headers),
      })
    }
    expect(answers[0]).toMatchObject({ status: 302, location: '/auth', cookies: ['toast'] })
    expect(answers[0]!.toast).toContain('Email de recuperación enviado. Revisa tu bandeja de entrada.')
    expect(answers[1]).toEqual(answers[0])

    await runDueJobs({ names: ['account.password-reset'] })
    expect(await resetJobs(known)).toEqual([{ status: 'done' }])
    expect(await resetJobs(unknown)).toEqual([{ status: 'done' }])
    expect(await resetMails(known)).toHaveLength(1)
    expect(await resetMails(unknown)).toEqual([])
  })

  test('an expired link is refused at once by the page: the invalid-link message and a way to ask for a new one', async () => {
    const { email, password } = await createConfirmedUser()
    const link = await requestResetLink(email)
    expect((await resetLoader(link.path)).data).toEqual({ token: link.token })
    await getDb()
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, `reset-password:${link.token}`))

    const page = await resetLoader(link.path)
    expect(page.status).toBe(200)
    expect(page.data).toEqual({ token: null })
    const router = createMemoryRouter(
      [{ path: '/reset-password', element: createElement(resetRoute.default as any, { loaderData: page.data, actionData: undefined }) }],
      { initialEntries: [link.path] },
    )
    const html = renderToString(createElement(RouterProvider, { router }))
    expect(html).toContain('Enlace de recuperación inválido')
    expect(html).toMatch(/<a[^>]*href="\/auth\?tab=recuperar"[^>]*>Solicitar un enlace nuevo<\/a>/)
    // No form that would post the dead token.
    expect(html).not.toContain(link.token)
    expect(html).not.toContain('name="password"')

    const refused = await resetWith(link.token, 'otra-clave-2')
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ ok: false, message: { title: LINK_USED } })
    expect((await authAction(formRequest('/auth', { intent: 'signin', email, password }))).status).toBe(302)
  })

  test('the /auth forgot view uses the same server path', async () => {
    const { email } = await createConfirmedUser()
    const outcome = await authAction(formRequest('/auth', { intent: 'forgot', email }))
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/auth')
    expect(await latestMailTo(email, 'Restablece tu contraseña')).toBeDefined()
  })

  test.each([
    ['/reset-password?type=signup&token=abc', 'Enlace de recuperación inválido'],
    ['/reset-password', 'Enlace de recuperación inválido'],
    // Only the fixed message of a known code: the link's own description never reaches the page.
    ['/reset-password?error=access_denied&error_description=Enlace%20caducado', 'Enlace de recuperación inválido'],
    ['/reset-password?error=INVALID_TOKEN', 'El enlace de recuperación no es válido o ha caducado'],
  ])('the page refuses %s and goes to /auth', async (path, message) => {
    const outcome = await resetLoader(path)
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/auth')
    const toastCookie = outcome.headers.getSetCookie().find((cookie) => cookie.startsWith('toast='))
    expect(toastCookie).toBeDefined()
    // The flash cookie carries the message to the next page.
    expect(await toastAfter(outcome)).toMatchObject({ type: 'error', title: message })
  })

  test('text from the link never reaches the toast', async () => {
    const outcome = await resetLoader('/reset-password?error=access_denied&error_description=Texto+malicioso')
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/auth')
    const stored = toastCookieText(outcome.headers)
    expect(stored).toContain('Enlace de recuperación inválido')
    expect(stored).not.toContain('Texto malicioso')
    expect(stored).not.toContain('Texto+malicioso')
    const toast = await toastAfter(outcome)
    expect(toast).toEqual({ type: 'error', title: 'Enlace de recuperación inválido' })
  })

  test('reset: rules, then new password works, old one and every old session do not', async () => {
    const { email, password, cookie: otherDevice } = await createConfirmedUser()
    await forgotAction(formRequest('/forgot-password', { intent: 'forgot', email }))
    const link = new URL(firstLink((await latestMailTo(email, 'Restablece tu contraseña'))!.text))
    expect(link.pathname).toBe('/reset-password')
    expect(link.searchParams.get('type')).toBe('recovery')
    const token = link.searchParams.get('token')!
    expect((await resetLoader(`${link.pathname}${link.search}`)).data).toEqual({ token })

    const attempts: Array<[Record<string, string>, string, string]> = [
      [{ password: '', confirmPassword: '' }, 'password', 'Por favor completa todos los campos'],
      [{ password: 'abcdef', confirmPassword: '' }, 'confirmPassword', 'Por favor completa todos los campos'],
      [{ password: 'abc', confirmPassword: 'abc' }, 'password', 'La contraseña debe tener al menos 6 caracteres'],
      [{ password: 'abcdef', confirmPassword: 'abcdeg' }, 'confirmPassword', 'Las contraseñas no coinciden'],
    ]
    for (const [fields, field, message] of attempts) {
      const outcome = await resetAction(formRequest('/reset-password', { intent: 'reset-password', token, ...fields }))
      expect(outcome.status).toBe(400)
      expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Por favor completa todos los campos' } })
      expect(errorsOf(outcome)[field]).toEqual([message])
    }

    const done = await resetAction(
      formRequest('/reset-password', { intent: 'reset-password', token, password: 'nueva-1', confirmPassword: 'nueva-1' }),
    )
    expect(done.status).toBe(302)
    expect(done.location).toBe('/')
    expect(toastCookieText(done.headers)).toContain('Contraseña actualizada correctamente')

    const old = await authAction(formRequest('/auth', { intent: 'signin', email, password }))
    expect(old.status).toBe(400)
    expect(old.data.message.title).toBe('Email o contraseña incorrectos')
    const fresh = await authAction(formRequest('/auth', { intent: 'signin', email, password: 'nueva-1' }))
    expect(fresh.status).toBe(302)
    expect(await getAuth().api.getSession({ headers: new Headers({ Cookie: otherDevice }) })).toBeNull()

    const reused = await resetAction(
      formRequest('/reset-password', { intent: 'reset-password', token, password: 'otra-22', confirmPassword: 'otra-22' }),
    )
    expect(reused.status).toBe(400)
    expect(reused.data).toMatchObject({ ok: false, message: { title: LINK_USED } })
  })

  test('a used link says so at once', async () => {
    const { email } = await createConfirmedUser()
    const link = await requestResetLink(email)
    expect((await resetLoader(link.path)).data).toEqual({ token: link.token })
    expect((await resetWith(link.token, 'nueva-clave-1')).status).toBe(302)
    const again = await resetLoader(link.path)
    expect(again.status).toBe(200)
    expect(again.data).toEqual({ token: null })
  })

  test('after a reset, another link asked for earlier no longer works', async () => {
    const { email } = await createConfirmedUser()
    const earlier = await requestResetLink(email)
    const later = await requestResetLink(email)
    expect(later.token).not.toBe(earlier.token)
    expect((await resetLoader(earlier.path)).data).toEqual({ token: earlier.token })

    expect((await resetWith(later.token, 'nueva-clave-1')).status).toBe(302)
    expect((await resetLoader(earlier.path)).data).toEqual({ token: null })
    const refused = await resetWith(earlier.token, 'otra-clave-2')
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ ok: false, message: { title: LINK_USED } })
    const signIn = await authAction(formRequest('/auth', { intent: 'signin', email, password: 'nueva-clave-1' }))
    expect(signIn.status).toBe(302)
  })

  test('a link asked for before the password was changed from /perfil no longer works', async () => {
    const { email, password, cookie } = await createConfirmedUser()
    const link = await requestResetLink(email)
    expect((await resetLoader(link.path)).data).toEqual({ token: link.token })

    const changed = await run(() =>
      perfilRoute.action({
        request: formRequest(
          '/perfil',
          { intent: 'password', currentPassword: password, newPassword: 'cambiada-en-perfil', confirmPassword: 'cambiada-en-perfil' },
          { cookie },
        ),
        params: {},
        context,
      } as any),
    )
    expect(changed.status).toBe(302)
    expect(changed.location).toBe('/perfil')

    expect((await resetLoader(link.path)).data).toEqual({ token: null })
    const refused = await resetWith(link.token, 'otra-clave-2')
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ ok: false, message: { title: LINK_USED } })
    const signIn = await authAction(formRequest('/auth', { intent: 'signin', email, password: 'cambiada-en-perfil' }))
    expect(signIn.status).toBe(302)
  })
})

describe('sign-out', () => {
  test('ends the session on the server', async () => {
    const { cookie } = await createConfirmedUser()
    const outcome = await run(() =>
      logoutRoute.action({ request: formRequest('/logout', { intent: 'logout' }, { cookie }), params: {}, context } as any),
    )
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/')
    expect(toastCookieText(outcome.headers)).toContain('Sesión cerrada correctamente')
    expect(await getAuth().api.getSession({ headers: new Headers({ Cookie: cookie }) })).toBeNull()
  })
})

describe('unexpected better-auth errors show a fixed Spanish message, never the internal text', () => {
  const INTERNAL = 'db exploded: relation "session" does not exist (10.0.0.5:5432)'
  afterEach(() => {
    vi.restoreAllMocks()
  })
  /** Whether the internal text reached the answer: its body, or the toast it carries to the next page. */
  const leaked = (outcome: { data: unknown; headers: Headers }) =>
    JSON.stringify(outcome.data).includes('db exploded') ||
    (outcome.headers.getSetCookie().some((cookie) => cookie.startsWith('toast=')) &&
      toastCookieText(outcome.headers).includes('db exploded'))

  test('sign-in', async () => {
    const { email, password } = await createConfirmedUser()
    vi.spyOn(getAuth().api, 'signInEmail').mockRejectedValue(new Error(INTERNAL))
    const outcome = await authAction(formRequest('/auth', { intent: 'signin', email, password }))
    expect(outcome.status).toBe(500)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Error al iniciar sesión. Vuelve a intentarlo en unos minutos.' } })
    expect(outcome.headers.getSetCookie()).toEqual([])
    expect(leaked(outcome)).toBe(false)
  })

  test('sign-up', async () => {
    vi.spyOn(getAuth().api, 'signUpEmail').mockRejectedValue(new Error(INTERNAL))
    const fields = signUpFields()
    const outcome = await authAction(formRequest('/auth', fields))
    expect(outcome.status).toBe(500)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Error al registrarse. Vuelve a intentarlo en unos minutos.' } })
    expect(leaked(outcome)).toBe(false)
    expect(await getDb().select().from(user).where(eq(user.email, fields.email))).toEqual([])
  })

  test('password reset', async () => {
    const { email, password } = await createConfirmedUser()
    const asked = await run(() =>
      forgotRoute.action({
        request: formRequest('/forgot-password', { intent: 'forgot', email }, { ip: '198.51.100.21' }),
        params: {},
        context,
      } as any),
    )
    expect(asked.status).toBe(302)
    const token = new URL(firstLink((await latestMailTo(email, 'Restablece tu contraseña'))!.text)).searchParams.get('token')!
    vi.spyOn(getAuth().api, 'resetPassword').mockRejectedValue(new Error(INTERNAL))
    const outcome = await run(() =>
      resetRoute.action({
        request: formRequest(
          '/reset-password',
          { intent: 'reset-password', token, password: 'nueva-1', confirmPassword: 'nueva-1' },
          { ip: '198.51.100.21' },
        ),
        params: {},
        context,
      } as any),
    )
    expect(outcome.status).toBe(500)
    expect(outcome.data).toMatchObject({
      ok: false,
      message: { title: 'Error al actualizar contraseña. Vuelve a intentarlo en unos minutos.' },
    })
    expect(leaked(outcome)).toBe(false)
    vi.restoreAllMocks()
    expect((await authAction(formRequest('/auth', { intent: 'signin', email, password }))).status).toBe(302)
  })

  test('logout', async () => {
    const { cookie } = await createConfirmedUser()
    vi.spyOn(getAuth().api, 'signOut').mockRejectedValue(new Error(INTERNAL))
    const outcome = await run(() =>
      logoutRoute.action({ request: formRequest('/logout', { intent: 'logout' }, { cookie }), params: {}, context } as any),
    )
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/')
    expect(await toastAfter(outcome)).toEqual({ type: 'error', title: 'Error al cerrar sesión. Vuelve a intentarlo.' })
    expect(leaked(outcome)).toBe(false)
  })
})
