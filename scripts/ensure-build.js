// Builds the app when the build is missing or older than the sources.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const BUILD_ENTRY = path.join(root, 'build/server/index.js')
const BUILDER = path.join(root, 'node_modules/@react-router/dev/bin.js')
const SOURCES = ['app', 'server', 'public', 'drizzle', 'package.json', 'vite.config.ts', 'react-router.config.ts']

function newestMtime(target) {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(target)) {
    if (entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  }
  return newest
}

export function ensureBuild() {
  // An install without the development dependencies (the container's runtime stage, `npm install
  // --omit=dev`) cannot build: it runs the build it was shipped with, whatever the files' dates.
  if (!existsSync(BUILDER)) {
    if (existsSync(BUILD_ENTRY)) return
    console.error(
      '\nThe server could not start: there is no build, and this install cannot make one (run `npm install`, then `npm run build`)\n',
    )
    process.exit(78)
  }
  const builtAt = existsSync(BUILD_ENTRY) ? statSync(BUILD_ENTRY).mtimeMs : 0
  const changedAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))))
  if (builtAt >= changedAt) return
  console.log(builtAt ? 'Sources changed since the last build: building…' : 'First start: building the site (about a minute)…')
  execFileSync(process.execPath, [BUILDER, 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
}
