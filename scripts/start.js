// `npm start`: builds when needed, then runs the server under supervision: a server that
// crashes is started again (after 1, 2, 5, 10 s), one that cannot start (bad configuration,
// port in use) is not, and Ctrl-C or SIGTERM stop it cleanly.
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import path from 'node:path'
import { loadDotEnv } from '../server/dotenv.js'
import { ensureBuild, root } from './ensure-build.js'
import { memoryFlags } from './memory.js'

process.chdir(root)
loadDotEnv(root)

/** server.js exits with this when it cannot start at all: restarting would not help. */
const CANNOT_START = 78
const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000]
const STABLE_AFTER_MS = 60_000

let memory
try {
  memory = memoryFlags()
} catch (error) {
  console.error(`\nThe server could not start: ${error.message}\n`)
  process.exit(CANNOT_START)
}
ensureBuild()

let child
let restart
let stopping = false
let crashes = 0

function startServer() {
  const startedAt = Date.now()
  // Node's own flags (--import, --cpu-prof…) apply to the server itself, within its memory ceiling.
  child = spawn(process.execPath, [...process.execArgv, ...memory, path.join(root, 'server.js')], { stdio: 'inherit', env: process.env })
  child.on('exit', (code, signal) => {
    child = undefined
    // Stopping: the server has answered what it was serving; leave with its status, as a shell would.
    if (stopping) process.exit(code ?? 128 + constants.signals[signal])
    if (code === CANNOT_START) process.exit(CANNOT_START)
    crashes = Date.now() - startedAt > STABLE_AFTER_MS ? 1 : crashes + 1
    const delay = RESTART_DELAYS_MS[Math.min(crashes - 1, RESTART_DELAYS_MS.length - 1)]
    console.error(`The server stopped (${signal ?? `exit code ${code}`}); starting it again in ${delay / 1000} s.`)
    restart = setTimeout(startServer, delay)
  })
}

// Ctrl-C and systemd signal the whole process group, so the server often has the signal already
// (a second one changes nothing); sent to this process alone, it is passed on. Either way this
// process waits for the server's graceful stop and leaves after it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true
    clearTimeout(restart)
    if (child) child.kill(signal)
    else process.exit(0)
  })
}

startServer()
