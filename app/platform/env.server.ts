import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  AUTH_SECRET: optionalString.pipe(z.string().min(32).optional()),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Círculo CEO <no-reply@localhost>'),
  // How long notification e-mail waits to gather a burst into one message (Discourse waits 10 min too).
  EMAIL_BATCH_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: optionalString,
  // The memory the server may use (MiB; 0: none). `npm start` turns it into Node's heap flags
  // (scripts/memory.js); the server warns when it was started without them.
  MEMORY_LIMIT_MB: z.coerce
    .number()
    .int()
    .refine((value) => value === 0 || value >= 256, 'must be 0 or at least 256')
    .default(512),
  // How long a stopping process goes on serving, /readyz answering 503, before it closes its
  // listener: a load balancer polling /readyz every few seconds stops sending first (server.js).
  // 0 on a laptop and in tests; the image sets 5.
  SHUTDOWN_DELAY_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds from 0 to 60' })
    .int('must be a whole number of seconds from 0 to 60')
    .min(0, 'must be a whole number of seconds from 0 to 60')
    .max(60, 'must be a whole number of seconds from 0 to 60')
    .default(0),
  // Read where they act (decisions/0036), listed here with the rest: the server processes `npm start`
  // runs (scripts/workers.js), the metrics' private port and address (server/metrics-server.js), and
  // OpenTelemetry's own variables, which turn tracing on (scripts/start.js, server/tracing.js).
  WEB_CONCURRENCY: optionalString,
  METRICS_PORT: optionalString,
  METRICS_HOST: optionalString,
  OTEL_TRACES_EXPORTER: optionalString,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  // Comma-separated e-mails that become admins at their first confirmed sign-in (bootstrap).
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
  // Admins use the console and the admin tools only with two-factor sign-in on (issue 27);
  // 'optional' lets a first install's admins in before they enrol (the server warns at start).
  ADMIN_TWO_FACTOR: z.enum(['required', 'optional']).default('required'),
  PAYMENTS_PROVIDER: z.enum(['stripe', 'test', 'manual']).optional(),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_MONTHLY: optionalString,
  STRIPE_PRICE_ANNUAL: optionalString,
  // IVA (decisions/0033): Stripe Tax computes it (and the EU reverse charge) when on; otherwise the
  // inclusive tax rate (txr_…, 21 % for Spain) is put on the checkout's line. Never both.
  STRIPE_AUTOMATIC_TAX: z
    .enum(['1', '0', 'true', 'false', ''])
    .default('')
    .transform((value) => value === '1' || value === 'true'),
  STRIPE_TAX_RATE_ID: optionalString.pipe(
    z
      .string()
      .regex(/^txr_[A-Za-z0-9]+$/, 'must be a Stripe tax rate id (txr_…)')
      .optional(),
  ),
  // Points the Stripe SDK at another API host (stripe-mock, a local fake); tests only.
  STRIPE_API_BASE: optionalString.pipe(z.url().optional()),
  // Mux video (optional): set MUX_TOKEN_ID and the rest become required (parseEnv).
  MUX_TOKEN_ID: optionalString,
  MUX_TOKEN_SECRET: optionalString,
  MUX_WEBHOOK_SECRET: optionalString,
  MUX_SIGNING_KEY_ID: optionalString,
  // The base64 of the PEM, as Mux's dashboard gives it, so it fits on one line of .env.
  MUX_SIGNING_PRIVATE_KEY: optionalString,
  // Points the Mux SDK at another API host (a local fake); tests only.
  MUX_API_BASE: optionalString.pipe(z.url().optional()),
  // Web push (issue 42): the VAPID key pair `npm run vapid` prints, and whom push services may
  // write to (mailto: or https:). All three or none.
  VAPID_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'must be the public key npm run vapid printed (87 base64url characters)')
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the private key npm run vapid printed (43 base64url characters)')
      .optional(),
  ),
  VAPID_SUBJECT: optionalString.pipe(
    z
      .string()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be mailto:you@your.domain or an https:// address')
      .optional(),
  ),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('auto'),
  S3_ENDPOINT: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((value) => value === 'true'),
})

