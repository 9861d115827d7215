// How many server processes `npm start` runs (decisions/0036): WEB_CONCURRENCY, by default one per
// core available to the process on PostgreSQL; always one on the embedded database (PGlite), which
// belongs to one process. MEMORY_LIMIT_MB is the whole server's (the container's): each process gets
// its share, and at least 256 MiB.
import os from 'node:os'
import { memoryLimit } from './memory.js'

const MIN_MIB_PER_PROCESS = 256

/** { workers, note }: the count and, when it is not what the operator might expect, one line saying why. */
export function workerPlan(env = process.env, cores = os.availableParallelism()) {
  const raw = env.WEB_CONCURRENCY?.trim()
  const asked = raw ? Number(raw) : undefined
  if (raw && !(Number.isInteger(asked) && asked >= 1 && asked <= 64)) {
    throw new Error(`WEB_CONCURRENCY must be a whole number from 1 to 64, not "${raw}"`)
  }
  if (!env.DATABASE_URL?.trim()) {
    const note =
      (asked ?? cores) > 1
        ? 'One server process: the embedded database (PGlite) belongs to one process. Set DATABASE_URL (PostgreSQL) to run one per core (WEB_CONCURRENCY).'
        : null
    return { workers: 1, note }
  }
  const wanted = asked ?? cores
  const limit = memoryLimit(env)
  const fit = limit ? Math.max(1, Math.floor(limit / MIN_MIB_PER_PROCESS)) : Infinity
  if (wanted <= fit) return { workers: wanted, note: null }
  if (asked) {
    throw new Error(
      `MEMORY_LIMIT_MB=${limit} is too little for ${asked} server processes (${MIN_MIB_PER_PROCESS} MiB each): raise it or lower WEB_CONCURRENCY`,
    )
  }
  return {
    workers: fit,
    note: `${fit} server processes for ${cores} cores: MEMORY_LIMIT_MB=${limit} gives each at least ${MIN_MIB_PER_PROCESS} MiB (raise it to run one per core).`,
  }
}
