import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import * as authRoute from '~/features/account/auth.route'
import * as profileRoute from '~/features/account/profile.route'
import { BASE_URL, cookiesFrom, formRequest, run } from './requests'

/**
 * A passkey authenticator in software, for Vitest: it answers the options our actions hand out as
 * a browser with a platform authenticator would (attestation 'none', ES256), so better-auth's real
 * checks (challenge, origin, signature) run. `userVerified` is whether it asked for the
 * fingerprint or PIN (the UV flag); the real ceremony runs in Chromium (tests/e2e/security.spec.ts).
 */

type Cbor = number | string | Uint8Array | { [key: string]: Cbor } | Map<number | string, Cbor>

/** The little CBOR WebAuthn needs: integers, byte and text strings, maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number) =>
    length < 24
      ? Buffer.from([(major << 5) | length])
      : length < 256
        ? Buffer.from([(major << 5) | 24, length])
        : Buffer.from([(major << 5) | 25, length >> 8, length & 255])
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  const entries = value instanceof Map ? [...value] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest()
const base64url = (data: Buffer) => data.toString('base64url')

export function softwareAuthenticator() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const credentialId = randomBytes(16)
  const jwk = publicKey.export({ format: 'jwk' })
  // COSE EC2 key: kty 2, alg -7 (ES256), crv 1 (P-256), x, y.
  const coseKey = cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  )
  let signCount = 0

  function authenticatorData(rpId: string, userVerified: boolean, attested: boolean) {
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const flags = 0x01 | (userVerified ? 0x04 : 0) | (attested ? 0x40 : 0)
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(++signCount)
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), counter]
    if (attested) {
      const length = Buffer.alloc(2)
      length.writeUInt16BE(credentialId.length)
      parts.push(Buffer.alloc(16), length, credentialId, coseKey)
    }
    return Buffer.concat(parts)
  }

  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: new URL(BASE_URL).origin, crossOrigin: false }))

  return {
    /** The browser's answer to registration options (`passkeyOptions` of /perfil), as JSON text. */
    register(options: { challenge: string; rp: { id: string } }, { userVerified = true } = {}) {
      const authData = authenticatorData(options.rp.id, userVerified, true)
      return JSON.stringify({
        id: base64url(credentialId),
        rawId: base64url(credentialId),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: base64url(clientData('webauthn.create', options.challenge)),
          attestationObject: base64url(cbor({ fmt: 'none', attStmt: {}, authData })),
          transports: ['internal'],
        },
      })
    },
    /** The browser's answer to sign-in options (`passkeyOptions` of /auth), as JSON text. */
    signIn(options: { challenge: string; rpId: string }, { userVerified = true } = {}) {
      const authData = authenticatorData(options.rpId, userVerified, false)
      const clientDataJSON = clientData('webauthn.get', options.challenge)
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey)
      return JSON.stringify({
        id: base64url(credentialId),
        rawId: base64url(credentialId),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: base64url(clientDataJSON),
          authenticatorData: base64url(authData),
          signature: base64url(signature),
        },
      })
    },
  }
}

const context = { cspNonce: 'test' }
const post = (route: { action: (args: any) => unknown }, path: string, fields: Record<string, string>, cookie?: string) =>
  run(() => route.action({ request: formRequest(path, fields, { cookie }), params: {}, context }))

/**
 * Adds a passkey from /perfil as a browser would: the options (with what the form asks: the
 * password, a code), then the authenticator's answer. Returns both answers.
 */
export async function addPasskey(
  key: ReturnType<typeof softwareAuthenticator>,
  cookie: string,
  proof: Record<string, string>,
  { userVerified = true } = {},
) {
  const options = await post(profileRoute, '/perfil', { intent: 'passkey-options', ...proof }, cookie)
  if (options.status !== 200) return { options, added: undefined }
  const response = key.register(options.data.passkeyOptions, { userVerified })
  const added = await post(profileRoute, '/perfil', { intent: 'passkey-add', response }, cookiesFrom(options.headers, cookie))
  return { options, added }
}

/** Signs in on /auth with the passkey; the session's cookie, or '' when refused. */
export async function signInWithPasskey(key: ReturnType<typeof softwareAuthenticator>, { userVerified = true } = {}) {
  const options = await post(authRoute, '/auth', { intent: 'passkey-options' })
  const challenge = cookiesFrom(options.headers)
  const response = key.signIn(options.data.passkeyOptions, { userVerified })
  const signedIn = await post(authRoute, '/auth', { intent: 'passkey-signin', response }, challenge)
  return signedIn.status === 302 ? cookiesFrom(signedIn.headers, challenge) : ''
}
