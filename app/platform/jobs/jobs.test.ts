import { and, eq, ne, sql } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { defaultRetry, defineJob, enqueue, listFailedJobs, retryFailedJobs, runDueJobs } from './jobs.server'
import { jobs } from './schema'
import { housekeepingJob } from './housekeeping.server'
import { auditLog } from '~/platform/audit/schema'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'

useTestDatabase()

interface Payload {
  label: string
}

/** What the test jobs were asked to do, and how each try should end. */
const calls: Array<{ job: string; label: string; attempts: number; jobId: number }> = []
let outcome: (label: string, attempts: number) => void = () => {}
const seenErrors: unknown[] = []
/** Each job's row as its run saw it: the claim it was running under. */
const claims = new Map<string, typeof jobs.$inferSelect>()

async function record(job: string, { label }: Payload, { attempts, jobId }: { attempts: number; jobId: number }) {
  claims.set(label, await rowOf(label))
  calls.push({ job, label, attempts, jobId })
  outcome(label, attempts)
}

const work = defineJob<Payload>({
  name: 'test.work',
  run: (payload, context) => record('test.work', payload, context),
  // 10 s, 20 s, 30 s; gives up when the error says so.
  retry: (attempts, error) => {
    seenErrors.push(error)
    return /for good/.test(String((error as Error).message)) ? null : attempts * 10
  },
})

/** No retry of its own: the queue's default policy. */
const plain = defineJob<Payload>({
  name: 'test.plain',
  run: (payload, context) => record('test.plain', payload, context),
})

/** Declares that a try may take a minute before it is presumed dead. */
const quick = defineJob<Payload>({
  name: 'test.quick',
  timeoutSeconds: 60,
  run: (payload, context) => record('test.quick', payload, context),
})

/**
 * Takes longer than a claim lasts: whatever else is claimed in the meantime sees its claim expire
 * (as if that much time had passed), and another process's worker runs what is due meanwhile.
 */
const slow = defineJob<Payload>({
  name: 'test.slow',
  async run(payload, context) {
    await record('test.slow', payload, context)
    await getDb()
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(and(eq(jobs.status, 'running'), ne(jobs.id, context.jobId)))
    await runDueJobs({ names: ['test.work'] })
  },
})

beforeEach(async () => {
  await getDb().delete(jobs)
  calls.length = 0
  claims.clear()
  seenErrors.length = 0
  outcome = () => {}
})

