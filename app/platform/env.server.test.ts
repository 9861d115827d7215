import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { isLoopbackUrl, parseEnv } from './env.server'

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'env-test-'))

describe('configuration', () => {
  test('IVA (decisions/0033): Stripe Tax or a tax rate id, never both; a tax rate must be a txr_ id', () => {
    const dir = dataDir()
    expect(parseEnv({ DATA_DIR: dir }).STRIPE_AUTOMATIC_TAX).toBe(false)
    expect(parseEnv({ DATA_DIR: dir }).STRIPE_TAX_RATE_ID).toBeUndefined()
    expect(parseEnv({ DATA_DIR: dir, STRIPE_AUTOMATIC_TAX: '1' }).STRIPE_AUTOMATIC_TAX).toBe(true)
    expect(parseEnv({ DATA_DIR: dir, STRIPE_TAX_RATE_ID: 'txr_1Abc' }).STRIPE_TAX_RATE_ID).toBe('txr_1Abc')
    expect(() => parseEnv({ DATA_DIR: dir, STRIPE_TAX_RATE_ID: '21' })).toThrow(/STRIPE_TAX_RATE_ID: must be a Stripe tax rate id/)
    expect(() => parseEnv({ DATA_DIR: dir, STRIPE_AUTOMATIC_TAX: 'yes' })).toThrow(/STRIPE_AUTOMATIC_TAX/)
    expect(() => parseEnv({ DATA_DIR: dir, STRIPE_AUTOMATIC_TAX: 'true', STRIPE_TAX_RATE_ID: 'txr_1Abc' })).toThrow(/not both/)
  })

  test('runs with nothing configured: localhost URL from PORT, a generated secret kept in the data folder', () => {
    const dir = dataDir()
    const env = parseEnv({ PORT: '4123', DATA_DIR: dir })
    expect(env.APP_URL).toBe('http://localhost:4123')
    expect(env.isPublic).toBe(false)
    expect(env.AUTH_SECRET).toMatch(/^[0-9a-f]{64}$/)
    expect(readFileSync(path.join(dir, 'auth-secret'), 'utf8')).toBe(env.AUTH_SECRET)
    expect(parseEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(env.AUTH_SECRET)
  })

  test('web push keys (issue 42): generated once into the data folder on a laptop, all three or none, none on a public site without them', () => {
    const dir = dataDir()
    const local = parseEnv({ DATA_DIR: dir }).vapid!
    expect(local.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
    expect(Buffer.from(local.publicKey, 'base64url')[0]).toBe(4)
    expect(local.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(JSON.parse(readFileSync(path.join(dir, 'vapid-keys.json'), 'utf8'))).toEqual(local)
    expect(parseEnv({ DATA_DIR: dir }).vapid).toEqual(local)
    const keys = { VAPID_PUBLIC_KEY: local.publicKey, VAPID_PRIVATE_KEY: local.privateKey, VAPID_SUBJECT: 'mailto:ops@circulo.example' }
    expect(parseEnv({ DATA_DIR: dataDir(), ...keys }).vapid).toEqual({ ...local, subject: 'mailto:ops@circulo.example' })
    expect(() => parseEnv({ DATA_DIR: dir, VAPID_PUBLIC_KEY: local.publicKey })).toThrow(
      /VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT/,
    )
    expect(() => parseEnv({ DATA_DIR: dir, ...keys, VAPID_PUBLIC_KEY: 'short' })).toThrow(/VAPID_PUBLIC_KEY: must be the public key/)
    expect(() => parseEnv({ DATA_DIR: dir, ...keys, VAPID_SUBJECT: 'ops@circulo.example' })).toThrow(/VAPID_SUBJECT: must be mailto/)
    const publicSite = {
      APP_URL: 'https://circulo.example',
      AUTH_SECRET: 's'.repeat(40),
      SMTP_URL: 'smtp://mail.example:587',
      PAYMENTS_PROVIDER: 'manual',
    }
    expect(parseEnv({ ...publicSite, DATA_DIR: dataDir() }).vapid).toBeNull()
    expect(parseEnv({ ...publicSite, ...keys, DATA_DIR: dataDir() }).vapid?.publicKey).toBe(local.publicKey)
  })

  test('a public APP_URL refuses to start without a real secret and SMTP', () => {
    expect(() => parseEnv({ APP_URL: 'https://circulo.example', DATA_DIR: dataDir() })).toThrow(/AUTH_SECRET[\s\S]*SMTP_URL/)
    const env = parseEnv({
      APP_URL: 'https://circulo.example/',
      AUTH_SECRET: 's'.repeat(40),
      SMTP_URL: 'smtp://mail.example:587',
      PAYMENTS_PROVIDER: 'manual',
      DATA_DIR: dataDir(),
    })
    expect(env).toMatchObject({ APP_URL: 'https://circulo.example', isPublic: true })
  })

  test('bad values are reported by name', () => {
    expect(() => parseEnv({ PORT: 'abc', DATA_DIR: dataDir() })).toThrow(/PORT/)
    expect(() => parseEnv({ APP_URL: 'ftp://x', DATA_DIR: dataDir() })).toThrow(/APP_URL/)
    expect(() => parseEnv({ AUTH_SECRET: 'short', DATA_DIR: dataDir() })).toThrow(/AUTH_SECRET/)
  })

  test('SHUTDOWN_DELAY_SECONDS (decisions/0036): 0 unless set, whole seconds up to 60, refused by name otherwise', () => {
    expect(parseEnv({ DATA_DIR: dataDir() }).SHUTDOWN_DELAY_SECONDS).toBe(0)
    expect(parseEnv({ SHUTDOWN_DELAY_SECONDS: '', DATA_DIR: dataDir() }).SHUTDOWN_DELAY_SECONDS).toBe(0)
    expect(parseEnv({ SHUTDOWN_DELAY_SECONDS: '5', DATA_DIR: dataDir() }).SHUTDOWN_DELAY_SECONDS).toBe(5)
    for (const value of ['cinco', '2.5', '-1', '61', '5s']) {
      expect(() => parseEnv({ SHUTDOWN_DELAY_SECONDS: value, DATA_DIR: dataDir() }), value).toThrow(
        'SHUTDOWN_DELAY_SECONDS: must be a whole number of seconds from 0 to 60',
      )
    }
  })

  test('Mux is optional, but once MUX_TOKEN_ID is set every Mux setting is required', () => {
    expect(parseEnv({ DATA_DIR: dataDir() }).MUX_TOKEN_ID).toBeUndefined()
    const key = Buffer.from('-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n').toString('base64')
    const mux = {
      MUX_TOKEN_ID: 'token-id',
      MUX_TOKEN_SECRET: 'token-secret',
      MUX_WEBHOOK_SECRET: 'webhook-secret',
      MUX_SIGNING_KEY_ID: 'signing-key',
      MUX_SIGNING_PRIVATE_KEY: key,
    }
    expect(parseEnv({ ...mux, DATA_DIR: dataDir() })).toMatchObject(mux)
    const message = 'Mux video needs MUX_TOKEN_ID, MUX_TOKEN_SECRET, MUX_WEBHOOK_SECRET, MUX_SIGNING_KEY_ID and MUX_SIGNING_PRIVATE_KEY'
    for (const name of ['MUX_TOKEN_SECRET', 'MUX_WEBHOOK_SECRET', 'MUX_SIGNING_KEY_ID', 'MUX_SIGNING_PRIVATE_KEY'] as const) {
      expect(() => parseEnv({ ...mux, [name]: '', DATA_DIR: dataDir() }), name).toThrow(message)
    }
    expect(() => parseEnv({ ...mux, MUX_SIGNING_PRIVATE_KEY: 'not-a-key', DATA_DIR: dataDir() })).toThrow(/MUX_SIGNING_PRIVATE_KEY must be/)
    expect(() => parseEnv({ ...mux, MUX_API_BASE: 'not a url', DATA_DIR: dataDir() })).toThrow(/MUX_API_BASE/)
  })

  test.each([
    ['http://localhost:3000', true],
    ['http://127.0.0.1:8080', true],
    ['http://app.localhost', true],
    ['https://circulo.example', false],
    ['http://localhost.evil.example', false],
  ])('%s is loopback: %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected)
  })
})

describe('documentation of the configuration', () => {
  test('.env.example lists every variable of the README, and the schema reads each of them', () => {
    const readme = readFileSync('README.md', 'utf8')
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## ', readme.indexOf('## Configuration') + 5))
    const documented = [...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)
    expect(documented.length).toBeGreaterThan(15)
    const example = readFileSync('.env.example', 'utf8')
    const source = readFileSync('app/platform/env.server.ts', 'utf8')
    for (const name of new Set(documented)) {
      expect(example, `${name} in .env.example`).toMatch(new RegExp(`^#? ?${name}=`, 'm'))
      expect(source, `${name} read by env.server.ts`).toContain(name)
    }
  })
})
