import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { closeDatabase, DatabaseLockedError, openDatabase } from './client.server'

afterEach(() => closeDatabase())

describe('embedded database', () => {
  test('creates its parent folders, migrates, and keeps data across reopen', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'db-test-')), 'nested', 'db')
    let database = await openDatabase({ kind: 'pglite', dataDir })
    await database.db.execute(sql`insert into audit_log (action) values ('kept')`)
    await closeDatabase()
    database = await openDatabase({ kind: 'pglite', dataDir })
    const result = await database.db.execute<{ action: string }>(sql`select action from audit_log`)
    expect(result.rows.map((row) => row.action)).toEqual(['kept'])
  })

  test('refuses a folder locked by another running process, with a clear message', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'db-lock-')), 'db')
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      writeFileSync(`${dataDir}.lock`, String(other.pid))
      const opening = openDatabase({ kind: 'pglite', dataDir })
      await expect(opening).rejects.toBeInstanceOf(DatabaseLockedError)
      await expect(opening).rejects.toThrow(/in use by another process \(pid \d+\)/)
    } finally {
      other.kill()
    }
  })

  test('takes over a stale lock left by a process that died', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'db-stale-')), 'db')
    // A pid that certainly ran and is certainly gone: a child that has exited.
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(`${dataDir}.lock`, String(dead))
    // From the suite's migrated template: this test is about the lock, the first one about migrating.
    const templateFile = process.env.TEST_DATABASE_TEMPLATE
    const template = templateFile && !process.env.DATABASE_URL ? new Blob([readFileSync(templateFile)]) : undefined
    expect((await openDatabase({ kind: 'pglite', dataDir, template })).kind).toBe('pglite')
    expect(readFileSync(`${dataDir}.lock`, 'utf8')).toBe(String(process.pid))
  })
})
