import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { logger } from '~/platform/logger.server'
import { dbErrors, dbStatementDuration, operationOf } from '~/platform/metrics/metrics.server'
import { connectionRefused, failedWhileConnecting } from './availability.server'
import * as schema from './schema'

/**
 * The one database type the app uses. PGlite's Drizzle database has the same runtime
 * API; typing both as one avoids the union that breaks `.returning()`.
 */
export type AppDb = NodePgDatabase<typeof schema>

/** What a query runs on: the database, or a transaction opened on it. */
export type DbExecutor = AppDb | Parameters<Parameters<AppDb['transaction']>[0]>[0]

// The server, the CLI and the tests all run from the project's root (npm start changes into it).
const MIGRATIONS_FOLDER = path.resolve('drizzle')

/** What the migrations create extensions from (search, decisions/0031): every PGlite opened needs them. */
export const pgliteExtensions = { unaccent, pg_trgm }

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; maxConnections?: number; /** 0: none (long command-line tasks). */ queryTimeoutMillis?: number }
  | { kind: 'pglite'; dataDir: string | undefined /* undefined: in memory */; template?: Blob }

export interface Database {
  db: AppDb
  kind: DatabaseOptions['kind']
  /**
   * Receives NOTIFY payloads sent on a channel by any process using this database.
   * PGlite delivers them in-process; PostgreSQL through one dedicated connection.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /** The embedded database's files (PGlite only): see dumpPglite. */
  dump?: () => Promise<Blob>
  close(): Promise<void>
}

let current: Database | undefined

/** The process's database; throws if start-up has not opened it. */
export function getDatabase(): Database {
  if (!current) throw new Error('The database is not open: call openDatabase() at start-up')
  return current
}

export function getDb(): AppDb {
  return getDatabase().db
}

/** True when the database answers a trivial query (health checks). */
export async function pingDatabase() {
  try {
    await getDb().execute(sql`select 1`)
    return true
  } catch {
    return false
  }
}

/**
 * Whether every migration this version ships is applied (readiness, decisions/0036): the journal
 * drizzle-kit writes beside them, against the rows drizzle's migrator keeps of what it applied.
 */
export async function migrationsApplied() {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ when: number }>
  }
  const result = await getDb().execute<{ created_at: string | number }>(sql`select created_at from drizzle.__drizzle_migrations`)
  const applied = new Set(result.rows.map((row) => Number(row.created_at)))
  return journal.entries.every((entry) => applied.has(entry.when))
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (current) return current
  current = options.kind === 'postgres' ? await openPostgres(options) : await openPglite(options.dataDir, options.template)
  return current
}

export async function closeDatabase() {
  const database = current
  current = undefined
  await database?.close()
}

/**
 * Tests only: the next `times` statements whose SQL matches `pattern` fail before reaching the
 * database, as if it had gone away (or with `error`), on either engine. Returns a function that
 * disarms what is left of the fault.
 */
export function failStatements(pattern: RegExp, { times = 1, error = connectionRefused }: { times?: number; error?: () => Error } = {}) {
  const fault = { pattern, remaining: times, error }
  faults.push(fault)
  return () => {
    const index = faults.indexOf(fault)
    if (index >= 0) faults.splice(index, 1)
  }
}
const faults: Array<{ pattern: RegExp; remaining: number; error: () => Error }> = []

/** Tests only: the statements Drizzle sends, with their parameters, until `stop()` (the EXPLAIN test reads them). */
export function recordStatements() {
  const statements: Array<{ text: string; params: unknown[] }> = []
  recorders.push(statements)
  return { statements, stop: () => void recorders.splice(recorders.indexOf(statements), 1) }
}
const recorders: Array<Array<{ text: string; params: unknown[] }>> = []

// Drizzle calls this before it sends each statement: a fault thrown here is the statement's error.
const faultSwitch = {
  logQuery(query: string, params: unknown[]) {
    for (const statements of recorders) statements.push({ text: query, params })
    if (faults.length === 0) return
    const fault = faults.find((candidate) => candidate.pattern.test(query))
    if (!fault) return
    if (--fault.remaining <= 0) faults.splice(faults.indexOf(fault), 1)
    throw fault.error()
  },
}

