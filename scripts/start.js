// `npm start`: builds when needed, then runs the server under supervision, as a cluster of
// WEB_CONCURRENCY processes sharing the port (decisions/0036; one on the embedded database). A
// process that crashes is started again alone (after 1, 2, 5, 10 s) while the others serve; one
// that cannot start (bad configuration, port in use) stops them all; Ctrl-C or SIGTERM drain every
// process, and this one leaves after them. With METRICS_PORT set, this process answers the metrics
// scrape for all of them; with tracing configured (OTEL_*), each loads server/tracing.js first.
import cluster from 'node:cluster'
import { constants } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadDotEnv } from '../server/dotenv.js'
import { metricsAddress, serveMetrics } from '../server/metrics-server.js'
import { ensureBuild, root } from './ensure-build.js'
import { memoryFlags } from './memory.js'
import { workerPlan } from './workers.js'

process.chdir(root)
loadDotEnv(root)

/** server.js exits with this when it cannot start at all: restarting would not help. */
const CANNOT_START = 78
const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000]
const STABLE_AFTER_MS = 60_000

function cannotStart(error) {
  console.error(`\nThe server could not start: ${error.message}\n`)
  process.exit(CANNOT_START)
}

let plan
let memory
let metrics
try {
  plan = workerPlan()
  memory = memoryFlags(process.env, process.execArgv, plan.workers)
  metrics = metricsAddress()
} catch (error) {
  cannotStart(error)
}
ensureBuild()
if (plan.note) console.log(plan.note)

/** Traces are on when the standard variables name an exporter (OpenTelemetry's own defaults would send them to localhost). */
function tracingEnabled(env = process.env) {
  if (env.OTEL_SDK_DISABLED === 'true') return false
  const exporter = env.OTEL_TRACES_EXPORTER?.trim()
  return exporter ? exporter !== 'none' : Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim())
}

// Node's own flags (--import, --cpu-prof…) apply to the server processes, within their memory ceiling.
// Tracing is loaded before anything else only when wanted: off, it costs nothing.
const tracing = tracingEnabled() ? ['--import', pathToFileURL(path.join(root, 'server/tracing.js')).href] : []
cluster.setupPrimary({ exec: path.join(root, 'server.js'), execArgv: [...process.execArgv, ...memory, ...tracing] })

const slots = Array.from({ length: plan.workers }, (_, index) => ({ number: index + 1, worker: undefined, crashes: 0, restart: undefined }))
let stopping = false
/** The status this process leaves with once every server process has: the first that was not 0. */
let status = 0

function startWorker(slot, { again = false } = {}) {
  const startedAt = Date.now()
  // Started again beside others that serve: it listens once it is ready, so no request meets its start.
  const worker = cluster.fork(again && plan.workers > 1 ? { LISTEN_WHEN_READY: '1' } : {})
  slot.worker = worker
  worker.on('exit', (code, signal) => {
    slot.worker = undefined
    if (stopping) {
      // Stopping: each has answered what it was serving; leave with their status, as a shell would.
      status ||= code ?? 128 + constants.signals[signal]
      if (slots.every((other) => !other.worker)) process.exit(status)
      return
    }
    if (code === CANNOT_START) {
      status = CANNOT_START
      return stopAll('SIGTERM')
    }
    slot.crashes = Date.now() - startedAt > STABLE_AFTER_MS ? 1 : slot.crashes + 1
    const delay = RESTART_DELAYS_MS[Math.min(slot.crashes - 1, RESTART_DELAYS_MS.length - 1)]
    const which = plan.workers > 1 ? ` (process ${slot.number} of ${plan.workers})` : ''
    console.error(`The server${which} stopped (${signal ?? `exit code ${code}`}); starting it again in ${delay / 1000} s.`)
    slot.restart = setTimeout(() => startWorker(slot, { again: true }), delay)
  })
}

function stopAll(signal) {
  stopping = true
  for (const slot of slots) clearTimeout(slot.restart)
  const running = slots.filter((slot) => slot.worker)
  if (running.length === 0) process.exit(status)
  // The signal itself, not worker.kill(): each server drains on it (server.js).
  for (const slot of running) slot.worker.process.kill(signal)
}

// Ctrl-C and systemd signal the whole process group, so the servers often have the signal already
// (a second one changes nothing); sent to this process alone, it is passed on. Either way this
// process waits for every server's graceful stop and leaves after them.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal))

/** Every server process's metrics, asked over the cluster's channel and added up (prom-client's aggregation). */
let scrapes = 0
async function clusterMetrics() {
  const id = ++scrapes
  const answers = await Promise.all(slots.flatMap(({ worker }) => (worker?.isConnected() ? [metricsOf(worker, id)] : [])))
  const { AggregatorRegistry } = await import('prom-client')
  const registry = AggregatorRegistry.aggregate(answers.filter(Boolean))
  return { contentType: registry.contentType, body: await registry.metrics() }
}

/** One process's metrics as JSON, or null when it does not answer in time (starting, stuck). */
function metricsOf(worker, id) {
  return new Promise((resolve) => {
    const done = (metrics) => {
      clearTimeout(timer)
      worker.off('message', onMessage)
      resolve(metrics)
    }
    const onMessage = (message) => {
      if (message?.type === 'circulo:metrics-response' && message.id === id) done(message.metrics)
    }
    const timer = setTimeout(() => done(null), 3_000)
    worker.on('message', onMessage)
    try {
      worker.send({ type: 'circulo:metrics-request', id })
    } catch {
      done(null)
    }
  })
}

if (metrics) await serveMetrics(metrics, clusterMetrics).catch(cannotStart)
for (const slot of slots) startWorker(slot)
