import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'

// End-to-end tests: the real server (production build) with a throwaway data folder.
// The config is evaluated by the runner and again by every worker: the run's id is
// fixed once in the environment, which the workers and the web server inherit.
// E2E_PORT lets two checkouts run their journeys side by side.
const PORT = Number(process.env.E2E_PORT ?? 3210)
const BASE_URL = `http://localhost:${PORT}`
const TMP_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tests', '.tmp')
if (!process.env.E2E_RUN_ID) pruneOldRuns()
const RUN_ID = (process.env.E2E_RUN_ID ??= String(Date.now()))
const DATA_DIR = path.join(TMP_DIR, `e2e-data-${RUN_ID}`)
// Outside the project: a copy of app/ inside it would be seen by the project's typecheck.
const APP_DIR = path.join(tmpdir(), `circulo-e2e-app-${RUN_ID}`)
const SERVER_LOG = (process.env.E2E_SERVER_LOG ??= path.join(TMP_DIR, `e2e-server-${RUN_ID}.log`))
process.env.E2E_BASE_URL ??= BASE_URL
// The server spec runs the built snapshot as a process of its own too.
process.env.E2E_APP_DIR ??= APP_DIR
process.env.E2E_STATE_DIR ??= path.join(TMP_DIR, `e2e-state-${RUN_ID}`)
mkdirSync(TMP_DIR, { recursive: true })

// Debian's Chromium; Playwright's own browser builds cannot be downloaded here.
const LAUNCH_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
}

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    trace: 'retain-on-failure',
    launchOptions: LAUNCH_OPTIONS,
    // A service worker's fetches escape page.route (and it outlives a journey's page): only the
    // phone journey, which tests it, lets it run (tests/e2e/phone.spec.ts).
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // devices[] names Playwright's own browser build: keep Debian's Chromium.
        launchOptions: LAUNCH_OPTIONS,
      },
    },
  ],
  webServer: {
    // What `node scripts/start.js` does (build, then server.js), but on a snapshot of the
    // sources in APP_DIR: others rebuilding build/ in this shared checkout during a run
    // would otherwise pull the CSS and scripts from under our server (see the script).
    // The server's stdout is the mailbox (no SMTP): tests read the links from this file.
    command: `node tests/e2e/support/serve-snapshot.mjs > "${SERVER_LOG}" 2>&1`,
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      APP_URL: BASE_URL,
      DATA_DIR,
      E2E_APP_DIR: APP_DIR,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      E2E_STATE_DIR: process.env.E2E_STATE_DIR,
      // Known to the seed, which signs the members' session cookies with it (support/seed-members.mjs).
      AUTH_SECRET: 'e2e-only-secret-of-a-throwaway-data-folder',
      // Notification e-mail gathers bursts for 10 minutes in production; seconds here, so the
      // journeys see the e-mail (or its absence) while they run.
      EMAIL_BATCH_SECONDS: '3',
      // The seeded admins sign in by cookie, without a second factor (the obligation is tested in
      // app/platform/auth/admin-two-factor.test.ts; two-factor sign-in itself in security.spec.ts).
      ADMIN_TWO_FACTOR: 'optional',
    },
  },
})

/** Each run leaves a build, a database (~40 MB) and a log in tests/.tmp: keep those of the last two hours. */
function pruneOldRuns() {
  const cutoff = Date.now() - 2 * 60 * 60 * 1000
  for (const [dir, pattern] of [
    [TMP_DIR, /^e2e-(data|state|server)-\d+/],
    [tmpdir(), /^circulo-e2e-app-\d+$/],
  ] as const) {
    let entries: string[] = []
    try {
      entries = readdirSync(dir)
    } catch {
      continue
    }
    for (const entry of entries) {
      if (!pattern.test(entry)) continue
      const target = path.join(dir, entry)
      try {
        if (statSync(target).mtimeMs < cutoff) rmSync(target, { recursive: true, force: true })
      } catch {
        // Another run may be removing it too.
      }
    }
  }
}