async function openPostgres({
  url,
  maxConnections = 10,
  queryTimeoutMillis = 30_000,
}: {
  url: string
  maxConnections?: number
  queryTimeoutMillis?: number
}): Promise<Database> {
  // A database that does not answer must not hold a request: connecting gives up after 5 s, and a
  // query whose connection went silent (a host gone without a reset) after `queryTimeoutMillis`;
  // the pool makes new connections as they are needed, so the same process serves again once the
  // database is back.
  const pool = new pg.Pool({
    connectionString: url,
    // Each process's connections are told apart in pg_stat_activity (a cluster has one pool per worker).
    application_name: APPLICATION_NAME,
    max: maxConnections,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    ...(queryTimeoutMillis ? { query_timeout: queryTimeoutMillis } : {}),
  })
  // An idle connection the server closed (a restart, a failover) leaves the pool; without a
  // listener its error would be thrown at the process.
  pool.on('error', (error) => logger.warn({ err: error }, 'PostgreSQL closed an idle connection'))
  pool.on('connect', timeStatements)
  // Every statement and transaction takes its connection through connect() (pool.query calls it
  // too): what fails there is the database being away, whatever its code.
  const connect = pool.connect.bind(pool) as (callback?: (error: Error | undefined, ...rest: unknown[]) => void) => Promise<unknown> | void
  pool.connect = ((callback?: (error: Error | undefined, ...rest: unknown[]) => void) =>
    callback
      ? connect((error, ...rest) => callback(failedWhileConnecting(error), ...rest))
      : (connect() as Promise<unknown>).catch((error: unknown) => Promise.reject(failedWhileConnecting(error)))) as typeof pool.connect
  const db = drizzlePg(pool, { schema, logger: faultSwitch })
  await migrateOnce(url, () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }))
  const listeners: Array<() => Promise<void>> = []
  return {
    db,
    kind: 'postgres',
    listen: async (channel, onPayload) => {
      const stop = await listenOnPostgres(url, channel, onPayload)
      listeners.push(stop)
      return stop
    },
    async close() {
      await Promise.all(listeners.map((stop) => stop()))
      await pool.end()
    },
  }
}

const APPLICATION_NAME = `circulo:${process.pid}`

/** Any number, the same in every version: the key of the lock migrations run under. */
const MIGRATION_LOCK = 4_310_036

/**
 * Runs the migrations holding a PostgreSQL advisory lock, on a connection of its own (a command-line
 * task's pool has one): the workers of a cluster, or two versions side by side during an upgrade,
 * start at once, and drizzle's migrator, unlocked, would run a new migration in each of them (the
 * second fails on what the first created). The others wait, then find nothing left to apply.
 */
async function migrateOnce(url: string, migrate: () => Promise<void>) {
  const lock = new pg.Client({ connectionString: url, application_name: APPLICATION_NAME, connectionTimeoutMillis: 5_000 })
  try {
    await lock.connect()
  } catch (error) {
    await lock.end().catch(() => {})
    throw failedWhileConnecting(error)
  }
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migrate()
  } finally {
    // Ending the session releases the lock too.
    await lock.end().catch(() => {})
  }
}

/** Times each statement a pool's connection runs (circulo_db_statement_duration_seconds). */
function timeStatements(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  client.query = ((...args: unknown[]) => {
    const first = args[0] as { text?: string; submit?: unknown } | string | undefined
    // A cursor or stream (not used by the app) reports on its own events: passed on as it is.
    if (typeof first === 'object' && typeof first?.submit === 'function') return query(...args)
    const end = startStatement(typeof first === 'string' ? first : (first?.text ?? ''))
    const last = args.length - 1
    if (typeof args[last] === 'function') {
      // The pool's own query() hands its callback down.
      const callback = args[last] as (error: unknown, ...rest: unknown[]) => void
      args[last] = (error: unknown, ...rest: unknown[]) => {
        end(error)
        callback(error, ...rest)
      }
      return query(...args)
    }
    const result = query(...args) as Promise<unknown>
    result.then(
      () => end(undefined),
      (error: unknown) => end(error),
    )
    return result
  }) as typeof client.query
}

/** Starts timing one statement; the function returned records it once it is over. */
function startStatement(text: string) {
  const started = performance.now()
  return (error: unknown) => {
    dbStatementDuration.observe({ operation: operationOf(text) }, (performance.now() - started) / 1000)
    if (error) dbErrors.inc()
  }
}

/** The same for the embedded engine: its queries, and those of its transactions. */
function timePglite(pglite: PGlite) {
  const timed =
    <Args extends unknown[], Result>(run: (text: string, ...rest: Args) => Promise<Result>) =>
    async (text: string, ...rest: Args) => {
      const end = startStatement(text)
      try {
        const result = await run(text, ...rest)
        end(undefined)
        return result
      } catch (error) {
        end(error)
        throw error
      }
    }
  pglite.query = timed(pglite.query.bind(pglite)) as typeof pglite.query
  pglite.exec = timed(pglite.exec.bind(pglite)) as typeof pglite.exec
  const transaction = pglite.transaction.bind(pglite)
  pglite.transaction = ((callback: Parameters<typeof pglite.transaction>[0]) =>
    transaction((tx) => {
      tx.query = timed(tx.query.bind(tx)) as typeof tx.query
      tx.exec = timed(tx.exec.bind(tx)) as typeof tx.exec
      return callback(tx)
    })) as typeof pglite.transaction
}

