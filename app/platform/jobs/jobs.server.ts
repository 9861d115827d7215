import { and, eq, inArray, lte, or, sql } from 'drizzle-orm'
import { type DbExecutor, getDatabase, getDb } from '~/platform/db/client.server'
import { logger } from '~/platform/logger.server'
import { jobsCompleted, jobsFailed, measureQueueDepth } from '~/platform/metrics/metrics.server'
import { jobs } from './schema'

/**
 * Background work (docs/decisions/0014). A feature defines a job once, with its handler and
 * retry policy, and enqueues it inside its own transaction when it has one, so the job exists
 * exactly when the change that asked for it committed. Workers in every app process claim due
 * jobs with FOR UPDATE SKIP LOCKED: each runs once at a time, retried with back-off, and a job
 * that gives up stays in the table as `failed` (`npm run jobs` lists and retries them).
 */
export interface JobDefinition<Payload> {
  name: string
  /** What the operator's console calls it (Spanish). */
  label?: string
  run: (payload: Payload, context: { attempts: number; jobId: number }) => Promise<void>
  /** Seconds until the next try after a failure, or null to give up. Default: 30 s doubling, 8 tries. */
  retry?: (attempts: number, error: unknown) => number | null
  /** A try taking longer than this is presumed dead and the job is claimed again. */
  timeoutSeconds?: number
}

const definitions = new Map<string, JobDefinition<never>>()

export function defineJob<Payload>(definition: JobDefinition<Payload>) {
  if (definitions.has(definition.name)) throw new Error(`Job ${definition.name} is defined twice`)
  definitions.set(definition.name, definition as JobDefinition<never>)
  return definition
}

let declared: { jobs: readonly JobDefinition<never>[]; schedules: ReadonlyArray<() => Promise<unknown>> } = { jobs: [], schedules: [] }

/**
 * Called once, by the collected parts (app/parts.server.ts): the jobs every feature declares (listed
 * there, their modules are loaded, so every process that runs the worker defines them) and what
 * each schedules at start-up.
 */
export function registerJobs(jobs: readonly JobDefinition<never>[], schedules: ReadonlyArray<() => Promise<unknown>>) {
  declared = { jobs, schedules }
}

export function declaredJobs() {
  return declared.jobs
}

/** At start-up, once the worker runs: the next run of each regular job (its dedupe key keeps one across processes). */
export async function runSchedules() {
  if (declared.jobs.length === 0) throw new Error('No jobs declared: app/parts.server.ts was not imported')
  for (const schedule of declared.schedules) await schedule()
}

/** The Spanish name of a kind of job, for the console (its own name when this process does not define it). */
export function jobLabel(name: string) {
  return definitions.get(name)?.label ?? name
}

export function defaultRetry(attempts: number) {
  return attempts >= 8 ? null : Math.min(30 * 2 ** (attempts - 1), 3600)
}

const CHANNEL = 'jobs'

/**
 * Queues a job (in `executor`'s transaction when given). With a dedupe key the job is queued
 * once ever: returns false when that key exists.
 */
export async function enqueue<Payload>(
  job: JobDefinition<Payload>,
  payload: Payload,
  { runAt, dedupeKey, executor = getDb() }: { runAt?: Date; dedupeKey?: string; executor?: DbExecutor } = {},
) {
  const inserted = await executor
    .insert(jobs)
    .values({ name: job.name, payload, runAt: runAt ?? sql`now()`, dedupeKey: dedupeKey ? `${job.name}:${dedupeKey}` : null })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id })
  if (inserted.length === 0) return false
  // Wakes the workers of every process once the transaction commits.
  await executor.execute(sql`select pg_notify(${CHANNEL}, ${job.name})`)
  return true
}

const BATCH_SIZE = 10

/**
 * Claims and runs up to `limit` due jobs, one after another. Returns how many were claimed. Each
 * is claimed when its turn comes: a claim made for a whole batch could expire while the jobs
 * before it ran, and another worker would then run it too.
 */
export async function runDueJobs({ names, limit = BATCH_SIZE }: { names?: string[]; limit?: number } = {}) {
  const db = getDb()
  const known = (names ?? [...definitions.keys()]).filter((name) => definitions.has(name))
  if (known.length === 0) return 0
  let claimed = 0
  for (; claimed < limit; claimed++) {
    const [job] = await db
      .update(jobs)
      .set({
        status: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: sql`now() + make_interval(secs => ${claimSeconds(known)}::double precision)`,
      })
      .where(
        inArray(
          jobs.id,
          db
            .select({ id: jobs.id })
            .from(jobs)
            .where(
              and(
                inArray(jobs.name, known),
                or(
                  and(eq(jobs.status, 'queued'), lte(jobs.runAt, sql`now()`)),
                  and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, sql`now()`)),
                ),
              ),
            )
            .orderBy(jobs.runAt, jobs.id)
            .limit(1)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning({ id: jobs.id, name: jobs.name, payload: jobs.payload, attempts: jobs.attempts })
    if (!job) break
    const definition = definitions.get(job.name)!
    try {
      await definition.run(job.payload as never, { attempts: job.attempts, jobId: job.id })
      await db
        .update(jobs)
        .set({ status: 'done', lockedUntil: null, lastError: null, finishedAt: sql`now()` })
        .where(eq(jobs.id, job.id))
      jobsCompleted.inc({ kind: job.name })
    } catch (error) {
      jobsFailed.inc({ kind: job.name })
      const delay = (definition.retry ?? defaultRetry)(job.attempts, error)
      const lastError = String((error as Error)?.message ?? error).slice(0, 1000)
      logger.warn(
        { err: error, jobId: job.id, job: job.name, attempts: job.attempts },
        delay === null ? 'Job failed for good' : 'Job failed; will retry',
      )
      await db
        .update(jobs)
        .set(
          delay === null
            ? { status: 'failed', lockedUntil: null, lastError, finishedAt: sql`now()` }
            : { status: 'queued', lockedUntil: null, lastError, runAt: sql`now() + make_interval(secs => ${delay}::double precision)` },
        )
        .where(eq(jobs.id, job.id))
    }
  }
  return claimed
}

