// A small closed-loop load generator on Node's http module (no dependency): `concurrency`
// keep-alive connections, each sending its next request as soon as the previous answer has
// been read to the end, until the time or the request budget is spent.
import http from 'node:http'

/** One GET, body read to the end; resolves { status, bytes } or rejects on error/timeout. */
export function get(url, { agent, headers = {}, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    // A visitor's request has no cookie: headers left undefined are not sent.
    const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined))
    const request = http.get(url, { agent, headers: sent }, (response) => {
      let bytes = 0
      const chunks = []
      response.on('data', (chunk) => {
        bytes += chunk.length
        if (!agent || response.statusCode >= 300) chunks.push(chunk)
      })
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, bytes, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`timeout after ${timeoutMs} ms`)))
    request.on('error', reject)
  })
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (!sorted.length) return null
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]
}

/**
 * Runs one scenario. Latency is measured from the request's start to the last byte of the
 * answer; requests/s counts completed answers over the scenario's wall time. Errors are
 * non-2xx answers and failed requests (connection errors, timeouts).
 */
export async function runLoad({ url, headers, concurrency, durationMs, maxRequests, timeoutMs = 30_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies = []
  const statuses = {}
  let started = 0
  let failures = 0
  let non2xx = 0
  let bytes = 0
  let firstError
  const begin = performance.now()
  const deadline = begin + durationMs
  async function worker() {
    while (performance.now() < deadline && started < maxRequests) {
      started += 1
      const t0 = performance.now()
      try {
        const response = await get(url, { agent, headers, timeoutMs })
        latencies.push(performance.now() - t0)
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
        bytes += response.bytes
        if (response.status < 200 || response.status >= 300) {
          non2xx += 1
          firstError ??= `HTTP ${response.status} ${response.body.toString('utf8').slice(0, 200)}`
        }
      } catch (error) {
        failures += 1
        firstError ??= error instanceof Error ? error.message : String(error)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const seconds = (performance.now() - begin) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const round = (value, digits = 1) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits)
  return {
    concurrency,
    requests: latencies.length + failures,
    seconds: round(seconds, 2),
    requestsPerSecond: round(latencies.length / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? null),
    errors: non2xx + failures,
    statuses,
    avgBytes: latencies.length ? Math.round(bytes / latencies.length) : 0,
    firstError,
  }
}
