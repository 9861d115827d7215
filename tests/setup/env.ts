import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setStripe } from '~/features/billing/stripe.server'
import { setVideoProvider } from '~/features/ceo-sessions/video-provider.server'
import { passwordHashing } from '~/features/account/auth.server'
import { parseEnv, setEnv } from '~/platform/env.server'
import { setMailTransport } from '~/platform/mail/mail.server'
import { setStorage } from '~/platform/storage/storage.server'
// What every feature declares (member data, jobs, settings, console entries), as server/app.ts collects it.
import '~/parts.server'

// Every test file gets its own configuration: a localhost app, no SMTP, a throwaway data folder.
setEnv(
  parseEnv({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'circulo-test-')),
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: 'silent',
    // The personas' admins have no second factor; admin-two-factor.test.ts sets 'required'.
    ADMIN_TWO_FACTOR: 'optional',
  }),
)
// Test files share their worker's modules (vitest.config.ts): clients made from the previous
// file's configuration (its data folder, a fake transport) are made again from this one.
setStorage(undefined)
setMailTransport(undefined)
setStripe(undefined)
setVideoProvider(undefined)

// Real hashing costs about 0.1 s per sign-up and per sign-in, most of this suite's time; here a
// cheap scrypt keeps the same contract (salted, compared in constant time).
const cheapScrypt = (password: string, salt: Buffer) => scryptSync(password.normalize('NFKC'), salt, 32, { N: 1024, r: 8, p: 1 })
passwordHashing.hash = async (password) => {
  const salt = randomBytes(16)
  return `${salt.toString('hex')}:${cheapScrypt(password, salt).toString('hex')}`
}
passwordHashing.verify = async ({ hash, password }) => {
  const [salt, key] = hash.split(':')
  return Boolean(salt && key) && timingSafeEqual(cheapScrypt(password, Buffer.from(salt!, 'hex')), Buffer.from(key!, 'hex'))
}
