import { execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createSession } from '~/features/ceo-sessions/sessions.server'
import { createEvent, getEvent, toggleRegistration } from '~/features/events/events.server'
import { closeDatabase, getDb, openDatabase, pgliteExtensions } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { getStorage } from '~/platform/storage/storage.server'
import { communityPosts } from '~/features/feed/schema'
import { createPostWithFiles } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { BASE_URL } from '../../../tests/setup/requests'
import { SESSION_FIELDS } from '../../../tests/setup/sessions'
import { createBackup, restoreBackup, type Site, startBackupRequests, stopBackupRequests } from './backup.server'

const serverUrl = process.env.DATABASE_URL
// Data folders are tens of megabytes each: all of this file's go when it ends.
const scratch = mkdtempSync(path.join(tmpdir(), 'backup-test-'))
const tempDir = (name: string) => mkdtempSync(path.join(scratch, `${name}-`))
const engine = serverUrl ? 'PostgreSQL' : 'PGlite'
const databases: string[] = []

/** A new database on the PostgreSQL server: a copy of the suite's migrated template, or empty. */
async function createPgDatabase(template?: string) {
  const name = `backup_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`)
  await admin.end()
  databases.push(name)
  const url = new URL(serverUrl!)
  url.pathname = `/${name}`
  return url.toString()
}

/** An empty site to restore into. */
async function emptySite(): Promise<Site> {
  const dataDir = tempDir('target')
  return serverUrl ? { dataDir, databaseUrl: await createPgDatabase() } : { dataDir }
}

/** What the server does at start: open the site's database (applying migrations). */
function openSite(site: Site, template?: Blob) {
  return openDatabase(
    site.databaseUrl
      ? { kind: 'postgres', url: site.databaseUrl, maxConnections: 5 }
      : { kind: 'pglite', dataDir: path.join(site.dataDir, 'db'), template },
  )
}

