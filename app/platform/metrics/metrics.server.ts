import cluster from 'node:cluster'
import client from 'prom-client'

/**
 * What an operator watches (decisions/0036; the names are the runbook's, docs/operations.md):
 * Prometheus metrics in prom-client's global registry. Every process records; the process that
 * listens on METRICS_PORT answers the scrape (the cluster's primary, for all its workers at once).
 * A metric is declared here, once, with its labels and how the workers' values add up; a gauge
 * read from the database at scrape time is a feature's part (`gauges`, registerGauges below).
 *
 * Labels never carry an id: a route is its pattern, a job its kind.
 */

/**
 * A metric is made once per process: a module loaded again (development's reloads, tests sharing
 * their worker's modules) finds the one it made before instead of failing on a name in use.
 */
function counter<L extends string>(config: client.CounterConfiguration<L>) {
  return (client.register.getSingleMetric(config.name) as client.Counter<L> | undefined) ?? new client.Counter(config)
}
function histogram<L extends string>(config: client.HistogramConfiguration<L>) {
  return (client.register.getSingleMetric(config.name) as client.Histogram<L> | undefined) ?? new client.Histogram(config)
}
function gauge<L extends string>(config: client.GaugeConfiguration<L>) {
  return (client.register.getSingleMetric(config.name) as client.Gauge<L> | undefined) ?? new client.Gauge(config)
}

/** How long a value read at scrape time (the database's) may take before the last one is kept. */
const SCRAPE_READ_TIMEOUT_MS = 2_000

export const httpRequestDuration = histogram({
  name: 'circulo_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
})

export const dbStatementDuration = histogram({
  name: 'circulo_db_statement_duration_seconds',
  help: 'Time of an SQL statement, by its kind',
  labelNames: ['operation'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
})

export const dbErrors = counter({
  name: 'circulo_db_errors_total',
  help: 'SQL statements that failed',
})

export const jobsFailed = counter({
  name: 'circulo_jobs_failed_total',
  help: 'Job tries that failed (retried later or given up), by kind',
  labelNames: ['kind'] as const,
})

export const jobsCompleted = counter({
  name: 'circulo_jobs_completed_total',
  help: 'Jobs done, by kind',
  labelNames: ['kind'] as const,
})

export const mailSent = counter({
  name: 'circulo_mail_sent_total',
  help: 'E-mails handed to the transport',
})
export const mailFailed = counter({
  name: 'circulo_mail_failed_total',
  help: 'E-mail tries the transport refused',
})

export const webhookEvents = counter({
  name: 'circulo_webhook_events_total',
  help: 'Webhook events received, by provider and outcome',
  labelNames: ['provider', 'outcome'] as const,
})

/** Sources read at scrape time, set by the modules that know them (the job queue, the event streams, readiness). */
const sources: {
  queueDepth?: () => Promise<Array<{ kind: string; waiting: number }>>
  connections?: () => number
  ready?: () => Promise<boolean>
} = {}

export function measureQueueDepth(read: NonNullable<typeof sources.queueDepth>) {
  sources.queueDepth = read
}
export function measureConnections(count: NonNullable<typeof sources.connections>) {
  sources.connections = count
}
export function measureReadiness(read: NonNullable<typeof sources.ready>) {
  sources.ready = read
}

/** `read` within the scrape's time limit; on failure or delay, undefined (the last value stays). */
async function withinScrape<T>(read: () => Promise<T>) {
  let timer: NodeJS.Timeout | number | undefined
  try {
    return await Promise.race([read(), new Promise<undefined>((resolve) => (timer = setTimeout(resolve, SCRAPE_READ_TIMEOUT_MS)))])
  } catch {
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

// Read from the database, so the same in every worker: the cluster keeps the highest, not the sum.
gauge({
  name: 'circulo_jobs_queue_depth',
  help: 'Jobs waiting to run, by kind',
  labelNames: ['kind'] as const,
  aggregator: 'max',
  async collect() {
    const depth = sources.queueDepth && (await withinScrape(sources.queueDepth))
    if (!depth) return
    this.reset()
    for (const { kind, waiting } of depth) this.set({ kind }, waiting)
  },
})

gauge({
  name: 'circulo_realtime_connections',
  help: 'Live event streams open (the bell, open pages)',
  collect() {
    this.set(sources.connections?.() ?? 0)
  },
})

// 1 only when every process would answer /readyz with 200.
gauge({
  name: 'circulo_ready',
  help: '1 when /readyz answers 200, 0 otherwise',
  aggregator: 'min',
  async collect() {
    this.set((await withinScrape(sources.ready ?? (async () => false))) ? 1 : 0)
  },
})

/** A number of the community an operator follows, read from the database when scraped (a feature's part). */
export interface BusinessGauge {
  name: `circulo_${string}`
  help: string
  read: () => Promise<number>
}

/** Called once with what the features declare (app/platform/parts.server.ts). */
export function registerGauges(gauges: readonly BusinessGauge[]) {
  for (const { name, help, read } of gauges) {
    if (client.register.getSingleMetric(name)) continue
    new client.Gauge({
      name,
      help,
      aggregator: 'max',
      async collect() {
        const value = await withinScrape(read)
        if (value !== undefined) this.set(value)
      },
    })
  }
}

let defaultsCollected = false

/** The process's own numbers (event-loop lag, heap, GC, CPU), once, where metrics are scraped. */
export function collectProcessMetrics() {
  if (defaultsCollected) return
  defaultsCollected = true
  client.collectDefaultMetrics()
}

/** The scrape of this process alone, in Prometheus' text format. */
export async function metricsText() {
  return { contentType: client.register.contentType, body: await client.register.metrics() }
}

/** What the cluster's primary sends a worker to ask for its metrics, and what the worker answers. */
export const METRICS_REQUEST = 'circulo:metrics-request'
export const METRICS_RESPONSE = 'circulo:metrics-response'

// A worker answers its primary's request with its registry as JSON (the primary aggregates them).
const ANSWERING = Symbol.for('circulo.metrics.answering')
if (cluster.isWorker && !(ANSWERING in globalThis)) {
  Object.assign(globalThis, { [ANSWERING]: true })
  process.on('message', (message: { type?: string; id?: number }) => {
    if (message?.type !== METRICS_REQUEST) return
    client.register
      .getMetricsAsJSON()
      .then((metrics) => process.send?.({ type: METRICS_RESPONSE, id: message.id, metrics }))
      .catch(() => process.send?.({ type: METRICS_RESPONSE, id: message.id, metrics: [] }))
  })
}

/**
 * A route pattern as a label: React Router writes its patterns without the leading slash, and its
 * catch-all ('*', the 404 page) and what no route took are 'unmatched'; built files are 'static'.
 */
export function routeLabel(pattern: string | undefined) {
  if (!pattern || pattern === '*' || pattern === '/*') return 'unmatched'
  return pattern === 'static' || pattern.startsWith('/') ? pattern : `/${pattern}`
}

/** The HTTP method as a label: the usual ones, anything else as 'other'. */
export function methodLabel(method: string) {
  return /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(method) ? method : 'other'
}

/** The kind of an SQL statement from its first word. */
export function operationOf(text: string) {
  const word = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase()
  return word === 'select' || word === 'insert' || word === 'update' || word === 'delete' ? word : 'other'
}
