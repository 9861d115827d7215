import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getAuth } from '~/features/account/auth.server'
import { session, user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import {
  cookiesFrom,
  createConfirmedUser,
  firstLink,
  formRequest,
  getRequest,
  latestMailTo,
  queuedMails,
  readToast,
  run,
  uniqueEmail,
} from '../../../tests/setup/requests'
import * as profileRoute from './profile.route'
import { EMAIL_CHANGE_MESSAGES } from './profile-schemas'
import { approximateAddress, DEVICE_MESSAGES, describeUserAgent } from './security.server'

useTestDatabase()

const context = { cspNonce: 'test' }
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

const load = (cookie?: string, path = '/perfil') =>
  run(() => profileRoute.loader({ request: getRequest(path, { cookie }), params: {}, context } as any))
const post = (fields: Record<string, string>, cookie?: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as any))

/** Signs in again from a browser (its user agent and address), as another device would. */
async function signInFrom(email: string, password: string, userAgent: string, ip = '198.51.100.23') {
  const { headers } = await getAuth().api.signInEmail({
    body: { email, password },
    headers: new Headers({ 'user-agent': userAgent, 'x-app-client-ip': ip }),
    returnHeaders: true,
  })
  return cookiesFrom(headers)
}

const newDeviceMails = (email: string) => queuedMails(email, 'Nuevo inicio de sesión en tu cuenta')
const isSignedIn = async (cookie: string) => Boolean(await getAuth().api.getSession({ headers: new Headers({ Cookie: cookie }) }))