/** Every row of every table, and where every sequence stands. */
async function snapshot() {
  const db = getDb()
  const tables = await db.execute<{ name: string }>(
    sql`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  )
  const rows: Record<string, unknown[]> = {}
  for (const { name } of tables.rows) {
    const result = await db.execute<{ rows: unknown[] }>(
      sql.raw(`select coalesce(json_agg(t order by t::text), '[]') as rows from ${name} t`),
    )
    rows[name] = result.rows[0]!.rows
  }
  const sequences = (await db.execute(sql`select schemaname, sequencename, last_value from pg_sequences order by 1, 2`)).rows
  return { rows, sequences }
}

/** The stored files, by path under the folder, with their bytes. */
async function filesIn(folder: string) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
  return Object.fromEntries(await Promise.all(files.map(async (file) => [path.relative(folder, file), await readFile(file)] as const)))
}

/** Runs `check` while a live process that is not a server (it serves no backups) holds the folder's lock. */
async function whileLockedByAnotherProcess(dataDir: string, check: (pid: number) => Promise<void>) {
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
  try {
    writeFileSync(path.join(dataDir, 'db.lock'), String(other.pid))
    await check(other.pid!)
  } finally {
    other.kill()
    rmSync(path.join(dataDir, 'db.lock'), { force: true })
  }
}

const source: Site = { dataDir: getEnv().DATA_DIR }
let member: Awaited<ReturnType<typeof createPersona>>
let eventId: string

beforeAll(async () => {
  const template = process.env.TEST_DATABASE_TEMPLATE
  if (serverUrl) source.databaseUrl = await createPgDatabase(template)
  await openSite(source, template && !serverUrl ? new Blob([readFileSync(template)]) : undefined)
  // Members with profiles and roles, a post with two attachments, a CEO session with its file, an
  // event with two registrations; the generated secret that signs sessions.
  const admin = await createPersona('admin')
  const moderator = await createPersona('moderator')
  member = await createPersona('premium', { firstName: 'Lucía', lastName: 'Gómez' })
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0b4f4a' } })
    .jpeg()
    .toBuffer()
  const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
  const created = await createPostWithFiles(
    { title: 'Con adjuntos', postType: 'document' },
    [
      { bytes: photo, name: 'foto.jpg', type: 'image/jpeg' },
      { bytes: pdf, name: 'informe anual.pdf', type: 'application/pdf' },
    ],
    member.cookie,
  )
  expect(created.data.ok).toBe(true)
  const sessionId = randomUUID()
  await getStorage().put(`sessions/${sessionId}/guion.pdf`, Buffer.from(pdf), 'application/pdf')
  await createSession(SESSION_FIELDS, {
    sessionId,
    createdBy: admin.userId!,
    origin: BASE_URL,
    files: { pdfKey: `sessions/${sessionId}/guion.pdf`, pdfName: 'guion.pdf' },
  })
  eventId = await createEvent(
    {
      title: 'Cena de directivos',
      description: 'Networking',
      content: null,
      eventDate: new Date(Date.now() + 10 * 24 * 3600_000),
      timeZone: 'Europe/Madrid',
      durationMinutes: 120,
      location: 'Madrid',
      eventType: 'presencial',
      maxAttendees: null,
      externalLink: null,
    },
    admin.userId!,
  )
  await toggleRegistration(eventId, member.userId!)
  await toggleRegistration(eventId, moderator.userId!)
  writeFileSync(path.join(source.dataDir, 'auth-secret'), 'the-generated-secret-of-this-data-folder')
})

afterEach(async () => {
  await stopBackupRequests()
  await closeDatabase()
})

afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  rmSync(source.dataDir, { recursive: true, force: true })
  if (!serverUrl) return
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  for (const name of databases) {
    // Without FORCE, as tests/setup/database.ts: forcing would kill connections still saying goodbye.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`drop database if exists ${name}`)
        break
      } catch (error) {
        if (attempt >= 20) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }
  await admin.end()
})

describe(`backup and restore (${engine})`, () => {
  test('round trip: members, posts with attachments, CEO sessions, events with registrations, every stored file byte for byte', async () => {
    await openSite(source)
    const before = await snapshot()
    // The data is there to be compared (a snapshot of nothing would equal nothing).
    expect(before.rows['public.post_attachments']).toHaveLength(2)
    expect(before.rows['public.user_roles']).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 'admin' }), expect.objectContaining({ role: 'moderator' })]),
    )
    expect(before.rows['public.profiles']).toContainEqual(expect.objectContaining({ first_name: 'Lucía', is_premium: true }))
    expect(before.rows['public.ceo_sessions']).toHaveLength(1)
    expect(before.rows['public.event_attendees']).toHaveLength(2)
    const files = await filesIn(path.join(source.dataDir, 'uploads'))
    const stored = [...before.rows['public.post_attachments']!, ...before.rows['public.ceo_sessions']!].map(
      (row) => (row as { file_path?: string; pdf_key?: string }).file_path ?? (row as { pdf_key: string }).pdf_key,
    )
    expect(Object.keys(files)).toEqual(expect.arrayContaining(stored))

    // PGlite: the way a running server is asked (the test's process holds the database).
    if (!serverUrl) await startBackupRequests(source.dataDir)
    const backup = await createBackup(undefined, source)
    expect(path.dirname(backup.file)).toBe(path.resolve(source.dataDir, 'backups'))
    expect(path.basename(backup.file)).toMatch(/^circulo-ceo-\d{4}-\d\d-\d\dT\d{6}Z\.tar$/)
    expect(backup.notes[0]).toMatch(serverUrl ? /^database: PostgreSQL .* \(pg_dump \d+\)$/ : /^database: the running server's \(pid \d+\)/)
    await stopBackupRequests()
    await closeDatabase()

    const target = await emptySite()
    const restored = await restoreBackup(backup.file, target)
    expect(restored.notes[1]).toBe(`stored files: ${path.join(target.dataDir, 'uploads')}`)
    await openSite(target)
    expect(await snapshot()).toEqual(before)
    expect(await getEvent(eventId, member.userId!)).toMatchObject({ myStatus: 'registered', registeredCount: 2 })
    expect(await filesIn(path.join(target.dataDir, 'uploads'))).toEqual(files)
    expect(readFileSync(path.join(target.dataDir, 'auth-secret'), 'utf8')).toBe('the-generated-secret-of-this-data-folder')
  })

  test.skipIf(serverUrl)('a running server keeps taking writes during its backup: the restored database is one moment of it', async () => {
    await openSite(source)
    const count = async () => (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from community_posts`)).rows[0]!.n
    const postsBefore = await count()
    await startBackupRequests(source.dataDir)
    // Posts written one after another (each in its transaction, its trigger counting it) from
    // before the backup is asked for until after it is written.
    let backingUp = true
    const writes = (async () => {
      while (backingUp) {
        await getDb().transaction(async (tx) => {
          await tx.insert(communityPosts).values({ userId: member.userId!, title: 'Durante la copia' })
          await new Promise((resolve) => setTimeout(resolve, 5)) // the transaction stays open a moment
        })
      }
    })()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const backup = await createBackup(undefined, source).finally(() => (backingUp = false))
    await writes
    const postsAfter = await count()
    await stopBackupRequests()
    await closeDatabase()

    const target = await emptySite()
    await restoreBackup(backup.file, target)
    await openSite(target)
    const [restored] = (
      await getDb().execute<{ posts: number; counted: number }>(
        sql`select count(*)::int as posts, (select value::int from community_counters where name = 'posts') as counted from community_posts`,
      )
    ).rows
    // Some posts were written before the backup and some after it.
    expect(restored!.posts).toBeGreaterThan(postsBefore)
    expect(restored!.posts).toBeLessThan(postsAfter)
    // The counter is kept by a trigger in each post's transaction: equal only at a moment between transactions.
    expect(restored!.counted).toBe(restored!.posts)
  })

  test('a backup from an older version: the restore applies the newer migrations', async () => {
    const migrations = tempDir('migrations')
    cpSync('drizzle', migrations, { recursive: true })
    const journal = JSON.parse(readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
    const all = journal.entries.length
    writeFileSync(path.join(migrations, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }))
    const old: Site = { dataDir: tempDir('old') }
    if (serverUrl) {
      old.databaseUrl = await createPgDatabase()
      const pool = new pg.Pool({ connectionString: old.databaseUrl, max: 1 })
      await migratePg(drizzlePg(pool), { migrationsFolder: migrations })
      await pool.query(`insert into audit_log (action) values ('before the upgrade')`)
      await pool.end()
    } else {
      const pglite = await PGlite.create(path.join(old.dataDir, 'db'), { extensions: pgliteExtensions })
      await migratePglite(drizzlePglite(pglite), { migrationsFolder: migrations })
      await pglite.query(`insert into audit_log (action) values ('before the upgrade')`)
      await pglite.close()
    }
    const backup = await createBackup(undefined, old)
    // No server holds that folder: the backup opened it itself.
    if (!serverUrl) expect(backup.notes[0]).toMatch(/\(no server running\)$/)
    expect(backup.notes[1]).toBe('stored files: none yet')

    const target = await emptySite()
    await restoreBackup(backup.file, target)
    await openSite(target)
    const [applied] = (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows
    expect(applied!.n).toBe(all)
    const audit = await getDb().execute<{ action: string }>(sql`select action from audit_log`)
    expect(audit.rows.map((row) => row.action)).toContain('before the upgrade')
  }, 120_000) // Migrates an old database from nothing, backs it up, restores and migrates it again: slow while other files share the cores

  test('files on S3: the backup holds the database, says where the files are, and does not fail', async () => {
    const file = path.join(tempDir('s3'), 'nightly.tar')
    const backup = await createBackup(file, { ...source, s3Bucket: 'circulo-uploads' })
    expect(backup.file).toBe(file)
    expect(backup.notes[1]).toMatch(/^stored files: not in this backup, they live in the S3 bucket circulo-uploads \(.*aws s3 sync, rclone/)
    const [first, ...others] = execFileSync('tar', ['-tf', backup.file], { encoding: 'utf8' }).trim().split('\n')
    expect(first).toBe('backup.json')
    expect(others.sort()).toEqual(['auth-secret', serverUrl ? 'database.pgdump' : 'database.tar.gz'])
  })

  // The target is checked before the backup is read.
  const backup = { file: 'never-read.tar' }

  test('restore refuses a target that is not empty, in one line', async () => {
    // The source itself: its database has tables.
    await expect(restoreBackup(backup.file, source)).rejects.toThrow(
      serverUrl
        ? /^The database postgres:\/\/.* is not empty: a backup is restored only into an empty database \(create one and point DATABASE_URL at it\)\.$/
        : /\/db is not empty: a backup is restored only into an empty data folder \(point DATA_DIR at a new folder\)\.$/,
    )
    // An empty database, but stored files in the folder.
    const target = await emptySite()
    mkdirSync(path.join(target.dataDir, 'uploads/avatars'), { recursive: true })
    await expect(restoreBackup(backup.file, target)).rejects.toThrow(`${path.join(target.dataDir, 'uploads')} is not empty`)
  })

  test.skipIf(serverUrl)('restore refuses a data folder a running server holds', async () => {
    const target = await emptySite()
    await whileLockedByAnotherProcess(target.dataDir, async (pid) => {
      await expect(restoreBackup(backup.file, target)).rejects.toThrow(
        `A server (pid ${pid}) holds the embedded database in ${path.join(target.dataDir, 'db')}: stop it first.`,
      )
    })
  })

  test.skipIf(serverUrl)('backup refuses a database held by a process that does not answer (a command-line task)', async () => {
    await whileLockedByAnotherProcess(source.dataDir, async (pid) => {
      await expect(createBackup(tempDir('task'), source)).rejects.toThrow(
        new RegExp(`^The embedded database in .*/db is in use by pid ${pid}, which does not answer backup requests`),
      )
    })
  })

  test('without pg_dump, or with one older than the server, one line says what to install', async () => {
    const bin = tempDir('bin')
    const site = {
      dataDir: tempDir('pg'),
      databaseUrl: source.databaseUrl ?? 'postgres://127.0.0.1:1/none',
    }
    const originalPath = process.env.PATH
    try {
      process.env.PATH = bin
      await expect(createBackup(undefined, site)).rejects.toThrow(
        'pg_dump was not found: install it (Debian: apt-get install postgresql-client).',
      )
      if (!serverUrl) return
      writeFileSync(path.join(bin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 14.11"\n')
      chmodSync(path.join(bin, 'pg_dump'), 0o755)
      process.env.PATH = `${bin}:${originalPath}`
      await expect(createBackup(undefined, site)).rejects.toThrow(
        /^pg_dump 14 is older than the PostgreSQL (\d+) server: install its version \1 \(Debian: apt-get install postgresql-client-\1\)\.$/,
      )
    } finally {
      process.env.PATH = originalPath
    }
  })
})
