import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog } from '~/platform/audit/schema'
import { getAuth } from '~/features/account/auth.server'
import { session, user } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { codeAt, codeOf, enrolled } from '../../../tests/setup/two-factor'
import {
  cookiesFrom,
  createConfirmedUser,
  formRequest,
  getRequest,
  queuedMails,
  readToast,
  run,
  TEST_IP,
} from '../../../tests/setup/requests'
import { TWO_FACTOR_MESSAGES } from './auth-action.server'
import * as authRoute from './auth.route'
import * as profileRoute from './profile.route'

useTestDatabase()

const context = { cspNonce: 'test' }
const profile = (fields: Record<string, string>, cookie: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as any))
const auth = (path: string, fields: Record<string, string>, cookie?: string, ip = TEST_IP) =>
  run(() => authRoute.action({ request: formRequest(path, fields, { cookie, ip }), params: {}, context } as any))
const isSignedIn = async (cookie: string) => Boolean(await getAuth().api.getSession({ headers: new Headers({ Cookie: cookie }) }))

async function signInWithPassword(email: string, password: string, cookie = '', ip = TEST_IP) {
  const outcome = await auth('/auth', { intent: 'signin', email, password }, cookie || undefined, ip)
  return { outcome, cookie: cookiesFrom(outcome.headers, cookie) }
}

describe('turning two-factor sign-in on', () => {
  test('the password starts it: a QR code, the key and 10 recovery codes; a code from the app turns it on, audited and e-mailed', async () => {
    const member = await createConfirmedUser()
    const wrong = await profile({ intent: 'two-factor-enable', password: 'no-es-la-clave' }, member.cookie)
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe('La contraseña actual no es correcta')

    const started = await profile({ intent: 'two-factor-enable', password: member.password }, member.cookie)
    const { totpURI, qr, backupCodes } = started.data.enrolment
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/)
    expect(qr.split('/').every((row: string) => /^[01]+$/.test(row) && row.length === qr.split('/').length)).toBe(true)
    expect(backupCodes.split(' ')).toHaveLength(10)

    // A wrong code is refused; the page gets the enrolment back to try again.
    const refused = await profile({ intent: 'two-factor-confirm', code: '000000', totpURI, qr, backupCodes }, member.cookie)
    expect(refused.status).toBe(400)
    expect(refused.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    expect(refused.data.submission.initialValue).toMatchObject({ totpURI, qr, backupCodes })

    const confirmed = await profile({ intent: 'two-factor-confirm', code: await codeOf(totpURI), totpURI, qr, backupCodes }, member.cookie)
    expect(confirmed.location).toBe('/perfil#seguridad')
    expect(await readToast(confirmed.headers)).toMatchObject({ title: 'Verificación en dos pasos activada' })
    expect((await getDb().select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, member.userId)))[0]!.on).toBe(true)
    // This device stays signed in (its session renewed).
    expect(await isSignedIn(cookiesFrom(confirmed.headers, member.cookie))).toBe(true)
    expect(await queuedMails(member.email, 'Verificación en dos pasos activada')).toHaveLength(1)
    const audit = await getDb()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, member.userId), eq(auditLog.action, 'two_factor_enabled')))
    expect(audit).toHaveLength(1)
    const page = await run(() =>
      profileRoute.loader({
        request: getRequest('/perfil', { cookie: cookiesFrom(confirmed.headers, member.cookie) }),
        params: {},
        context,
      } as any),
    )
    expect(page.data.twoFactorEnabled).toBe(true)
  })
})

