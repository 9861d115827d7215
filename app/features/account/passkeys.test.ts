import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog } from '~/platform/audit/schema'
import { passkey } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { cookiesFrom, createConfirmedUser, formRequest, getRequest, queuedMails, readToast, run } from '../../../tests/setup/requests'
import { codeOf, enrolled } from '../../../tests/setup/two-factor'
import { addPasskey, signInWithPasskey, softwareAuthenticator } from '../../../tests/setup/webauthn'
import { TWO_FACTOR_MESSAGES } from './auth-action.server'
import * as authRoute from './auth.route'
import { PASSKEY_MESSAGES } from './passkeys.server'
import { SECOND_FACTOR_MESSAGE } from './profile-schemas'
import * as profileRoute from './profile.route'

// Passkeys' cryptography is better-auth's (and @simplewebauthn's); the real ceremony runs in
// Chromium's virtual authenticator (tests/e2e/security.spec.ts). Here: what our actions let through.

useTestDatabase()

const context = { cspNonce: 'test' }
const profile = (fields: Record<string, string>, cookie?: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', fields, { cookie }), params: {}, context } as any))
const auth = (fields: Record<string, string>, cookie?: string) =>
  run(() => authRoute.action({ request: formRequest('/auth', fields, { cookie }), params: {}, context } as any))

/** A browser's answer in the right shape, signed by nobody. */
const forged = (id = 'Y3JlZGVuY2lhbA') =>
  JSON.stringify({
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', attestationObject: 'oA', authenticatorData: 'AA', signature: 'AA' },
  })

async function storedPasskey(userId: string, name = 'Chrome en Linux') {
  const id = crypto.randomUUID()
  await getDb()
    .insert(passkey)
    .values({ id, name, userId, publicKey: 'pk', credentialID: `cred-${id}`, counter: 0, deviceType: 'singleDevice', backedUp: false })
  return id
}

describe('adding a passkey in /perfil', () => {
  test('the options come with their challenge cookie, for this site; a forged or malformed answer is refused and nothing is stored', async () => {
    const member = await createConfirmedUser()
    const options = await profile({ intent: 'passkey-options', password: member.password }, member.cookie)
    expect(options.status).toBe(200)
    expect(options.data.passkeyOptions).toMatchObject({ rp: { name: 'Círculo CEO', id: 'localhost' }, challenge: expect.any(String) })
    expect(options.headers.getSetCookie().some((cookie) => cookie.includes('better-auth-passkey'))).toBe(true)
    const withChallenge = cookiesFrom(options.headers, member.cookie)

    for (const response of [forged(), '{"no":"id"}', 'no es json', `"${'x'.repeat(20_001)}"`]) {
      const refused = await profile({ intent: 'passkey-add', response }, withChallenge)
      expect(refused.status).toBe(400)
      expect(refused.data.message.title).toBe(PASSKEY_MESSAGES.failed)
    }
    // Without the options' cookie there is no challenge to answer.
    expect((await profile({ intent: 'passkey-add', response: forged() }, member.cookie)).status).toBe(400)
    expect(await getDb().select().from(passkey).where(eq(passkey.userId, member.userId))).toEqual([])
    // Signed out: to sign in first.
    expect((await profile({ intent: 'passkey-options' })).location).toMatch(/^\/auth/)
  })

  test('the list shows the member’s own; removing one is audited and e-mailed; another member’s is not found', async () => {
    const member = await createConfirmedUser()
    const other = await createConfirmedUser()
    const mine = await storedPasskey(member.userId)
    const theirs = await storedPasskey(other.userId, 'Safari en iPhone')
    const page = await run(() =>
      profileRoute.loader({ request: getRequest('/perfil', { cookie: member.cookie }), params: {}, context } as any),
    )
    expect(page.data.passkeys).toEqual([{ id: mine, name: 'Chrome en Linux', createdAt: expect.any(String), backedUp: false }])

    const foreign = await profile({ intent: 'passkey-remove', passkeyId: theirs }, member.cookie)
    expect(foreign.status).toBe(404)
    expect(foreign.data.message.title).toBe(PASSKEY_MESSAGES.notFound)
    expect(await getDb().select({ id: passkey.id }).from(passkey).where(eq(passkey.id, theirs))).toHaveLength(1)

    const removed = await profile({ intent: 'passkey-remove', passkeyId: mine }, member.cookie)
    expect(removed.location).toBe('/perfil#seguridad')
    expect(await readToast(removed.headers)).toMatchObject({ title: PASSKEY_MESSAGES.removed })
    expect(await getDb().select().from(passkey).where(eq(passkey.userId, member.userId))).toEqual([])
    expect(await queuedMails(member.email, 'Llave de acceso eliminada')).toHaveLength(1)
    const [line] = await getDb()
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, member.userId))
    expect(line).toEqual({ action: 'passkey_removed', details: { name: 'Chrome en Linux' } })
  })
})