describe('what a member recognises of a device', () => {
  test.each([
    [CHROME_WINDOWS, 'Chrome en Windows'],
    [SAFARI_IPHONE, 'Safari en iPhone'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox en macOS'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge en Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome en Android',
    ],
    ['curl/8.5.0', 'Dispositivo desconocido'],
    ['', 'Dispositivo desconocido'],
    ['Mozilla/5.0 (X11; FooOS) Firefox/120.0', 'Firefox en un sistema desconocido'],
  ])('%s → %s', (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toBe(expected)
  })

  test.each([
    ['203.0.113.57', '203.0.x.x'],
    ['::ffff:198.51.100.4', '198.51.x.x'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::/48'],
    ['unknown', 'Desconocida'],
    [null, 'Desconocida'],
    ['<script>', 'Desconocida'],
  ])('address %s → %s', (ip, expected) => {
    expect(approximateAddress(ip)).toBe(expected)
  })
})

describe("'Dispositivos con sesión iniciada'", () => {
  test('lists every device signed in, this one first and marked, with an approximate address', async () => {
    const { cookie, email, password } = await createConfirmedUser()
    await signInFrom(email, password, SAFARI_IPHONE, '203.0.113.57')
    const page = await load(cookie)
    expect(page.status).toBe(200)
    const devices = page.data.devices as Array<{ device: string; address: string; current: boolean }>
    expect(devices).toHaveLength(2)
    expect(devices[0]!.current).toBe(true)
    expect(devices[1]).toMatchObject({ device: 'Safari en iPhone', address: '203.0.x.x', current: false })
    expect(JSON.stringify(page.data)).not.toContain('203.0.113.57')
  })

  test("'Cerrar sesión' signs that device out; this device, and another member's, cannot be closed this way", async () => {
    const { cookie, email, password, userId } = await createConfirmedUser()
    const phone = await signInFrom(email, password, SAFARI_IPHONE)
    const devices = (await load(cookie)).data.devices as Array<{ id: string; current: boolean }>
    const phoneId = devices.find((device) => !device.current)!.id
    const here = devices.find((device) => device.current)!.id

    const stranger = await createConfirmedUser()
    const strangerSession = (await getDb().select({ id: session.id }).from(session).where(eq(session.userId, stranger.userId)))[0]!.id
    for (const sessionId of [strangerSession, here, 'no-existe']) {
      const refused = await post({ intent: 'close-device', sessionId }, cookie)
      expect(refused.status).toBe(404)
      expect(refused.data.message.title).toBe(DEVICE_MESSAGES.gone)
    }
    expect(await isSignedIn(stranger.cookie)).toBe(true)

    const closed = await post({ intent: 'close-device', sessionId: phoneId }, cookie)
    expect(closed.status).toBe(302)
    expect(closed.location).toBe('/perfil#seguridad')
    expect(await readToast(closed.headers)).toMatchObject({ title: DEVICE_MESSAGES.closed })
    expect(await isSignedIn(phone)).toBe(false)
    expect(await isSignedIn(cookie)).toBe(true)
    expect((await load(cookie)).data.devices).toHaveLength(1)
    expect(userId).toBeTruthy()
  })

  test("'Cerrar las demás' keeps only this device", async () => {
    const { cookie, email, password } = await createConfirmedUser()
    const others = [await signInFrom(email, password, SAFARI_IPHONE), await signInFrom(email, password, CHROME_WINDOWS)]
    const closed = await post({ intent: 'close-other-devices' }, cookie)
    expect(await readToast(closed.headers)).toMatchObject({ title: DEVICE_MESSAGES.othersClosed })
    for (const other of others) expect(await isSignedIn(other)).toBe(false)
    expect(await isSignedIn(cookie)).toBe(true)
    const again = await post({ intent: 'close-other-devices' }, cookie)
    expect(await readToast(again.headers)).toMatchObject({ title: DEVICE_MESSAGES.noneOther })
  })

  test('a visitor is sent to sign in; a forged session id is refused with the form’s message', async () => {
    expect((await post({ intent: 'close-other-devices' })).location).toBe('/auth?redirectTo=%2Fperfil')
    const { cookie } = await createConfirmedUser()
    const long = await post({ intent: 'close-device', sessionId: 'x'.repeat(101) }, cookie)
    expect(long.status).toBe(400)
  })
})

describe('security e-mails', () => {
  test('a sign-in from a browser not seen before is e-mailed once, with where from; the first sign-in is not', async () => {
    const { email, password } = await createConfirmedUser()
    expect(await newDeviceMails(email)).toHaveLength(0)
    await signInFrom(email, password, CHROME_WINDOWS, '203.0.113.57')
    const mails = await newDeviceMails(email)
    expect(mails).toHaveLength(1)
    const mail = await latestMailTo(email, 'Nuevo inicio de sesión en tu cuenta')
    expect(mail!.text).toContain('Chrome en Windows')
    expect(mail!.text).toContain('203.0.x.x')
    expect(firstLink(mail!.text)).toMatch(/\/forgot-password$/)
    // The same browser again (another address): known, no e-mail.
    await signInFrom(email, password, CHROME_WINDOWS, '192.0.2.9')
    expect(await newDeviceMails(email)).toHaveLength(1)
    await signInFrom(email, password, SAFARI_IPHONE)
    expect(await newDeviceMails(email)).toHaveLength(2)
  })

  test('a password changed from /perfil is e-mailed to the account', async () => {
    const { cookie, email, password } = await createConfirmedUser()
    const done = await post(
      { intent: 'password', currentPassword: password, newPassword: 'otra-clave-9', confirmPassword: 'otra-clave-9' },
      cookie,
    )
    expect(done.status).toBe(302)
    expect(await queuedMails(email, 'Tu contraseña ha cambiado')).toHaveLength(1)
  })
})

describe("'Cambiar email'", () => {
  const change = (cookie: string, newEmail: string, currentPassword: string) => post({ intent: 'email', newEmail, currentPassword }, cookie)

  test('with the password, a link goes to the new address and the old one is told; opening it changes the address', async () => {
    const { cookie, email, password, userId } = await createConfirmedUser()
    const newEmail = uniqueEmail('nueva')
    const asked = await change(cookie, newEmail.toUpperCase(), password)
    expect(asked.status).toBe(302)
    expect(await readToast(asked.headers)).toMatchObject({ title: EMAIL_CHANGE_MESSAGES.sent })
    expect(await latestMailTo(email, 'Cambio de email solicitado')).toBeDefined()
    const confirmation = await latestMailTo(newEmail, 'Confirma tu nuevo email')
    expect(confirmation!.text).toContain('Confirmar mi nuevo email')
    // Until the link is opened the account keeps its address.
    expect((await getDb().select({ email: user.email }).from(user).where(eq(user.id, userId)))[0]!.email).toBe(email)
    const opened = await getAuth().handler(
      new Request(firstLink(confirmation!.text), { headers: { Cookie: cookie, 'x-app-client-ip': '203.0.113.7' } }),
    )
    expect(opened.headers.get('location')).toBe('/perfil?email=cambiado')
    expect((await getDb().select({ email: user.email }).from(user).where(eq(user.id, userId)))[0]!.email).toBe(newEmail)
    const page = await load(cookiesFrom(opened.headers, cookie), '/perfil?email=cambiado')
    expect(page.data).toMatchObject({ email: newEmail, emailChanged: true })
    // The new address signs in; the old one no longer does.
    expect(await signInFrom(newEmail, password, CHROME_WINDOWS)).toContain('session_token')
    await expect(signInFrom(email, password, CHROME_WINDOWS)).rejects.toThrow()
  })

  test('a wrong password, the same address or a bad one is refused; an address taken by another account gets the same answer and no link', async () => {
    const { cookie, email, password } = await createConfirmedUser()
    const wrong = await change(cookie, uniqueEmail('x'), 'no-es-la-clave')
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe(EMAIL_CHANGE_MESSAGES.wrongPassword)
    const same = await change(cookie, email, password)
    expect(same.data.message.title).toBe(EMAIL_CHANGE_MESSAGES.same)
    const bad = await change(cookie, 'no-es-un-email', password)
    expect(bad.data.submission.error.newEmail).toEqual(['Por favor ingresa un email válido'])
    const taken = await createConfirmedUser()
    const answer = await change(cookie, taken.email, password)
    expect(await readToast(answer.headers)).toMatchObject({ title: EMAIL_CHANGE_MESSAGES.sent })
    expect(await latestMailTo(taken.email, 'Confirma tu nuevo email')).toBeUndefined()
  })

  test('more than 5 requests an hour are refused with a Spanish message', async () => {
    const { cookie, password } = await createConfirmedUser()
    for (let i = 0; i < 5; i++) expect((await change(cookie, uniqueEmail('rafaga'), password)).status).toBe(302)
    const sixth = await change(cookie, uniqueEmail('rafaga'), password)
    expect(sixth.status).toBe(429)
    expect(sixth.data.message.title).toMatch(/^Demasiados intentos/)
  })
})