describe('signing in with two-factor on', () => {
  test('the password leads to the code step without a session; a wrong code is refused in Spanish; the right one signs in', async () => {
    const member = await enrolled()
    const { outcome, cookie } = await signInWithPassword(member.email, member.password)
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/auth?tab=codigo')
    expect(await isSignedIn(cookie)).toBe(false)

    const wrong = await auth('/auth?tab=codigo', { intent: 'two-factor', code: '123456' }, cookie)
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    const garbage = await auth('/auth?tab=codigo', { intent: 'two-factor', code: '<script>' }, cookie)
    expect(garbage.status).toBe(400)

    const right = await auth(
      '/auth?tab=codigo',
      { intent: 'two-factor', code: await codeOf(member.totpURI), redirectTo: '/perfil' },
      cookie,
    )
    expect(right.status).toBe(302)
    expect(right.location).toBe('/perfil')
    expect(await isSignedIn(cookiesFrom(right.headers, cookie))).toBe(true)
  })

  test('the wrong password says only that the e-mail or password is wrong; a code without the password step is refused', async () => {
    const member = await enrolled()
    const wrong = await auth('/auth', { intent: 'signin', email: member.email, password: 'no-es-la-clave' })
    expect(wrong.status).toBe(400)
    expect(wrong.data.message.title).toBe('Email o contraseña incorrectos')
    const noChallenge = await auth('/auth?tab=codigo', { intent: 'two-factor', code: await codeOf(member.totpURI) })
    expect(noChallenge.status).toBe(400)
    expect(noChallenge.data.message.title).toBe(TWO_FACTOR_MESSAGES.expired)
  })

  test('a recovery code signs in once (with or without its dash), is e-mailed and audited; used again it is refused', async () => {
    const member = await enrolled()
    const [first] = member.backupCodes
    const step = await signInWithPassword(member.email, member.password)
    const used = await auth('/auth?tab=codigo', { intent: 'two-factor', code: first!.replace('-', '') }, step.cookie)
    expect(used.status).toBe(302)
    expect(await queuedMails(member.email, 'Se ha usado un código de recuperación')).toHaveLength(1)
    const again = await signInWithPassword(member.email, member.password)
    const reused = await auth('/auth?tab=codigo', { intent: 'two-factor', code: first! }, again.cookie)
    expect(reused.status).toBe(400)
    expect(reused.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
  })

  test("'Confiar en este dispositivo 30 días' skips the code on that browser only", async () => {
    const member = await enrolled()
    const step = await signInWithPassword(member.email, member.password)
    const trusted = await auth(
      '/auth?tab=codigo',
      { intent: 'two-factor', code: await codeOf(member.totpURI), trustDevice: 'on' },
      step.cookie,
    )
    const browser = cookiesFrom(trusted.headers, step.cookie)
    // Signed out, the same browser (its trust cookie) signs in with the password alone; another browser still needs the code.
    const withoutSession = browser
      .split('; ')
      .filter((pair) => !pair.includes('session_token'))
      .join('; ')
    const again = await signInWithPassword(member.email, member.password, withoutSession)
    expect(again.outcome.location).not.toContain('tab=codigo')
    const elsewhere = await signInWithPassword(member.email, member.password)
    expect(elsewhere.outcome.location).toBe('/auth?tab=codigo')
  })

  test('five wrong codes end the challenge: the password is asked again', async () => {
    const member = await enrolled()
    const step = await signInWithPassword(member.email, member.password)
    const outcomes = []
    for (let i = 0; i < 6; i++)
      outcomes.push((await auth('/auth?tab=codigo', { intent: 'two-factor', code: '000000' }, step.cookie)).data.message.title)
    expect(outcomes.slice(0, 5).every((title) => title === TWO_FACTOR_MESSAGES.wrongCode)).toBe(true)
    expect([TWO_FACTOR_MESSAGES.locked, TWO_FACTOR_MESSAGES.expired]).toContain(outcomes[5])
    const right = await auth('/auth?tab=codigo', { intent: 'two-factor', code: await codeOf(member.totpURI) }, step.cookie)
    expect(right.status).not.toBe(302)
  })
})

describe('turning it off', () => {
  test('needs the password and a code; done, sign-in asks the password only; audited and e-mailed', async () => {
    const member = await enrolled()
    const noCode = await profile({ intent: 'two-factor-disable', password: member.password, code: '000000' }, member.cookie)
    expect(noCode.status).toBe(400)
    expect(noCode.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    const noPassword = await profile({ intent: 'two-factor-disable', password: 'otra', code: await codeOf(member.totpURI) }, member.cookie)
    expect(noPassword.data.message.title).toBe('La contraseña actual no es correcta')
    const off = await profile(
      { intent: 'two-factor-disable', password: member.password, code: await codeOf(member.totpURI) },
      member.cookie,
    )
    expect(off.status).toBe(302)
    expect(await readToast(off.headers)).toMatchObject({ title: 'Verificación en dos pasos desactivada' })
    expect(await queuedMails(member.email, 'Verificación en dos pasos desactivada')).toHaveLength(1)
    const { outcome } = await signInWithPassword(member.email, member.password)
    expect(outcome.location).toBe('/comunidad')
  })

  test('turned on again, it ends the other sessions and forgets the browsers trusted before it was turned off', async () => {
    const member = await enrolled()
    const ip = '198.51.100.14'
    const step = await signInWithPassword(member.email, member.password, '', ip)
    const trusted = await auth(
      '/auth?tab=codigo',
      { intent: 'two-factor', code: await codeOf(member.totpURI), trustDevice: 'on' },
      step.cookie,
      ip,
    )
    const laptop = cookiesFrom(trusted.headers, step.cookie)
    const off = await profile({ intent: 'two-factor-disable', password: member.password, code: member.backupCodes[0]! }, member.cookie)
    expect(off.status).toBe(302)
    const again = await enrolled({ ...member, cookie: cookiesFrom(off.headers, member.cookie) })
    expect(await isSignedIn(laptop)).toBe(false)
    const withoutSession = laptop
      .split('; ')
      .filter((pair) => !pair.includes('session_token'))
      .join('; ')
    const { outcome } = await signInWithPassword(member.email, member.password, withoutSession, ip)
    expect(outcome.location).toBe('/auth?tab=codigo')
    expect(await isSignedIn(again.cookie)).toBe(true)
  })

  test('a recovery code turns it off too (a lost phone)', async () => {
    const member = await enrolled()
    const off = await profile({ intent: 'two-factor-disable', password: member.password, code: member.backupCodes[3]! }, member.cookie)
    expect(off.status).toBe(302)
  })
})

// Review S4: a code read over a member's shoulder, or relayed by a phishing page with the password,
// must not open a second session. Each test signs in from its own address (20 codes per 5 minutes each).
describe('a code works once', () => {
  const codeStep = (cookie: string, code: string, ip: string) => auth('/auth?tab=codigo', { intent: 'two-factor', code }, cookie, ip)

  test('the code that turned two-factor on cannot sign in with the password, nor turn it off', async () => {
    const member = await enrolled()
    const ip = '198.51.100.11'
    const step = await signInWithPassword(member.email, member.password, '', ip)
    const replayed = await codeStep(step.cookie, member.confirmingCode, ip)
    expect(replayed.status).toBe(400)
    expect(replayed.data.message.title).toBe(TWO_FACTOR_MESSAGES.used)
    expect(await isSignedIn(cookiesFrom(replayed.headers, step.cookie))).toBe(false)
    const off = await profile({ intent: 'two-factor-disable', password: member.password, code: member.confirmingCode }, member.cookie)
    expect(off.status).toBe(400)
    expect(off.data.message.title).toBe(TWO_FACTOR_MESSAGES.used)
    expect((await getDb().select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, member.userId)))[0]!.on).toBe(true)
  })

  test('a code relayed with the password signs in once: the same code again, or an earlier one, is refused; nor does it turn two-factor off', async () => {
    const member = await enrolled()
    const ip = '198.51.100.12'
    const code = await codeAt(member.totpURI, 1)
    const victim = await signInWithPassword(member.email, member.password, '', ip)
    const used = await codeStep(victim.cookie, code, ip)
    expect(used.status).toBe(302)
    expect(await isSignedIn(cookiesFrom(used.headers, victim.cookie))).toBe(true)

    const attacker = await signInWithPassword(member.email, member.password, '', ip)
    const relayed = await codeStep(attacker.cookie, code, ip)
    expect(relayed.status).toBe(400)
    expect(relayed.data.message.title).toBe(TWO_FACTOR_MESSAGES.used)
    const earlier = await codeStep(attacker.cookie, await codeAt(member.totpURI, 0), ip)
    expect(earlier.status).toBe(400)
    expect(earlier.data.message.title).toBe(TWO_FACTOR_MESSAGES.used)
    expect(await isSignedIn(cookiesFrom(earlier.headers, attacker.cookie))).toBe(false)

    const off = await profile({ intent: 'two-factor-disable', password: member.password, code }, member.cookie)
    expect(off.status).toBe(400)
    expect(off.data.message.title).toBe(TWO_FACTOR_MESSAGES.used)
  })

  concurrencyTest('the same code sent from three sign-ins at once opens exactly one session', async () => {
    const member = await enrolled()
    const ip = '198.51.100.13'
    const code = await codeAt(member.totpURI, 1)
    const challenges = []
    for (let i = 0; i < 3; i++) challenges.push(await signInWithPassword(member.email, member.password, '', ip))
    const outcomes = await Promise.all(challenges.map((challenge) => codeStep(challenge.cookie, code, ip)))
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([302, 400, 400])
    for (const refused of outcomes.filter((outcome) => outcome.status === 400))
      expect(refused.data.message.title).toBe(TWO_FACTOR_MESSAGES.used)
    // The enrolment's own session, and the one that won.
    expect(await getDb().select({ id: session.id }).from(session).where(eq(session.userId, member.userId))).toHaveLength(2)
  })
})
