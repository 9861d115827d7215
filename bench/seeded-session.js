// A seeded community and a signed-in member, for the benchmark and the Lighthouse audit of the feed.
import { spawn } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { root } from '../scripts/ensure-build.js'

/** Seeds the database named by `env` (bench/seed.js, a child process) and returns what it printed. */
export function runSeed(env, logFile, onStart = () => {}) {
  return new Promise((resolve, reject) => {
    const log = openSync(logFile, 'a')
    const child = spawn(process.execPath, ['bench/seed.js'], { cwd: root, env, stdio: ['ignore', 'pipe', log] })
    onStart(child)
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0)
        return reject(new Error(`seeding failed (exit ${code}); see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`))
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)))
      } catch {
        reject(new Error(`seeding printed no result:\n${out.slice(-2000)}`))
      }
    })
  })
}

/** Signs in once through the sign-in form, as a browser without JavaScript does. */
export async function signIn(baseUrl, email, password) {
  const response = await fetch(`${baseUrl}/auth`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: baseUrl, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'signin', email, password, redirectTo: '/comunidad' }),
  })
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0])
  // The session only: the toast is a one-time flash cookie a browser would drop after one page.
  const session = cookies.filter((cookie) => cookie.startsWith('better-auth.'))
  if (response.status !== 302 || !session.length) {
    throw new Error(`sign-in failed: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`)
  }
  return session.join('; ')
}
