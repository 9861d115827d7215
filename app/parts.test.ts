import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { getEnv, setEnv } from '~/platform/env.server'
import { KIND_LABELS } from '~/features/search/search'
import { declaredJobs, runSchedules } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { searchableKinds } from '~/platform/parts.server'
import { useTestDatabase } from '../tests/setup/database'

// What each feature declares in its parts.server.ts, collected once by app/parts.server.ts
// (imported by server/app.ts and by the test setup).

useTestDatabase()

const appDir = path.resolve(import.meta.dirname)
const sources = readdirSync(appDir, { recursive: true, encoding: 'utf8' }).filter(
  (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
)

/** The name of every job a module of the app defines, read from the source. */
function jobsDefinedInCode() {
  return sources
    .flatMap((file) => [...readFileSync(path.join(appDir, file), 'utf8').matchAll(/defineJob(?:<[^(]*?>)?\(\{\s*name: '([^']+)'/g)])
    .map((match) => match[1]!)
}

test("every folder's parts are collected: a feature added later cannot be left out", () => {
  const declaring = sources.filter((file) => file.endsWith('/parts.server.ts') && file !== 'platform/parts.server.ts')
  expect(declaring).toContain('features/admission/parts.server.ts')
  const collector = readFileSync(path.join(appDir, 'parts.server.ts'), 'utf8')
  expect(declaring.filter((file) => !collector.includes(`from '~/${file.replace(/\.ts$/, '')}'`))).toEqual([])
})

describe('jobs', () => {
  test('every job defined in the code is declared by the parts of a feature, so every process running the worker knows it', () => {
    const defined = jobsDefinedInCode()
    expect(defined).toContain('mail.send')
    expect(defined.length).toBeGreaterThanOrEqual(14)
    expect(
      declaredJobs()
        .map((job) => job.name)
        .toSorted(),
    ).toEqual(defined.toSorted())
  })

  test('start-up queues every regular job the features declare, once however many processes start', async () => {
    const env = getEnv()
    // Mux's reconciliation is scheduled only where Mux is configured.
    setEnv({ ...env, MUX_TOKEN_ID: 'mux-token-id' })
    try {
      await runSchedules()
      await runSchedules()
    } finally {
      setEnv(env)
    }
    const queued = await getDb().select({ name: jobs.name }).from(jobs).where(eq(jobs.status, 'queued'))
    expect(queued.map((job) => job.name).toSorted()).toEqual([
      'admin.comment-windows',
      'admission.retention',
      'ceo-sessions.expire-uploads',
      'ceo-sessions.reconcile-mux',
      'notifications.digest',
      'platform.housekeeping',
    ])
  })
})

test('every kind of result the search page knows is declared searchable by exactly one feature, and no other kind', () => {
  const declared = searchableKinds().map((searchable) => searchable.kind)
  expect(declared.toSorted()).toEqual(Object.keys(KIND_LABELS).toSorted())
})
