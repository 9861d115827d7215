// `node scripts/healthcheck.js [/path]`: exits 0 when this machine's server answers the path
// (default /healthz) with a 2xx within 4 s, 1 otherwise. The container's HEALTHCHECK runs it: the
// slim image has no curl, and Node is there anyway.
const path = process.argv[2] ?? '/healthz'
const port = process.env.PORT || '3000'
try {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) })
  if (!response.ok) console.error(`${path}: ${response.status}`)
  process.exitCode = response.ok ? 0 : 1
} catch (error) {
  console.error(`${path}: ${error instanceof Error ? error.message : error}`)
  process.exitCode = 1
}