/** A dedicated LISTEN connection that comes back by itself after the server drops it. */
async function listenOnPostgres(url: string, channel: string, onPayload: (payload: string) => void) {
  let client: pg.Client | undefined
  let stopped = false
  let retryTimer: NodeJS.Timeout | undefined
  const connect = async (attempt = 0): Promise<void> => {
    if (stopped) return
    const next = new pg.Client({ connectionString: url, application_name: APPLICATION_NAME })
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) onPayload(message.payload)
    })
    next.on('error', () => {
      if (client !== next || stopped) return
      client = undefined
      void next.end().catch(() => {})
      // Not attempt 0: only the first connection at start-up may fail its caller; this one keeps
      // trying for as long as the database is away (a maintenance window, a failover).
      retryTimer = setTimeout(() => void connect(1), 1000)
    })
    try {
      await next.connect()
      await next.query(`LISTEN "${channel.replaceAll('"', '')}"`)
      client = next
    } catch (error) {
      await next.end().catch(() => {})
      if (attempt === 0 && !client) throw error
      retryTimer = setTimeout(() => void connect(attempt + 1), Math.min(1000 * 2 ** attempt, 10_000))
    }
  }
  await connect()
  return async () => {
    stopped = true
    clearTimeout(retryTimer)
    await client?.end().catch(() => {})
  }
}

/** `template`: a migrated database's files (tests start from one instead of migrating each time). */
async function openPglite(dataDir: string | undefined, template?: Blob): Promise<Database> {
  let releaseLock = () => {}
  if (dataDir) {
    // PGlite needs its parent folder, and only one process may own the folder.
    mkdirSync(path.dirname(dataDir), { recursive: true })
    releaseLock = takeLock(`${dataDir}.lock`)
  }
  try {
    const pglite = await PGlite.create(dataDir, { extensions: pgliteExtensions, ...(template ? { loadDataDir: template } : {}) })
    timePglite(pglite)
    const db = drizzlePglite(pglite, { schema, logger: faultSwitch }) as unknown as AppDb
    await migratePglite(drizzlePglite(pglite), { migrationsFolder: MIGRATIONS_FOLDER })
    return {
      db,
      kind: 'pglite',
      listen: async (channel, onPayload) => {
        const unlisten = await pglite.listen(channel, onPayload)
        return async () => unlisten()
      },
      dump: () => dumpPglite(pglite),
      async close() {
        await pglite.close()
        releaseLock()
      },
    }
  } catch (error) {
    releaseLock()
    throw error
  }
}

/**
 * The embedded database's files as a tar, taken between two transactions: PGlite's transaction()
 * holds the mutex every query and transaction of the process waits for, and the files are read
 * synchronously, so nothing runs while they are read. CHECKPOINT first puts every committed
 * change into the data files, so opening the copy has next to no log to replay.
 */
export function dumpPglite(pglite: PGlite) {
  return pglite.transaction(async (tx) => {
    await tx.exec('CHECKPOINT')
    // Uncompressed: compressing inside the mutex would hold every request for longer.
    return pglite.dumpDataDir('none')
  })
}

export class DatabaseLockedError extends Error {}

/**
 * The embedded database is a single-process engine: a second server on the same
 * folder would corrupt it. The lock file holds the owner's pid; a stale lock (its
 * process is gone) is taken over.
 */
export function takeLock(lockFile: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(lockFile, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = lockOwner(lockFile)
      if (owner && owner !== process.pid) {
        throw new DatabaseLockedError(
          `The embedded database in ${path.dirname(lockFile)} is in use by another process (pid ${owner}). ` +
            'Stop that server first, or set DATABASE_URL to use a PostgreSQL server shared by several processes.',
        )
      }
      rmSync(lockFile, { force: true })
    }
  }
  throw new DatabaseLockedError(`Could not take the database lock ${lockFile}`)
}

/** The pid in the lock file when that process is alive (this one included). */
export function lockOwner(lockFile: string) {
  const owner = existsSync(lockFile) ? Number(readFileSync(lockFile, 'utf8')) : 0
  return owner && isRunning(owner) ? owner : undefined
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