async function rowOf(label: string) {
  const [found] = await getDb()
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'label' = ${label}`)
  return found!
}

async function makeDue(label: string) {
  await getDb()
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(sql`${jobs.payload}->>'label' = ${label}`)
}

/** Seconds from now to `date`, as the database and this process both see it (within a second or two). */
const secondsFromNow = (date: Date | null) => (date!.getTime() - Date.now()) / 1000

describe('running jobs', () => {
  test('a queued job runs once with its payload, its try count and its id, and is marked done', async () => {
    expect(await enqueue(work, { label: 'once' })).toBe(true)
    const queued = await rowOf('once')
    expect(queued).toMatchObject({ name: 'test.work', status: 'queued', attempts: 0, lockedUntil: null, finishedAt: null })

    expect(await runDueJobs()).toBe(1)
    expect(calls).toEqual([{ job: 'test.work', label: 'once', attempts: 1, jobId: queued.id }])
    const done = await rowOf('once')
    expect(done).toMatchObject({ status: 'done', attempts: 1, lockedUntil: null, lastError: null })
    expect(done.finishedAt).toBeInstanceOf(Date)

    await makeDue('once')
    expect(await runDueJobs()).toBe(0)
    expect(calls).toHaveLength(1)
  })

  test('a job runs when its runAt comes, not before', async () => {
    await enqueue(work, { label: 'later' }, { runAt: new Date(Date.now() + 60_000) })
    expect(await runDueJobs()).toBe(0)
    expect((await rowOf('later')).status).toBe('queued')
    await makeDue('later')
    expect(await runDueJobs()).toBe(1)
    expect(calls.map((call) => call.label)).toEqual(['later'])
  })

  test('a running job holds a claim of five minutes', async () => {
    await enqueue(work, { label: 'probe' })
    await runDueJobs()
    const claim = claims.get('probe')!
    expect(claim).toMatchObject({ status: 'running', attempts: 1 })
    expect(secondsFromNow(claim.lockedUntil)).toBeGreaterThan(295)
    expect(secondsFromNow(claim.lockedUntil)).toBeLessThan(305)
  })

  test('a job that declares timeoutSeconds is presumed dead after that time, not after five minutes', async () => {
    await enqueue(quick, { label: 'quick' })
    await runDueJobs()
    const claim = claims.get('quick')!
    expect(claim.status).toBe('running')
    expect(secondsFromNow(claim.lockedUntil)).toBeGreaterThan(55)
    expect(secondsFromNow(claim.lockedUntil)).toBeLessThan(65)
  })

  test('only the named jobs run, and rows of jobs this process does not know are left alone', async () => {
    await enqueue(work, { label: 'named' })
    await enqueue(plain, { label: 'other' })
    await getDb()
      .insert(jobs)
      .values({ name: 'test.unknown', payload: { label: 'unknown' } })
    expect(await runDueJobs({ names: ['test.plain', 'test.unknown'] })).toBe(1)
    expect(calls.map((call) => call.label)).toEqual(['other'])
    expect(await runDueJobs()).toBe(1)
    expect(calls.map((call) => call.label)).toEqual(['other', 'named'])
    expect(await rowOf('unknown')).toMatchObject({ status: 'queued', attempts: 0 })
    expect(await runDueJobs({ names: ['test.unknown'] })).toBe(0)
  })

  test('a batch claims at most `limit` jobs, the earliest due first', async () => {
    for (const [label, secondsAgo] of [
      ['c', 1],
      ['a', 30],
      ['b', 20],
    ] as const) {
      await enqueue(work, { label }, { runAt: new Date(Date.now() - secondsAgo * 1000) })
    }
    // The two due longest are claimed (run in any order within the batch); the newest waits.
    expect(await runDueJobs({ limit: 2 })).toBe(2)
    expect(calls.map((call) => call.label).sort()).toEqual(['a', 'b'])
    expect((await rowOf('c')).status).toBe('queued')
    expect(await runDueJobs({ limit: 2 })).toBe(1)
    expect(calls.map((call) => call.label).at(-1)).toBe('c')
  })

  concurrencyTest('two workers at once run each job once', async () => {
    for (let index = 0; index < 12; index++) await enqueue(work, { label: `parallel-${index}` })
    outcome = () => {}
    const worker = async () => {
      while ((await runDueJobs({ limit: 3 })) > 0);
    }
    await Promise.all([worker(), worker()])
    const labels = calls.map((call) => call.label)
    expect(labels).toHaveLength(12)
    expect(new Set(labels).size).toBe(12)
    const statuses = await getDb().select({ status: jobs.status, attempts: jobs.attempts }).from(jobs)
    expect(statuses.every((job) => job.status === 'done' && job.attempts === 1)).toBe(true)
  })

  test('each job is claimed when its turn comes: one slow enough to outlast a claim does not get the next one run twice', async () => {
    await enqueue(slow, { label: 'slow' }, { runAt: new Date(Date.now() - 2000) })
    await enqueue(work, { label: 'next' }, { runAt: new Date(Date.now() - 1000) })
    const claimed = await runDueJobs()
    // Another worker ran 'next' while 'slow' took its time; this one found nothing more to run.
    expect(calls.map((call) => call.label)).toEqual(['slow', 'next'])
    expect(await rowOf('next')).toMatchObject({ status: 'done', attempts: 1 })
    expect(claimed).toBe(1)
  })

  test('defining two jobs with one name is refused', () => {
    expect(() => defineJob({ name: 'test.work', run: async () => {} })).toThrow(/defined twice/)
  })
})

describe('retries and giving up', () => {
  test('a failure goes back to the queue after the job’s own delay, with the try counted and the error kept', async () => {
    outcome = () => {
      throw new Error('service down')
    }
    await enqueue(work, { label: 'flaky' })
    expect(await runDueJobs()).toBe(1)
    let stored = await rowOf('flaky')
    expect(stored).toMatchObject({ status: 'queued', attempts: 1, lockedUntil: null, lastError: 'service down', finishedAt: null })
    expect(secondsFromNow(stored.runAt)).toBeGreaterThan(8)
    expect(secondsFromNow(stored.runAt)).toBeLessThan(12)
    expect(seenErrors).toEqual([expect.objectContaining({ message: 'service down' })])

    // Not due yet: nothing runs.
    expect(await runDueJobs()).toBe(0)

    await makeDue('flaky')
    await runDueJobs()
    stored = await rowOf('flaky')
    expect(stored).toMatchObject({ status: 'queued', attempts: 2 })
    expect(secondsFromNow(stored.runAt)).toBeGreaterThan(18)
    expect(secondsFromNow(stored.runAt)).toBeLessThan(22)

    // It works on the third try.
    outcome = () => {}
    await makeDue('flaky')
    await runDueJobs()
    expect(await rowOf('flaky')).toMatchObject({ status: 'done', attempts: 3, lastError: null })
    expect(calls.map((call) => call.attempts)).toEqual([1, 2, 3])
  })

  test('the default policy waits 30 s doubling, capped at an hour, and gives up after 8 tries', async () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(defaultRetry)).toEqual([30, 60, 120, 240, 480, 960, 1920])
    expect(defaultRetry(8)).toBeNull()
    expect(defaultRetry(20)).toBeNull()

    outcome = (_label, attempts) => {
      throw new Error(`try ${attempts} failed`)
    }
    await enqueue(plain, { label: 'hopeless' })
    for (let attempt = 1; attempt <= 8; attempt++) {
      await makeDue('hopeless')
      expect(await runDueJobs()).toBe(1)
      const stored = await rowOf('hopeless')
      if (attempt < 8) {
        expect(stored).toMatchObject({ status: 'queued', attempts: attempt, lastError: `try ${attempt} failed` })
        const delay = defaultRetry(attempt)!
        expect(secondsFromNow(stored.runAt)).toBeGreaterThan(delay - 2)
        expect(secondsFromNow(stored.runAt)).toBeLessThan(delay + 2)
      } else {
        expect(stored).toMatchObject({ status: 'failed', attempts: 8, lastError: 'try 8 failed', lockedUntil: null })
      }
    }
    await makeDue('hopeless')
    expect(await runDueJobs()).toBe(0)
  })

  test('a job whose retry says no is failed, listed newest first, and queued again on request', async () => {
    outcome = (label) => {
      throw new Error(`${label} broken for good`)
    }
    await enqueue(work, { label: 'first' })
    await runDueJobs()
    await enqueue(work, { label: 'second' })
    await runDueJobs()
    await enqueue(plain, { label: 'healthy' })
    outcome = (label) => {
      if (label !== 'healthy') throw new Error(`${label} broken for good`)
    }
    await runDueJobs()

    const first = await rowOf('first')
    const second = await rowOf('second')
    expect(first).toMatchObject({ status: 'failed', attempts: 1, lastError: 'first broken for good', lockedUntil: null })
    expect(first.finishedAt).toBeInstanceOf(Date)
    const failed = await listFailedJobs()
    expect(failed.map((job) => job.id)).toEqual([second.id, first.id])
    expect(failed[0]).toMatchObject({ name: 'test.work', attempts: 1, lastError: 'second broken for good' })

    // A failed job stays failed: no worker picks it up on its own.
    await makeDue('first')
    expect(await runDueJobs()).toBe(0)

    // Queued again by id: only that one, from a fresh count, due now.
    expect(await retryFailedJobs([first.id])).toBe(1)
    expect(await rowOf('first')).toMatchObject({ status: 'queued', attempts: 0, finishedAt: null })
    expect((await rowOf('second')).status).toBe('failed')
    // Done jobs are never "retried".
    expect(await retryFailedJobs([(await rowOf('healthy')).id])).toBe(0)

    outcome = () => {}
    expect(await runDueJobs()).toBe(1)
    expect(await rowOf('first')).toMatchObject({ status: 'done', attempts: 1 })

    // All of them at once.
    expect(await retryFailedJobs()).toBe(1)
    expect(await listFailedJobs()).toEqual([])
    expect(await runDueJobs()).toBe(1)
    expect(await rowOf('second')).toMatchObject({ status: 'done' })
  })
})

describe('claims', () => {
  test('a claim whose lockedUntil has passed is claimed again; a live claim is not', async () => {
    await enqueue(work, { label: 'crashed' })
    // A worker claimed it and died.
    await getDb()
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedUntil: sql`now() + interval '1 minute'` })
      .where(sql`${jobs.payload}->>'label' = 'crashed'`)
    expect(await runDueJobs()).toBe(0)
    expect(calls).toEqual([])

    await getDb()
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(sql`${jobs.payload}->>'label' = 'crashed'`)
    expect(await runDueJobs()).toBe(1)
    expect(calls).toEqual([expect.objectContaining({ label: 'crashed', attempts: 2 })])
    expect(await rowOf('crashed')).toMatchObject({ status: 'done', attempts: 2, lockedUntil: null })
  })
})

describe('enqueueing', () => {
  test('a dedupe key queues a job once ever, per job name', async () => {
    expect(await enqueue(work, { label: 'welcome-1' }, { dedupeKey: 'welcome:ana' })).toBe(true)
    expect(await enqueue(work, { label: 'welcome-2' }, { dedupeKey: 'welcome:ana' })).toBe(false)
    const rows = await getDb().select().from(jobs).where(eq(jobs.dedupeKey, 'test.work:welcome:ana'))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.payload).toEqual({ label: 'welcome-1' })

    // Also after it has run.
    await runDueJobs()
    expect(await enqueue(work, { label: 'welcome-3' }, { dedupeKey: 'welcome:ana' })).toBe(false)
    expect(calls.map((call) => call.label)).toEqual(['welcome-1'])

    // The key belongs to the job: another job may use the same one, and no key means no limit.
    expect(await enqueue(plain, { label: 'plain-welcome' }, { dedupeKey: 'welcome:ana' })).toBe(true)
    expect(await enqueue(work, { label: 'free' })).toBe(true)
    expect(await enqueue(work, { label: 'free' })).toBe(true)
    expect(
      await getDb()
        .select()
        .from(jobs)
        .where(sql`${jobs.payload}->>'label' = 'free'`),
    ).toHaveLength(2)
  })

  concurrencyTest('concurrent enqueues with one dedupe key leave one job', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) => enqueue(work, { label: `race-${index}` }, { dedupeKey: 'race' })),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await getDb().select().from(jobs).where(eq(jobs.dedupeKey, 'test.work:race'))).toHaveLength(1)
  })

  test('a job queued in a transaction exists only if the transaction commits', async () => {
    await expect(
      getDb().transaction(async (tx) => {
        expect(await enqueue(work, { label: 'rolled-back' }, { executor: tx })).toBe(true)
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(
      await getDb()
        .select()
        .from(jobs)
        .where(sql`${jobs.payload}->>'label' = 'rolled-back'`),
    ).toEqual([])
    expect(await runDueJobs()).toBe(0)
    expect(calls).toEqual([])

    // A rolled-back dedupe key does not block the next try.
    await expect(
      getDb().transaction(async (tx) => {
        await enqueue(work, { label: 'keyed' }, { executor: tx, dedupeKey: 'keyed' })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow()
    await getDb().transaction(async (tx) => {
      expect(await enqueue(work, { label: 'keyed' }, { executor: tx, dedupeKey: 'keyed' })).toBe(true)
    })
    expect(await runDueJobs()).toBe(1)
    expect(calls.map((call) => call.label)).toEqual(['keyed'])
  })
})

describe('housekeeping', () => {
  const DAY = 24 * 60 * 60 * 1000
  /** A job row as it stands `daysAgo` after it was created, ran or gave up. */
  async function stored(
    label: string,
    { status, daysAgo, dedupeKey }: { status: 'queued' | 'running' | 'done' | 'failed'; daysAgo: number; dedupeKey?: string },
  ) {
    const at = new Date(Date.now() - daysAgo * DAY)
    await getDb()
      .insert(jobs)
      .values({
        name: label.startsWith('mail') ? 'mail.send' : 'test.work',
        payload: { label, html: '<p>Hola, Ana</p>', text: 'Hola, Ana' },
        status,
        dedupeKey: dedupeKey ?? null,
        createdAt: at,
        runAt: at,
        finishedAt: status === 'done' || status === 'failed' ? at : null,
        lockedUntil: status === 'running' ? new Date(Date.now() + 60_000) : null,
      })
  }

  test('finished jobs go after 14 days, or 30 with a dedupe key (e-mail bodies with them); pending and failed ones stay', async () => {
    await stored('mail-keyed-old', { status: 'done', daysAgo: 31, dedupeKey: 'mail.send:digest:ana:2026-W40' })
    await stored('digest-hour-old', { status: 'done', daysAgo: 31, dedupeKey: 'notifications.digest:2026-10-01T08' })
    await stored('plain-old', { status: 'done', daysAgo: 15 })
    await stored('mail-keyed-recent', { status: 'done', daysAgo: 29, dedupeKey: 'mail.send:welcome:ana' })
    await stored('plain-recent', { status: 'done', daysAgo: 13 })
    await stored('queued-old', { status: 'queued', daysAgo: 40, dedupeKey: 'test.work:reminder' })
    await stored('running-old', { status: 'running', daysAgo: 40 })
    await stored('failed-old', { status: 'failed', daysAgo: 40, dedupeKey: 'mail.send:activity:ana' })

    const audit = (daysAgo: number) => ({
      action: 'sign_in_failed' as const,
      createdAt: new Date(Date.now() - daysAgo * DAY),
      details: { daysAgo },
    })
    await getDb()
      .insert(auditLog)
      .values([audit(367), audit(360)])

    await housekeepingJob.run({}, { attempts: 1, jobId: 0 })

    // Audit lines are kept 12 months.
    const lines = await getDb()
      .select({ daysAgo: sql<number>`(${auditLog.details}->>'daysAgo')::int` })
      .from(auditLog)
      .where(sql`${auditLog.details} ? 'daysAgo'`)
    expect(lines.map((line) => line.daysAgo)).toEqual([360])
    const left = await getDb()
      .select({ label: sql<string>`${jobs.payload}->>'label'`, text: sql<string>`${jobs.payload}->>'text'` })
      .from(jobs)
      .where(sql`${jobs.payload} ? 'label'`)
    expect(left.map((job) => job.label).sort()).toEqual(['failed-old', 'mail-keyed-recent', 'plain-recent', 'queued-old', 'running-old'])
    expect(left.every((job) => job.text === 'Hola, Ana')).toBe(true)
    // And it comes back tomorrow, once.
    const next = await getDb().select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.name, housekeepingJob.name))
    expect(next).toHaveLength(1)
    expect(secondsFromNow(next[0]!.runAt) / 3600).toBeCloseTo(24, 1)
  })
})
