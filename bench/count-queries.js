// Preloaded into the benchmark's server (`node --import ./bench/count-queries.js scripts/start.js`)
// to count the SQL statements each HTTP request sends to the database, without changing the app.
//
// - Every HTTP request that carries an `x-bench-id` header runs inside an AsyncLocalStorage
//   context holding a counter; other requests (the load test) are left alone.
// - The database drivers are wrapped where the app's Drizzle sessions call them:
//     pg:     Pool.prototype.query (one statement; the pool's inner Client.query is not counted
//             twice) and Client.prototype.query (statements on a checked-out client: transactions,
//             whose BEGIN/COMMIT Drizzle sends as statements too);
//     PGlite: PGlite.prototype.query / exec, the query / exec of a transaction's handle, and the
//             BEGIN and COMMIT that PGlite's transaction() sends itself (counted as 2, as on pg).
//   A statement is counted for the request whose async context issued it, so background work
//   (the mail worker's polling, LISTEN) is never counted. The time the request waits on the
//   database is summed too (`sqlMs`: while at least one of its statements is in flight, so
//   loaders' statements run side by side count once): what of a page's latency is its SQL.
// - A loopback HTTP server on BENCH_COUNTER_PORT answers GET /?id=<x-bench-id> with
//   { count, sqlMs, statements: [first 160 characters of each statement] }.
import { AsyncLocalStorage } from 'node:async_hooks'
import http from 'node:http'
import { createRequire } from 'node:module'
import v8 from 'node:v8'
import { PGlite } from '@electric-sql/pglite'

const require = createRequire(import.meta.url)
const pg = require('pg')

const storage = new AsyncLocalStorage()
const records = new Map()
const MAX_RECORDS = 1000

function record(text) {
  const current = storage.getStore()
  if (!current || current.paused) return
  current.count += 1
  current.statements.push(
    String(text ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 160),
  )
}

/** The statement's promise, its time added to the request's `sqlMs` when it settles. */
function timed(current, result) {
  if (!current || current.paused || typeof result?.then !== 'function') return result
  if (current.inFlight++ === 0) current.busySince = performance.now()
  const settled = () => {
    if (--current.inFlight === 0) current.sqlMs += performance.now() - current.busySince
  }
  result.then(settled, settled)
  return result
}

function textOf(query) {
  return typeof query === 'string' ? query : query?.text
}

// --- HTTP: one counter per tagged request -------------------------------------------------
const emit = http.Server.prototype.emit
http.Server.prototype.emit = function (event, request, ...rest) {
  const id = event === 'request' ? request?.headers?.['x-bench-id'] : undefined
  if (!id) return emit.call(this, event, request, ...rest)
  const current = { count: 0, statements: [], sqlMs: 0, inFlight: 0, busySince: 0 }
  records.set(String(id), current)
  if (records.size > MAX_RECORDS) records.delete(records.keys().next().value)
  return storage.run(current, () => emit.call(this, event, request, ...rest))
}

// --- pg ---------------------------------------------------------------------------------------
const poolQuery = pg.Pool.prototype.query
pg.Pool.prototype.query = function (query, ...rest) {
  record(textOf(query))
  const current = storage.getStore()
  if (!current) return poolQuery.call(this, query, ...rest)
  // The pool runs the statement on one of its clients: count it once, here.
  return timed(
    current,
    storage.run({ ...current, paused: true }, () => poolQuery.call(this, query, ...rest)),
  )
}
const clientQuery = pg.Client.prototype.query
pg.Client.prototype.query = function (query, ...rest) {
  record(textOf(query))
  return timed(storage.getStore(), clientQuery.call(this, query, ...rest))
}

// --- PGlite -----------------------------------------------------------------------------------
function wrapHandle(handle) {
  const { query, exec } = handle
  handle.query = (text, ...rest) => (record(text), timed(storage.getStore(), query(text, ...rest)))
  handle.exec = (text, ...rest) => (record(text), timed(storage.getStore(), exec(text, ...rest)))
  return handle
}
const pgliteQuery = PGlite.prototype.query
PGlite.prototype.query = function (text, ...rest) {
  record(text)
  const current = storage.getStore()
  // `sql` and internal helpers call query(): count the outer call only.
  return current
    ? timed(
        current,
        storage.run({ ...current, paused: true }, () => pgliteQuery.call(this, text, ...rest)),
      )
    : pgliteQuery.call(this, text, ...rest)
}
const pgliteExec = PGlite.prototype.exec
PGlite.prototype.exec = function (text, ...rest) {
  record(text)
  return timed(storage.getStore(), pgliteExec.call(this, text, ...rest))
}
const pgliteTransaction = PGlite.prototype.transaction
PGlite.prototype.transaction = function (callback, ...rest) {
  record('BEGIN')
  return pgliteTransaction.call(
    this,
    async (tx) => {
      const result = await callback(wrapHandle(tx))
      record('COMMIT')
      return result
    },
    ...rest,
  )
}

// --- Where the benchmark reads the counters -----------------------------------------------------
const port = Number(process.env.BENCH_COUNTER_PORT)
if (port) {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === '/memory') {
      // Where the server's memory is (after a full collection when asked): the bench's heap findings.
      if (url.searchParams.has('gc')) globalThis.gc?.()
      const mib = (bytes) => Math.round(bytes / 2 ** 20)
      const usage = process.memoryUsage()
      const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, mib(space.space_used_size)]))
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify({ ...Object.fromEntries(Object.entries(usage).map(([key, value]) => [key, mib(value)])), spaces }))
      return
    }
    const id = url.searchParams.get('id') ?? ''
    const found = records.get(id)
    response.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' })
    response.end(
      JSON.stringify(
        found ? { count: found.count, sqlMs: Math.round(found.sqlMs * 10) / 10, statements: found.statements } : { error: 'unknown id' },
      ),
    )
  })
  server.listen(port, '127.0.0.1')
  server.unref()
}
