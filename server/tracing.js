// OpenTelemetry traces (decisions/0036), loaded before the server with `node --import` by
// `npm start` only when the standard OTEL_* variables ask for them (OTEL_TRACES_EXPORTER, or an
// OTLP endpoint): off, nothing of this is loaded. HTTP, Express and PostgreSQL (`pg`) spans;
// each request's span carries the log's request id (`request.id`, server/app.ts). The embedded
// database (PGlite) has no instrumentation: its statements appear in no span.
import { register } from 'node:module'

// The app's modules are ESM: their imports of http, express and pg are hooked here, not by require.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)

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
    new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => PROBES.has(request.url ?? '') }),
    new ExpressInstrumentation(),
    new PgInstrumentation(),
  ],
})
sdk.start()

// server.js calls it before it exits, so the last spans are sent.
globalThis[Symbol.for('circulo.flushTraces')] = () => sdk.shutdown()
