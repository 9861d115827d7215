// The operator's metrics endpoint (decisions/0036): GET /metrics on METRICS_HOST:METRICS_PORT, a
// port of its own that is never the public one. `npm start`'s supervisor answers it for all its
// server processes at once; `node server.js` run alone answers it itself.
import http from 'node:http'

/** Where metrics are served, from METRICS_PORT (off when unset) and METRICS_HOST (default 127.0.0.1). */
export function metricsAddress(env = process.env) {
  const raw = env.METRICS_PORT?.trim()
  if (!raw) return null
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`METRICS_PORT must be a port number (1 to 65535), not "${raw}"`)
  if (port === Number(env.PORT?.trim() || 3000)) {
    throw new Error(`METRICS_PORT must not be the public port (${port}): the metrics are for the operator, not for visitors`)
  }
  return { port, host: env.METRICS_HOST?.trim() || '127.0.0.1' }
}

/** Serves `read()` ({ contentType, body }) at /metrics; resolves once listening, rejects if it cannot. */
export function serveMetrics({ port, host }, read) {
  const server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://metrics')
    if ((request.method !== 'GET' && request.method !== 'HEAD') || pathname !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n')
      return
    }
    read().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' })
        response.end(request.method === 'HEAD' ? undefined : body)
      },
      (error) => {
        response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5' })
        response.end(`Metrics unavailable: ${error instanceof Error ? error.message : error}\n`)
      },
    )
  })
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`METRICS_PORT ${port} is already in use on ${host}`) : error),
    )
    server.listen(port, host, () => {
      // The process ends when its work does, not because metrics are being served.
      server.unref()
      resolve(server)
    })
  })
}
