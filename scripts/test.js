// `npm test`: every test. Unit and integration tests (Vitest, against PGlite, or the
// PostgreSQL server in DATABASE_URL), then the browser journeys (Playwright in Debian's Chromium).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { root } from './ensure-build.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1

const failures = []
if (run(bin('vitest'), ['run']) !== 0) failures.push('vitest')

if (!existsSync(CHROMIUM)) {
  console.error(`\nThe browser tests need Chromium at ${CHROMIUM}: install it with\n  apt-get update && apt-get install -y chromium\n`)
  failures.push('playwright (no Chromium)')
} else if (run(bin('playwright'), ['test']) !== 0) {
  failures.push('playwright')
}

if (failures.length > 0) {
  console.error(`\nFailed: ${failures.join(', ')}`)
  process.exit(1)
}
console.log('\nAll tests passed.')
