// OpenTelemetry traces (decisions/0036), loaded before the server with `node --import` by
// `npm start` only when the standard OTEL_* variables ask for them (OTEL_TRACES_EXPORTER, or an
// OTLP endpoint): off, nothing of this is loaded. HTTP, Express and PostgreSQL (`pg`) spans;
// each request's HTTP span carries the log's request id (`request.id`, sent by server/app.ts).
// The embedded database (PGlite) has no instrumentation: its statements appear in no span.
import { createRequire, register } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

// Express is imported by ES modules (server.js and the server bundle, where it stays external), so
// only an ESM loader hook sees it: require-in-the-middle, which the instrumentations also use,
// sees `require` calls alone (pg's spans come from it: pg requires its own files). The loader must
// be the import-in-the-middle the Express instrumentation registers its hook with: each copy keeps
// its own list of hooks, and npm gives every instrumentation package a copy of its own. The bare
// '@opentelemetry/instrumentation/hook.mjs' resolved from here is another one (0.57, hoisted for a
// development tool: package-lock.json marks it dev, so the image's production install lacks it): its
// loader wrapped every module for a list of hooks no instrumentation had joined, so no Express spans.
const require = createRequire(import.meta.url)
const instrumentation = createRequire(require.resolve('@opentelemetry/instrumentation-express')).resolve('@opentelemetry/instrumentation')
const importInTheMiddle = createRequire(instrumentation).resolve('import-in-the-middle')
const { createAddHookMessageChannel } = require(importInTheMiddle)
// The loader wraps only the modules a hook names (express), not every module the server imports.
const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel()
register(pathToFileURL(path.join(path.dirname(importInTheMiddle), 'hook.mjs')), registerOptions)

// Traces only: the metrics are prom-client's (METRICS_PORT), the logs pino's.
process.env.OTEL_METRICS_EXPORTER ??= 'none'
process.env.OTEL_LOGS_EXPORTER ??= 'none'
process.env.OTEL_SERVICE_NAME ??= 'circulo-ceo'

const { NodeSDK } = await import('@opentelemetry/sdk-node')
const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http')
const { ExpressInstrumentation } = await import('@opentelemetry/instrumentation-express')
const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg')

/** Probes, every few seconds from each load balancer, would drown the requests worth reading. */
const PROBES = new Set(['/healthz', '/readyz'])

const sdk = new NodeSDK({
  instrumentations: [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => PROBES.has(request.url ?? ''),
      // The request's span carries the id its log lines carry (server/app.ts sends it as
      // X-Request-Id). Set here, on the HTTP span, once the answer is done: set by the app, it
      // would land on whichever Express middleware's span is active at that moment.
      applyCustomAttributesOnSpan: (span, _request, response) => {
        const requestId = response.getHeader?.('x-request-id')
        if (typeof requestId === 'string') span.setAttribute('request.id', requestId)
      },
    }),
    new ExpressInstrumentation(),
    new PgInstrumentation(),
  ],
})
sdk.start()
// The loader knows which modules to wrap before the server imports them.
await waitForAllMessagesAcknowledged()

// server.js calls it before it exits, so the last spans are sent.
globalThis[Symbol.for('circulo.flushTraces')] = () => sdk.shutdown()
