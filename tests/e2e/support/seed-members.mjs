// Seeds the e2e data folder with a pool of signed-in members, before the server starts: the
// server holds the PGlite folder (one process, a lock), so tests cannot write to it while it runs.
// Run by serve-snapshot.mjs in the snapshot folder, with the server's environment.
//
// 1. The built bundle opens the database once (openForCli: lock, migrations) and closes it.
// 2. Our own PGlite connection inserts, per persona, confirmed members (user, credential account,
//    profile, role) and one session each; complete profiles get their avatar file too.
// 3. The session cookie is the token signed as better-auth signs it (better-call's
//    signCookieValue: HMAC-SHA256 with AUTH_SECRET, base64); the fixture (fixtures.ts) checks
//    each cookie against the server before a test uses it. The members go to
//    $E2E_STATE_DIR/members.json.
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { hashPassword } from 'better-auth/crypto'
import sharp from 'sharp'

/** How many of each: a test takes fresh ones and never gives them back (a retry takes new ones too). */
const PERSONAS = {
  member: { count: 40 }, // confirmed, profile with the sign-up names only (2/5)
  complete: { count: 20, complete: true },
  premium: { count: 90, complete: true, premium: true },
  admin: { count: 20, complete: true, role: 'admin' },
  moderator: { count: 4, complete: true, role: 'moderator' },
  // Billing part B (issue 40): a subscription of the local test checkout whose renewal failed, and
  // one cancelled at the end of its period (12 January 2027).
  pastDue: { count: 3, complete: true, subscription: 'past_due' },
  cancelling: { count: 3, complete: true, subscription: 'cancelling' },
}
const PASSWORD = 'Clave-segura-2026'
const COOKIE = 'better-auth.session_token'
const AVATAR_VERSION = 1700000000000

// Two surnames from disjoint lists make every member's name unique (14 × 14), with accents, so a
// directory search for one member's folded surnames finds that member alone.
const FIRST = 'Ana Bruno Carla Diego Elena Íñigo Lucía Álvaro Inés Marta Óscar Raquel'.split(' ')
const SURNAME_A = 'Sáez Núñez Ibáñez Gómez Martínez Pérez Díaz Fernández Muñoz Jiménez Rodríguez Sánchez López Romero'.split(' ')
const SURNAME_B = 'Vidal Campos Ortiz Fuentes Prieto Calvo Serrano Molina Cabrera Morales Blanco Rubio Castro Vega'.split(' ')
const COMPANY = ['Laboratorios Ibéricos', 'MedTech Levante', 'Genómica Atlántica', 'Farma Norte', 'BioGalicia', 'Diagnóstico Sur']
const POSITION = ['Directora Médica', 'VP Comercial', 'Directora de Acceso al Mercado', 'Director General', 'CEO', 'Gerente de Producto']

const dataDir = process.env.DATA_DIR.replace(/\/+$/, '')
const stateDir = process.env.E2E_STATE_DIR
const secret = process.env.AUTH_SECRET
if (!stateDir || !secret) throw new Error('E2E_STATE_DIR and AUTH_SECRET are set by playwright.config.ts')

const app = await import(pathToFileURL(path.join(process.cwd(), 'build/server/index.js')).href)
await app.openForCli()
await app.shutDown()

const passwordHash = await hashPassword(PASSWORD)
const avatar = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#2d6a8a' } })
  .webp()
  .toBuffer()
