import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { promisify } from 'node:util'
import { createGzip } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { closeDatabase, dumpPglite, pgliteExtensions, getDatabase, lockOwner, openDatabase, takeLock } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'

/** Where a site keeps its data: the configuration's DATA_DIR, DATABASE_URL and S3_BUCKET. */
export interface Site {
  /** The embedded database (db/), stored files (uploads/), the generated secret (auth-secret). */
  dataDir: string
  databaseUrl?: string
  /** Stored files live in this bucket, not in dataDir/uploads. */
  s3Bucket?: string
}

interface Manifest {
  format: 1
  createdAt: string
  database: 'postgres' | 'pglite'
  files: 'included' | 'none' | 's3'
}

const DUMP_FILE = { postgres: 'database.pgdump', pglite: 'database.tar.gz' } as const
/** The running server's answer to `npm run backup` with the embedded database. */
const SOCKET = 'backup.sock'

function siteFromEnv(): Site {
  const env = getEnv()
  return { dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, s3Bucket: env.S3_BUCKET }
}

/**
 * One tar with the manifest, the database's dump, the generated secret and the uploads folder
 * (streamed by tar: never in memory). `output`: a folder for the dated file, or a file ending in .tar.
 */
export async function createBackup(output?: string, site = siteFromEnv()) {
  const manifest: Manifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database: site.databaseUrl ? 'postgres' : 'pglite',
    files: site.s3Bucket ? 's3' : existsSync(path.join(site.dataDir, 'uploads')) ? 'included' : 'none',
  }
  const name = `circulo-ceo-${manifest.createdAt.slice(0, 19).replaceAll(':', '')}Z.tar`
  const folder = path.join(site.dataDir, 'backups')
  const file = path.resolve(output?.endsWith('.tar') ? output : path.join(output ?? folder, name))
  await mkdir(folder, { recursive: true, mode: 0o700 })
  await mkdir(path.dirname(file), { recursive: true })
  const staging = await mkdtemp(path.join(folder, '.staging-'))
  try {
    const dump = path.join(staging, DUMP_FILE[manifest.database])
    const source = site.databaseUrl ? await pgDump(site.databaseUrl, dump) : await dumpEmbedded(site.dataDir, dump)
    await writeFile(path.join(staging, 'backup.json'), JSON.stringify(manifest))
    const secret = path.join(site.dataDir, 'auth-secret')
    if (existsSync(secret)) await copyFile(secret, path.join(staging, 'auth-secret'))
    // The manifest first, so that a restore reads it without going through the files.
    const members = ['backup.json', path.basename(dump), ...(existsSync(secret) ? ['auth-secret'] : [])]
    // Made first so tar keeps its mode: a backup holds password hashes and the secret.
    await writeFile(`${file}.partial`, '', { mode: 0o600 })
    await run('tar', [
      '-cf',
      `${file}.partial`,
      '--exclude=*.partial', // a file being written by the storage, not yet renamed
      '-C',
      staging,
      ...members,
      ...(manifest.files === 'included' ? ['-C', site.dataDir, 'uploads'] : []),
    ])
    await rename(`${file}.partial`, file)
    const files = {
      included: `stored files: ${path.resolve(site.dataDir, 'uploads')}`,
      none: 'stored files: none yet',
      s3: `stored files: not in this backup, they live in the S3 bucket ${site.s3Bucket} (keep them with bucket versioning or a copy: aws s3 sync, rclone; README 'Backups')`,
    }[manifest.files]
    return { file, bytes: (await stat(file)).size, notes: [`database: ${source}`, files] }
  } finally {
    await rm(staging, { recursive: true, force: true })
    await rm(`${file}.partial`, { force: true })
  }
}