const DEFAULT_TIMEOUT_SECONDS = 300

/** How long a claim lasts, per job name: its own `timeoutSeconds`, or five minutes. */
function claimSeconds(names: string[]) {
  const custom = names.filter((name) => definitions.get(name)?.timeoutSeconds)
  if (custom.length === 0) return sql`${DEFAULT_TIMEOUT_SECONDS}::int`
  const cases = custom.map((name) => sql`when ${name} then ${definitions.get(name)!.timeoutSeconds!}::int`)
  return sql`(case ${jobs.name} ${sql.join(cases, sql` `)} else ${DEFAULT_TIMEOUT_SECONDS}::int end)`
}

/** When the next queued job is due (for the worker's timer). */
async function nextDueAt() {
  const [row] = await getDb()
    .select({
      at: sql<Date | null>`min(case when ${jobs.status} = 'queued' then ${jobs.runAt} else ${jobs.lockedUntil} end)`.mapWith((value) =>
        value ? new Date(value) : null,
      ),
    })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running']))
  return row?.at ?? null
}

let worker:
  { timer?: NodeJS.Timeout; running?: Promise<void>; again: boolean; stopped: boolean; unlisten?: () => Promise<void> } | undefined

/** The longest a worker sleeps: a job queued by a process that failed to notify still runs. */
const MAX_SLEEP_MS = 30_000

export async function startJobWorker() {
  worker = { again: false, stopped: false }
  worker.unlisten = await getDatabase().listen(CHANNEL, () => wake())
  wake()
  logger.info({ jobs: [...definitions.keys()] }, 'Job worker started')
}

export async function stopJobWorker() {
  if (!worker) return
  worker.stopped = true
  clearTimeout(worker.timer)
  await worker.unlisten?.()
  await worker.running
  worker = undefined
}

function wake() {
  const current = worker
  if (!current || current.stopped) return
  if (current.running) {
    current.again = true
    return
  }
  clearTimeout(current.timer)
  current.running = drain(current).finally(() => {
    current.running = undefined
    // A wake-up that came while the next run was being scheduled.
    if (current.again && !current.stopped) wake()
  })
}

async function drain(current: NonNullable<typeof worker>) {
  do {
    current.again = false
    try {
      if ((await runDueJobs()) === BATCH_SIZE) current.again = true
    } catch (error) {
      logger.error({ err: error }, 'Job worker run failed')
    }
  } while (current.again && !current.stopped)
  if (current.stopped) return
  const next = await nextDueAt().catch(() => null)
  const delay = next ? Math.max(0, next.getTime() - Date.now()) + 50 : MAX_SLEEP_MS
  current.timer = setTimeout(wake, Math.min(delay, MAX_SLEEP_MS))
}

/** For `npm run jobs` and the console: the jobs that gave up, newest first. */
export async function listFailedJobs(limit = 50) {
  return getDb()
    .select({
      id: jobs.id,
      name: jobs.name,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(eq(jobs.status, 'failed'))
    .orderBy(sql`${jobs.finishedAt} desc`)
    .limit(limit)
}

/** Puts failed jobs back in the queue (all of them, or the ids given). */
export async function retryFailedJobs(ids?: number[], executor: DbExecutor = getDb()) {
  const retried = await executor
    .update(jobs)
    .set({ status: 'queued', attempts: 0, runAt: sql`now()`, finishedAt: null })
    .where(and(eq(jobs.status, 'failed'), ids ? inArray(jobs.id, ids) : undefined))
    .returning({ id: jobs.id })
  if (retried.length > 0) await executor.execute(sql`select pg_notify(${CHANNEL}, 'retry')`)
  return retried.length
}

/** Removes failed jobs the operator has decided not to run again (the ids given); returns the ids removed. */
export async function discardFailedJobs(ids: number[], executor: DbExecutor = getDb()) {
  if (ids.length === 0) return []
  const removed = await executor
    .delete(jobs)
    .where(and(eq(jobs.status, 'failed'), inArray(jobs.id, ids)))
    .returning({ id: jobs.id, name: jobs.name })
  return removed
}

// The queue's depth per kind, for the metrics (circulo_jobs_queue_depth): what waits, due or not.
measureQueueDepth(async () =>
  (await pendingJobsByName()).filter((row) => row.queued > 0).map((row) => ({ kind: row.name, waiting: row.queued })),
)

/** Jobs waiting or running, per kind (the queue's partial index: never the finished ones). */
export async function pendingJobsByName() {
  return getDb()
    .select({
      name: jobs.name,
      queued: sql<number>`count(*) filter (where ${jobs.status} = 'queued')`.mapWith(Number),
      running: sql<number>`count(*) filter (where ${jobs.status} = 'running')`.mapWith(Number),
    })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running']))
    .groupBy(jobs.name)
    .orderBy(jobs.name)
}
