// Starts the app for the end-to-end tests from a private copy of the sources.
//
// The checkout is shared: other people rebuild `build/` while a run is going on, which
// swaps the asset files under a running server (its pages then lose their CSS and
// scripts), and a build of ours would do the same to theirs. So the tests build and
// serve a snapshot of the sources taken when the run starts, in E2E_APP_DIR (outside
// the project, so no typecheck or test run of the project sees the copy), the way
// `node scripts/start.js` does it: `react-router build`, then server.js. In between, the members
// the tests sign in as are seeded into the data folder (seed-members.mjs, docs/decisions/0022).
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const root = process.cwd()
const target = process.env.E2E_APP_DIR
if (!target) throw new Error('E2E_APP_DIR is not set: start this through playwright.config.ts')

const ENTRIES = [
  'app',
  'server',
  'scripts',
  'public',
  'drizzle',
  'server.js',
  'package.json',
  'vite.config.ts',
  'react-router.config.ts',
  'tsconfig.json',
]

rmSync(target, { recursive: true, force: true })
mkdirSync(target, { recursive: true })
for (const entry of ENTRIES) {
  const source = path.join(root, entry)
  if (!existsSync(source)) continue
  // Unit tests next to the sources are not part of the app.
  cpSync(source, path.join(target, entry), { recursive: true, filter: (file) => !/\.test\.tsx?$/.test(file) })
}
// The project's packages, linked one by one inside a real node_modules folder: Node and
// Vite resolve them, and Tailwind's class scanner skips the folder as it does in the project.
mkdirSync(path.join(target, 'node_modules'))
for (const entry of readdirSync(path.join(root, 'node_modules'))) {
  symlinkSync(path.join(root, 'node_modules', entry), path.join(target, 'node_modules', entry))
}
console.log(`E2E: building and serving a snapshot of the sources in ${target}`)

process.chdir(target)
execFileSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'], { cwd: target, stdio: 'inherit' })
execFileSync(process.execPath, [path.join(root, 'tests/e2e/support/seed-members.mjs')], { cwd: target, stdio: 'inherit' })
await import(pathToFileURL(path.join(target, 'server.js')).href)