const literal = (value) => (value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`)

/** A test-checkout subscription (decisions/0007's 'Modo de prueba') in the state the persona names. */
function subscriptionRows(userId, kind) {
  const customer = literal(`test_cus_${userId}`)
  const failing = kind === 'past_due'
  return `UPDATE profiles SET stripe_customer_id = ${customer} WHERE user_id = ${literal(userId)};
INSERT INTO subscriptions (id, user_id, customer_id, status, plan, monthly_cents, currency, current_period_end, cancel_at_period_end,
  started_at, canceled_at, payment_failed_at, failing_invoice_id, failure_notified_invoice_id)
VALUES (${literal(`test_sub_${userId}`)}, ${literal(userId)}, ${customer}, ${literal(failing ? 'past_due' : 'active')}, 'monthly', 8900, 'eur',
  ${failing ? "now() - interval '1 day'" : "'2027-01-12T12:00:00Z'"}, ${failing ? 'false' : 'true'}, now() - interval '60 days',
  ${failing ? 'NULL' : 'now()'}, ${failing ? 'now()' : 'NULL'}, ${failing ? "'test_in_1'" : 'NULL'}, ${failing ? "'test_in_1'" : 'NULL'});`
}

const pool = {}
const rows = []
let index = 0
for (const [persona, { count, complete = false, premium: granted = false, role, subscription }] of Object.entries(PERSONAS)) {
  const premium = granted || Boolean(subscription)
  pool[persona] = []
  for (let n = 0; n < count; n++, index++) {
    if (index >= SURNAME_A.length * SURNAME_B.length) throw new Error('More members than unique names: add surnames')
    const id = randomUUID()
    const token = randomBytes(24).toString('base64url')
    const firstName = FIRST[index % FIRST.length]
    const lastName = `${SURNAME_A[index % SURNAME_A.length]} ${SURNAME_B[Math.floor(index / SURNAME_A.length)]}`
    const member = {
      id,
      persona,
      email: `e2e-${persona}-${n + 1}@example.com`,
      password: PASSWORD,
      firstName,
      lastName,
      name: `${firstName} ${lastName}`,
      company: complete ? COMPANY[index % COMPANY.length] : null,
      position: complete ? POSITION[index % POSITION.length] : null,
      avatarUrl: complete ? `/uploads/avatars/${id}/avatar_${AVATAR_VERSION}_seed.webp?v=${AVATAR_VERSION}` : null,
      cookie: { name: COOKIE, value: encodeURIComponent(`${token}.${createHmac('sha256', secret).update(token).digest('base64')}`) },
    }
    pool[persona].push(member)
    if (complete) {
      const file = path.join(dataDir, 'uploads', 'avatars', id, `avatar_${AVATAR_VERSION}_seed.webp`)
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, avatar)
    }
    const v = (values, ...sql) => `(${[...values.map(literal), ...sql].join(', ')})`
    rows.push(`
INSERT INTO "user" (id, name, email, email_verified, first_name, last_name) VALUES ${v([id, member.name, member.email, true, firstName, lastName])};
INSERT INTO account (id, account_id, provider_id, user_id, password) VALUES ${v([randomUUID(), id, 'credential', id, passwordHash])};
INSERT INTO profiles (user_id, first_name, last_name, company, position, avatar_url, is_premium, premium_source, welcomed_at)
VALUES ${v([id, firstName, lastName, member.company, member.position, member.avatarUrl, premium, subscription ? 'subscription' : premium ? 'admin' : null], 'now()')};
${subscription ? subscriptionRows(id, subscription) : ''}
INSERT INTO session (id, token, user_id, expires_at, ip_address, user_agent) VALUES ${v([randomUUID(), token, id], "now() + interval '30 days'", "'127.0.0.1'", "'e2e seed'")};
${role ? `INSERT INTO user_roles (user_id, role) VALUES ${v([id, role])};` : ''}`)
  }
}

// The suite's server runs on PGlite in its own data folder; a journey that takes the database
// away runs a second server on PostgreSQL (resilience.spec.ts), seeded the same way.
if (process.env.DATABASE_URL) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query(`BEGIN;${rows.join('')}COMMIT;`)
  } finally {
    await client.end()
  }
} else {
  const pglite = await PGlite.create(`${dataDir}/db`, { extensions: { unaccent, pg_trgm } })
  try {
    await pglite.exec(`BEGIN;${rows.join('')}COMMIT;`)
  } finally {
    await pglite.close()
  }
}
mkdirSync(stateDir, { recursive: true })
writeFileSync(path.join(stateDir, 'members.json'), JSON.stringify(pool))
console.log(
  `E2E: seeded ${index} members (${Object.entries(pool)
    .map(([persona, list]) => `${list.length} ${persona}`)
    .join(', ')})`,
)