/** Into an empty data folder or database only; the server starts on it afterwards. */
export async function restoreBackup(backup: string, site = siteFromEnv()) {
  const database = site.databaseUrl ? 'postgres' : 'pglite'
  const dbDir = path.join(site.dataDir, 'db')
  const uploads = path.join(site.dataDir, 'uploads')
  const owner = site.databaseUrl ? undefined : lockOwner(`${dbDir}.lock`)
  if (owner) throw new Error(`A server (pid ${owner}) holds the embedded database in ${dbDir}: stop it first.`)
  const notEmpty = site.databaseUrl
    ? (await hasTables(site.databaseUrl)) && `The database ${redacted(site.databaseUrl)}`
    : !(await isEmpty(dbDir)) && dbDir
  if (notEmpty || !(await isEmpty(uploads))) {
    throw new Error(
      `${notEmpty || uploads} is not empty: a backup is restored only into an empty ${site.databaseUrl ? 'database (create one and point DATABASE_URL at it)' : 'data folder (point DATA_DIR at a new folder)'}.`,
    )
  }
  await mkdir(site.dataDir, { recursive: true })
  const staging = await mkdtemp(path.join(site.dataDir, '.restore-'))
  try {
    await run('tar', ['-xf', backup, '-C', staging, 'backup.json']).catch((error: Error) => {
      throw new Error(`${backup} is not a backup made by npm run backup (${error.message.split('\n')[0]})`)
    })
    const manifest = JSON.parse(await readFile(path.join(staging, 'backup.json'), 'utf8')) as Manifest
    if (manifest.database !== database) {
      throw new Error(
        manifest.database === 'pglite'
          ? 'This backup holds an embedded (PGlite) database: restore it with DATABASE_URL unset.'
          : 'This backup holds a PostgreSQL database: restore it with DATABASE_URL set to an empty database.',
      )
    }
    await run('tar', ['-xf', backup, '-C', staging])
    const dump = path.join(staging, DUMP_FILE[database])
    if (site.databaseUrl) await pgRestore(site.databaseUrl, dump)
    // Opening applies the migrations a backup from an older version lacks.
    await openDatabase(
      site.databaseUrl
        ? { kind: 'postgres', url: site.databaseUrl, maxConnections: 1 }
        : { kind: 'pglite', dataDir: dbDir, template: new Blob([await readFile(dump)], { type: 'application/gzip' }) },
    )
    await closeDatabase()
    if (existsSync(path.join(staging, 'uploads'))) {
      await rmdir(uploads).catch(() => {}) // empty, checked above
      await rename(path.join(staging, 'uploads'), uploads)
    }
    // Sessions and signed links made before the backup stay valid.
    if (existsSync(path.join(staging, 'auth-secret')))
      await rename(path.join(staging, 'auth-secret'), path.join(site.dataDir, 'auth-secret'))
    const files = {
      included: `stored files: ${uploads}`,
      none: 'stored files: none in the backup',
      s3: 'stored files: not in the backup, they live in the S3 bucket (S3_BUCKET)',
    }[manifest.files]
    const s3Note = manifest.files === 'included' && site.s3Bucket ? [`S3_BUCKET is set: copy ${uploads} to the bucket (aws s3 sync)`] : []
    return {
      createdAt: manifest.createdAt,
      notes: [`database: ${site.databaseUrl ? redacted(site.databaseUrl) : dbDir}`, files, ...s3Note],
    }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/** The embedded database: asked of the server that holds it, else opened here (no server runs). */
async function dumpEmbedded(dataDir: string, file: string) {
  const dbDir = path.join(dataDir, 'db')
  const owner = lockOwner(`${dbDir}.lock`)
  if (owner) {
    const answer = await text(net.connect(path.join(dataDir, SOCKET))).catch(() => {
      throw new Error(
        `The embedded database in ${dbDir} is in use by pid ${owner}, which does not answer backup requests (a command-line task, or a server started before backups existed): let it finish or restart the server, then run the backup again.`,
      )
    })
    const { file: written, error = 'no answer' } = JSON.parse(answer || '{}') as { file?: string; error?: string }
    if (!written) throw new Error(`The running server (pid ${owner}) could not dump the database: ${error}`)
    await rename(written, file)
    return `the running server's (pid ${owner}) embedded database in ${dbDir}`
  }
  // PGlite would create an empty database in a folder without one.
  if (!existsSync(path.join(dbDir, 'PG_VERSION')))
    throw new Error(`No embedded database in ${dbDir}: is DATA_DIR right (or DATABASE_URL unset)?`)
  const release = takeLock(`${dbDir}.lock`)
  try {
    // Not openDatabase(): a backup leaves the database as it found it, migrations included.
    const pglite = await PGlite.create(dbDir, { extensions: pgliteExtensions })
    try {
      await writeDump(await dumpPglite(pglite), file)
    } finally {
      await pglite.close()
    }
  } finally {
    release()
  }
  return `the embedded database in ${dbDir} (no server running)`
}

function writeDump(tar: Blob, file: string) {
  return pipeline(Readable.fromWeb(tar.stream() as NodeReadableStream), createGzip(), createWriteStream(file, { mode: 0o600 }))
}

let backupServer: net.Server | undefined

/**
 * The server holding the embedded database answers `npm run backup` on a Unix socket in DATA_DIR:
 * only who may open that folder can ask, nothing listens on the network, and a process that
 * does not serve it (a command-line task) just refuses the connection. Each connection gets the
 * dump written into DATA_DIR/backups and its file name back; the request carries nothing.
 */
export async function startBackupRequests(dataDir: string) {
  const socketPath = path.join(dataDir, SOCKET)
  // This process holds the database lock: a socket left here is a dead server's.
  await rm(socketPath, { force: true })
  const server = net.createServer((socket) => {
    socket.on('error', () => {}) // the client went away: its backup fails on its side
    const file = path.join(dataDir, 'backups', `.live-${randomUUID()}.tar.gz`)
    mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
      .then(() => getDatabase().dump!())
      .then((tar) => writeDump(tar, file))
      .then(
        () => socket.end(JSON.stringify({ file })),
        (error: unknown) => {
          logger.error({ err: error }, 'Backup: the database dump failed')
          socket.end(JSON.stringify({ error: String(error) }))
        },
      )
  })
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve))
    await chmod(socketPath, 0o600)
    backupServer = server
  } catch (error) {
    logger.warn({ err: error, socketPath }, 'Backup requests not served: npm run backup cannot reach this server')
  }
}

