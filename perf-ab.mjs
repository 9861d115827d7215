// Throwaway (not committed): req/s of a few pages in one run, alternating, against a running server.
import { runLoad } from './bench/load.js'
import { signIn } from './bench/seeded-session.js'
const BASE = process.env.BASE ?? 'http://127.0.0.1:3700'
const cookie = await signIn(BASE, 'bench-viewer@example.com', 'bench-password-2024')
const pages = (process.argv[2] ?? '/healthz,/legal,/legal#anon,/comunidad').split(',')
const results = {}
for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
  for (const page of pages) {
    const [path, anon] = page.split('#')
    const r = await runLoad({ url: BASE + path, headers: { 'Accept-Encoding': 'gzip, br', ...(anon ? {} : { Cookie: cookie }) }, concurrency: Number(process.env.CONC ?? 10), durationMs: Number(process.env.SECS ?? 5) * 1000, maxRequests: 1e6 })
    ;(results[page] ??= []).push(r.requestsPerSecond)
    if (r.errors) console.log(page, 'errors', r.errors, r.firstError)
  }
}
const h = Math.max(...results['/healthz'] ?? [1])
for (const [page, list] of Object.entries(results)) console.log(page.padEnd(24), list.join(' / '), ' ×healthz', (Math.max(...list) / h).toFixed(2))