// Review S6: a passkey signs in without the app's code and survives a password change, so a cookie
// stolen less than a day ago (better-auth's fresh session) must not be enough to add one.
describe('adding a passkey asks who is there, as every change to how one signs in does', () => {
  const challengeSet = (outcome: { headers: Headers }) =>
    outcome.headers.getSetCookie().some((cookie) => cookie.includes('better-auth-passkey'))

  test('a stolen session cannot add a passkey: the password comes first; with it the passkey is added, audited, e-mailed and signs in', async () => {
    const member = await createConfirmedUser()
    const key = softwareAuthenticator()
    const none = await addPasskey(key, member.cookie, {})
    expect(none.options.status).toBe(400)
    expect(JSON.stringify(none.options.data)).toContain('La contraseña actual es requerida')
    expect(challengeSet(none.options)).toBe(false)
    const wrong = await addPasskey(key, member.cookie, { password: 'no-es-la-clave' })
    expect(wrong.options.status).toBe(400)
    expect(wrong.options.data.message.title).toBe('La contraseña actual no es correcta')
    expect(challengeSet(wrong.options)).toBe(false)
    expect(await getDb().select().from(passkey).where(eq(passkey.userId, member.userId))).toEqual([])

    const { added } = await addPasskey(key, member.cookie, { password: member.password })
    expect(added!.location).toBe('/perfil#seguridad')
    expect(await readToast(added!.headers)).toMatchObject({ title: PASSKEY_MESSAGES.added })
    expect(await getDb().select({ userId: passkey.userId }).from(passkey).where(eq(passkey.userId, member.userId))).toHaveLength(1)
    expect(await queuedMails(member.email, 'Nueva llave de acceso')).toHaveLength(1)
    const [line] = await getDb().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetUserId, member.userId))
    expect(line).toEqual({ action: 'passkey_added' })
    expect(await signInWithPasskey(key)).toContain('session_token')
  })

  test('with two-factor sign-in on, a code is asked too: none or a wrong one is refused', async () => {
    const member = await enrolled()
    const key = softwareAuthenticator()
    const noCode = await addPasskey(key, member.cookie, { password: member.password })
    expect(noCode.options.status).toBe(400)
    expect(noCode.options.data.message.title).toBe(SECOND_FACTOR_MESSAGE)
    expect(challengeSet(noCode.options)).toBe(false)
    const wrongCode = await addPasskey(key, member.cookie, { password: member.password, code: '000000' })
    expect(wrongCode.options.status).toBe(400)
    expect(wrongCode.options.data.message.title).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    const { added } = await addPasskey(key, member.cookie, { password: member.password, code: await codeOf(member.totpURI) })
    expect(added!.location).toBe('/perfil#seguridad')
    expect(await getDb().select({ userId: passkey.userId }).from(passkey).where(eq(passkey.userId, member.userId))).toHaveLength(1)
  })
})

describe('signing in with a passkey on /auth', () => {
  test('anyone gets options; an unknown or forged passkey signs nobody in, with a Spanish message', async () => {
    const options = await auth({ intent: 'passkey-options' })
    expect(options.status).toBe(200)
    expect(options.data.passkeyOptions).toMatchObject({ rpId: 'localhost', challenge: expect.any(String) })
    const cookie = cookiesFrom(options.headers)

    const unknown = await auth({ intent: 'passkey-signin', response: forged() }, cookie)
    expect(unknown.status).toBe(400)
    expect(unknown.data.message.title).toBe(PASSKEY_MESSAGES.unknown)
    expect(unknown.headers.getSetCookie().some((c) => c.includes('session_token'))).toBe(false)

    // A real member's credential id with a signature nobody made.
    const member = await createConfirmedUser()
    const id = await storedPasskey(member.userId)
    const again = cookiesFrom((await auth({ intent: 'passkey-options' })).headers)
    const [stored] = await getDb().select({ credentialID: passkey.credentialID }).from(passkey).where(eq(passkey.id, id))
    const refused = await auth({ intent: 'passkey-signin', response: forged(stored!.credentialID) }, again)
    expect(refused.status).toBe(400)
    expect(refused.data.message.title).toBe(PASSKEY_MESSAGES.failed)
    expect(refused.headers.getSetCookie().some((c) => c.includes('session_token'))).toBe(false)

    // Malformed and oversized answers.
    for (const response of ['', 'no es json', 'x'.repeat(20_001)]) {
      expect((await auth({ intent: 'passkey-signin', response }, again)).status).toBe(400)
    }
  })
})