export type Env = Omit<z.infer<typeof EnvSchema>, 'PAYMENTS_PROVIDER'> & {
  APP_URL: string
  AUTH_SECRET: string
  /** Web push's keys: the environment's, a laptop's generated ones, or null (a public site without them: no push). */
  vapid: VapidKeys | null
  /** stripe: Stripe keys set; test: the local test checkout (laptops only); manual: premium only by admins. */
  PAYMENTS_PROVIDER: 'stripe' | 'test' | 'manual'
  /** true when APP_URL is not a loopback address: a real deployment with real members */
  isPublic: boolean
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export function isLoopbackUrl(url: string) {
  const { hostname } = new URL(url)
  return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost')
}

/**
 * Reads and checks the configuration once. A public deployment must configure
 * what a laptop may leave out: without real mail, members could never confirm
 * their address; without a fixed secret every restart would sign everyone out.
 */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const parsed = result.data
  const appUrl = (parsed.APP_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '')
  const isPublic = !isLoopbackUrl(appUrl)
  const stripeComplete = Boolean(
    parsed.STRIPE_SECRET_KEY && parsed.STRIPE_WEBHOOK_SECRET && parsed.STRIPE_PRICE_MONTHLY && parsed.STRIPE_PRICE_ANNUAL,
  )
  const paymentsProvider = parsed.PAYMENTS_PROVIDER ?? (parsed.STRIPE_SECRET_KEY ? 'stripe' : isPublic ? undefined : 'test')
  if (paymentsProvider === 'stripe' && !stripeComplete) {
    throw new Error('Stripe payments need STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_MONTHLY and STRIPE_PRICE_ANNUAL')
  }
  if (parsed.STRIPE_AUTOMATIC_TAX && parsed.STRIPE_TAX_RATE_ID) {
    throw new Error('Choose one way to charge IVA: STRIPE_AUTOMATIC_TAX=1 (Stripe Tax) or STRIPE_TAX_RATE_ID, not both')
  }
  if (parsed.MUX_TOKEN_ID) {
    if (!(parsed.MUX_TOKEN_SECRET && parsed.MUX_WEBHOOK_SECRET && parsed.MUX_SIGNING_KEY_ID && parsed.MUX_SIGNING_PRIVATE_KEY)) {
      throw new Error('Mux video needs MUX_TOKEN_ID, MUX_TOKEN_SECRET, MUX_WEBHOOK_SECRET, MUX_SIGNING_KEY_ID and MUX_SIGNING_PRIVATE_KEY')
    }
    // Checked here rather than at the first playback, when a member would get the error.
    if (!isPemOrBase64Pem(parsed.MUX_SIGNING_PRIVATE_KEY)) {
      throw new Error('MUX_SIGNING_PRIVATE_KEY must be the signing key Mux gave: the base64 of a PEM private key')
    }
  }
  const vapidSet = [parsed.VAPID_PUBLIC_KEY, parsed.VAPID_PRIVATE_KEY, parsed.VAPID_SUBJECT].filter(Boolean).length
  if (vapidSet > 0 && vapidSet < 3)
    throw new Error('Web push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (npm run vapid prints them)')
  if (isPublic) {
    const missing = [
      !parsed.AUTH_SECRET && 'AUTH_SECRET (at least 32 characters)',
      !parsed.SMTP_URL && 'SMTP_URL (members must receive confirmation e-mails)',
      !paymentsProvider && 'STRIPE_* keys, or PAYMENTS_PROVIDER=manual (premium granted only by admins)',
      paymentsProvider === 'test' && 'a real payments provider: the test checkout never runs on a public address',
    ].filter(Boolean)
    if (missing.length > 0) {
      throw new Error(`APP_URL ${appUrl} is a public address, so these settings are required:\n  ${missing.join('\n  ')}`)
    }
  }
  return {
    ...parsed,
    APP_URL: appUrl,
    AUTH_SECRET: parsed.AUTH_SECRET ?? localSecret(parsed.DATA_DIR),
    vapid:
      parsed.VAPID_PUBLIC_KEY && parsed.VAPID_PRIVATE_KEY && parsed.VAPID_SUBJECT
        ? { publicKey: parsed.VAPID_PUBLIC_KEY, privateKey: parsed.VAPID_PRIVATE_KEY, subject: parsed.VAPID_SUBJECT }
        : isPublic
          ? null
          : localVapidKeys(parsed.DATA_DIR),
    PAYMENTS_PROVIDER: paymentsProvider ?? 'manual',
    isPublic,
  }
}

function isPemOrBase64Pem(value: string) {
  const pem = value.startsWith('-----BEGIN') ? value : Buffer.from(value, 'base64').toString('utf8')
  return /^-----BEGIN (RSA )?PRIVATE KEY-----/.test(pem)
}

/** A laptop install keeps a generated secret in the data folder so sessions survive restarts. */
function localSecret(dataDir: string) {
  const file = path.join(dataDir, 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url: what the browser's PushManager.subscribe is given. */
  publicKey: string
  privateKey: string
  subject: string
}

/** A new VAPID key pair (P-256), base64url as web push wants it; also what `npm run vapid` prints. */
function generateVapidKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const point = publicKey.export({ format: 'jwk' })
  const secret = privateKey.export({ format: 'jwk' })
  const bytes = (value: string | undefined) => Buffer.from(value ?? '', 'base64url')
  return {
    publicKey: Buffer.concat([Buffer.from([4]), bytes(point.x), bytes(point.y)]).toString('base64url'),
    privateKey: bytes(secret.d).toString('base64url'),
  }
}

/**
 * Like the auth secret, a laptop's VAPID keys are generated once and kept in the data folder:
 * push works with no configuration, and browsers' subscriptions (bound to the public key)
 * survive restarts. A public site sets its own (several processes must share them) or has none.
 */
function localVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, 'vapid-keys.json')
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as VapidKeys
  mkdirSync(dataDir, { recursive: true })
  const keys = { ...generateVapidKeys(), subject: 'mailto:no-reply@localhost' }
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
  return keys
}

let current: Env | undefined

export function getEnv(): Env {
  current ??= parseEnv()
  return current
}

/** Tests set their own configuration. */
export function setEnv(env: Env) {
  current = env
}

const SECRET_VARIABLES = [
  'AUTH_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'MUX_TOKEN_SECRET',
  'MUX_WEBHOOK_SECRET',
  'MUX_SIGNING_PRIVATE_KEY',
  'S3_SECRET_ACCESS_KEY',
  'VAPID_PRIVATE_KEY',
] as const

/**
 * A text (a job's last error) fit to show an admin: the configured secrets, the passwords of
 * connection addresses (SMTP, database) and anything shaped like an API key or token are hidden.
 */
export function redactSecrets(text: string, env: Env = getEnv()) {
  let redacted = text
  for (const name of SECRET_VARIABLES) {
    const value = env[name]
    if (value && value.length >= 8) redacted = redacted.split(value).join('[oculto]')
  }
  return redacted
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi, '$1[oculto]@')
    .replace(/\b(sk|rk|pk|whsec)_(live|test)?_?[A-Za-z0-9]{8,}/g, '[oculto]')
    .replace(/\b(bearer|token|password|secret|apikey|api_key)(["'\s:=]+)[^\s"',;]+/gi, '$1$2[oculto]')
}
