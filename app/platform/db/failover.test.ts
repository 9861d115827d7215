import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as profileRoute from '~/features/account/profile.route'
import * as healthzRoute from '~/features/site/healthz.route'
import * as communityRoute from '~/features/community/layout.route'
import { createPersona } from '../../../tests/setup/members'
import { feedAction, feedLoader } from '../../../tests/setup/feed'
import { getRequest, run } from '../../../tests/setup/requests'
import { startTcpProxy } from '../../../tests/setup/tcp-proxy'
import { isDatabaseUnavailable } from './availability.server'
import { closeDatabase, getDatabase, getDb, openDatabase } from './client.server'

// A real PostgreSQL server behind a proxy that plays a failover: connections refused, and those
// open cut in the middle of a query; then allowed again. Only PostgreSQL can be taken away from
// a process like this (PGlite lives inside it): `.ci/run` runs this file on PostgreSQL every time.
const serverUrl = process.env.DATABASE_URL
const name = `failover_${randomUUID().replaceAll('-', '')}`
let proxy: Awaited<ReturnType<typeof startTcpProxy>>

describe.runIf(serverUrl)('the database going away and coming back (PostgreSQL only: PGlite cannot be taken away)', () => {
  let member: Awaited<ReturnType<typeof createPersona>>
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    const template = process.env.TEST_DATABASE_TEMPLATE
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`)
    await admin.end()
    const url = new URL(serverUrl!)
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.host = `127.0.0.1:${proxy.port}`
    url.pathname = `/${name}`
    await openDatabase({ kind: 'postgres', url: url.toString(), maxConnections: 5 })
    member = await createPersona('premium')
  })
  afterAll(async () => {
    await closeDatabase()
    await proxy?.close()
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  })

  const profile = () =>
    run(() => profileRoute.loader({ request: getRequest('/perfil', { cookie: member.cookie }), params: {}, context: {} } as never))
  const health = () => run(() => healthzRoute.loader())

  test('503s with Retry-After while it is away (within seconds, never a hang), 200s once it is back, in the same process', async () => {
    expect((await profile()).status).toBe(200)

    // A query in flight when the server goes: it fails as "the database is away", not as a bug.
    const inFlight = getDb().execute(sql`select pg_sleep(3)`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    proxy.refuse()
    const cut = await inFlight.then(
      () => null,
      (error: unknown) => error,
    )
    expect(isDatabaseUnavailable(cut)).toBe(true)

    const started = Date.now()
    const during = await profile()
    expect(during.status).toBe(503)
    expect(during.headers.get('Retry-After')).toBe('5')
    expect(during.data.message.title).toBe('Servicio no disponible temporalmente')
    const post = await feedAction({ intent: 'create-post', postType: 'text', title: 'Durante la caída' }, member.cookie)
    expect(post.status).toBe(503)
    expect(post.data.submission.initialValue.title).toBe('Durante la caída')
    expect((await health()).status).toBe(503)
    expect(Date.now() - started).toBeLessThan(15_000)

    proxy.allow()
    // The pool makes new connections as they are needed: no restart, no stale connection kept.
    let back = 0
    const deadline = Date.now() + 10_000
    while ((await health()).status !== 200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200))
    back = Date.now() - started
    expect((await profile()).status).toBe(200)
    const again = await feedAction({ intent: 'create-post', postType: 'text', title: 'Después de la caída' }, member.cookie)
    expect(again.status).toBe(200)
    expect(back).toBeLessThan(25_000)
  })

  test('closed for maintenance (ALLOW_CONNECTIONS false, its connections ended): 503 with Retry-After whatever the SQLSTATE of the refusal; all back once it opens, LISTEN included', async () => {
    await expect.poll(async () => (await health()).status, { timeout: 15_000 }).toBe(200)
    const heard: string[] = []
    const unlisten = await getDatabase().listen('maintenance_probe', (payload) => heard.push(payload))
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    try {
      // What an operator does before a restore or an upgrade: no new connections (SQLSTATE 55000,
      // 'not currently accepting connections', in no list of connection codes), the open ones ended.
      const inFlight = getDb()
        .execute(sql`select pg_sleep(3)`)
        .then(
          () => null,
          (error: unknown) => error,
        )
      await new Promise((resolve) => setTimeout(resolve, 300))
      await admin.query(`alter database ${name} allow_connections false`)
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
      // A statement whose connection was ended under it (SQLSTATE 57P01) is the database away too.
      expect(isDatabaseUnavailable(await inFlight)).toBe(true)
      const community = () =>
        run(() => communityRoute.loader({ request: getRequest('/comunidad', { cookie: member.cookie }), params: {}, context: {} } as never))
      for (const page of [await profile(), await community(), await feedLoader('', member.cookie)]) {
        expect(page.status).toBe(503)
        expect(page.headers.get('Retry-After')).toBe('5')
      }
      expect((await profile()).data.message.title).toBe('Servicio no disponible temporalmente')
      const post = await feedAction({ intent: 'create-post', postType: 'text', title: 'En mantenimiento' }, member.cookie)
      expect(post.status).toBe(503)
      expect(post.headers.get('Retry-After')).toBe('5')
      expect(post.data.submission.initialValue.title).toBe('En mantenimiento')
      expect((await health()).status).toBe(503)
      // Longer than the LISTEN connection's first retry: it must keep trying, not give up.
      await new Promise((resolve) => setTimeout(resolve, 1500))
    } finally {
      await admin.query(`alter database ${name} allow_connections true`)
      await admin.end()
    }
    await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200)
    expect((await profile()).status).toBe(200)
    expect((await feedAction({ intent: 'create-post', postType: 'text', title: 'Tras el mantenimiento' }, member.cookie)).status).toBe(200)
    await expect
      .poll(
        async () => {
          await getDb().execute(sql`select pg_notify('maintenance_probe', 'de vuelta')`)
          return heard
        },
        { timeout: 20_000, interval: 500 },
      )
      .toContain('de vuelta')
    await unlisten()
  })
})
