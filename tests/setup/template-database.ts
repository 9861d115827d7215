import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'

/**
 * Vitest global setup: one migrated database, made once. Every test file's database is a copy
 * of it (PGlite: loaded from its files in about 0.4 s instead of created and migrated in about
 * 2.5 s; PostgreSQL: CREATE DATABASE … TEMPLATE), so each file still gets a database of its own.
 */
export default async function setup() {
  const serverUrl = process.env.DATABASE_URL
  if (!serverUrl) {
    const pglite = await PGlite.create({ extensions: { unaccent, pg_trgm } })
    await migratePglite(drizzlePglite(pglite), { migrationsFolder: 'drizzle' })
    const file = path.join(tmpdir(), `circulo-test-template-${process.pid}.tar`)
    await writeFile(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()))
    await pglite.close()
    process.env.TEST_DATABASE_TEMPLATE = file
    return () => rm(file, { force: true })
  }
  const name = `test_template_${process.pid}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name}`)
  await admin.query(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 })
  await migratePg(drizzlePg(pool), { migrationsFolder: 'drizzle' })
  await pool.end()
  process.env.TEST_DATABASE_TEMPLATE = name
  return async () => {
    await admin.query(`drop database if exists ${name}`)
    await admin.end()
  }
}