export async function stopBackupRequests() {
  const server = backupServer
  backupServer = undefined
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
}

/** pg_dump's custom format: compressed, restored by pg_restore, one consistent snapshot. */
async function pgDump(url: string, file: string) {
  const tool = Number(/\)\s*(\d+)/.exec(await run('pg_dump', ['--version']))?.[1])
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const server = await client
    .query<{ major: number }>(`select current_setting('server_version_num')::int / 10000 as major`)
    .then(({ rows }) => rows[0]!.major)
    .finally(() => client.end())
  if (tool < server) {
    throw new Error(
      `pg_dump ${tool} is older than the PostgreSQL ${server} server: install its version ${server} (Debian: apt-get install postgresql-client-${server}).`,
    )
  }
  await run('pg_dump', ['--format=custom', `--file=${file}`, ...libpq(url).args], libpq(url).env)
  return `PostgreSQL ${redacted(url)} (pg_dump ${tool})`
}

async function pgRestore(url: string, file: string) {
  await run(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', ...libpq(url).args, file],
    libpq(url).env,
  )
}

async function hasTables(url: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg\\_toast%' and s.nspname not like 'pg\\_temp%'`,
    )
    return rows[0]!.n > 0
  } finally {
    await client.end()
  }
}

/** The URL without its password, which goes to libpq through PGPASSWORD so that `ps` does not show it. */
function libpq(url: string) {
  const parsed = new URL(url)
  const password = decodeURIComponent(parsed.password)
  parsed.password = ''
  return { args: [`--dbname=${parsed.toString()}`], env: password ? { PGPASSWORD: password } : {} }
}

function redacted(url: string) {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

async function isEmpty(folder: string) {
  return (await readdir(folder).catch(() => [])).length === 0
}

const execFileAsync = promisify(execFile)
const PACKAGES: Record<string, string> = { pg_dump: 'postgresql-client', pg_restore: 'postgresql-client', tar: 'tar' }

/** A command-line tool; a missing one is named with the Debian package that has it. */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    return (await execFileAsync(command, args, { env: { ...process.env, ...env } })).stdout
  } catch (error) {
    const { code, stderr } = error as { code?: unknown; stderr?: string }
    if (code === 'ENOENT') throw new Error(`${command} was not found: install it (Debian: apt-get install ${PACKAGES[command]}).`)
    throw new Error(`${command} failed: ${stderr?.trim() || String(error)}`)
  }
}
