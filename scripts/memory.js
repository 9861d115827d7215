// The memory the server may use, MEMORY_LIMIT_MB (default 512 MiB, a small container), turned
// into Node's flags. Left to itself V8 sizes its heap from the machine's memory, not the
// container's, and lets garbage pile up towards that: the server grew past 700 MiB on
// PostgreSQL under load, and a 512 MiB container would have killed it.
// `npm start` and the bench start the server with these flags.
export const DEFAULT_MEMORY_LIMIT_MB = 512

/** MEMORY_LIMIT_MB as a number of MiB (0: no ceiling); throws on a value Node could not run within. */
export function memoryLimit(env = process.env) {
  const raw = env.MEMORY_LIMIT_MB?.trim() || String(DEFAULT_MEMORY_LIMIT_MB)
  const limit = Number(raw)
  if (limit !== 0 && (!Number.isInteger(limit) || limit < 256)) {
    throw new Error(`MEMORY_LIMIT_MB must be a whole number of MiB, 256 or more (or 0 for no ceiling), not "${raw}"`)
  }
  return limit
}

/**
 * Node's flags for each of `processes` server processes that together must fit `MEMORY_LIMIT_MB`
 * (0: no ceiling, V8's own sizing): the limit is the whole server's (a container's), split evenly
 * (decisions/0036).
 */
export function memoryFlags(env = process.env, execArgv = process.execArgv, processes = 1) {
  const limit = memoryLimit(env)
  if (limit === 0) return []
  // Flags given to Node by hand win.
  const given = `${execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`
  if (/--max-old-space-size/.test(given)) return []
  // Half for the JavaScript heap's old generation; the rest is the young generation (V8's
  // default, 48 MiB), code, buffers, image processing and, on PGlite, the embedded database's
  // own memory. Live data after a load is under 100 MiB: the rest of a larger heap was garbage
  // V8 saw no reason to collect.
  const oldSpace = Math.floor(limit / processes / 2)
  return [`--max-old-space-size=${oldSpace}`]
}
