// The budgets every page is held to (bench/budgets.json, docs/decisions/0027-performance-budgets.md):
// `npm run bench` fails and names the page that falls below one, and a page without a row.
import { readFileSync } from 'node:fs'
import { firstLoadKiB, pageRoutes, readManifest } from './first-load.js'

export function readBudgets(file) {
  return JSON.parse(readFileSync(file, 'utf8'))
}

/**
 * What one engine's run at ×1 broke: each page against its guards (its floor at 50 connections and
 * its p99 at 10, taken on this engine by `--take-guards`) and its SQL statements per request, which
 * must not change; and the peak memory against the engine's ceiling.
 */
export function engineProblems(budgets, result) {
  const problems = []
  const summary = summarize(result)
  for (const [name, page] of Object.entries(summary.pages)) {
    const budget = budgets.pages[name]
    if (!budget) {
      problems.push(`${name}: no row in bench/budgets.json`)
      continue
    }
    const guard = budget[result.engine]
    if (!guard) problems.push(`${name}: no ${result.engine} guard in bench/budgets.json (npm run bench -- --take-guards)`)
    if (guard?.floor && page.ratioAt50 != null && page.ratioAt50 < guard.floor)
      problems.push(`${name}: ${page.ratioAt50}× /healthz at 50 connections, guard ≥ ${guard.floor}×`)
    if (guard?.p99Ms && page.p99At10 != null && page.p99At10 > guard.p99Ms)
      problems.push(`${name}: p99 ${page.p99At10} ms at 10 connections, guard ≤ ${guard.p99Ms} ms`)
    if (budget.statements != null && page.statements != null && page.statements !== budget.statements)
      problems.push(`${name}: ${page.statements} SQL statements per request, budget ${budget.statements}`)
  }
  const ceiling = budgets.peakRssMiB[result.engine]
  const peak = peakRss(result)
  if (ceiling && peak > ceiling) problems.push(`server: peak RSS ${peak} MiB on ${result.engine}, budget < ${ceiling} MiB`)
  return problems
}

/**
 * One run, page by page: statements per request, median latency at one connection, p99 at 10,
 * requests/s and the ratio to /healthz at 50, and the server's peak RSS by the end of the page's
 * load; the run's peak RSS is the load's (the upload proof, when it runs, comes after).
 */
export function summarize(result) {
  const pages = {}
  for (const scenario of result.scenarios) {
    const counted = result.queries.find((query) => query.path === scenario.path)
    const page = (pages[scenario.name] ??= { path: scenario.path, statements: counted?.statements ?? null, sqlMs: counted?.sqlMs ?? null })
    if (scenario.concurrency === 1) page.p50At1 = scenario.p50Ms
    if (scenario.concurrency === 10) page.p99At10 = scenario.p99Ms
    if (scenario.concurrency === 50) Object.assign(page, { rpsAt50: scenario.requestsPerSecond, ratioAt50: scenario.ratioToHealthz })
    page.peakRssMiB = Math.max(page.peakRssMiB ?? 0, scenario.serverPeakRssMiB ?? 0)
  }
  for (const [name, figures] of Object.entries(result.paired ?? {})) if (pages[name]) pages[name].paired = figures
  const peakRssMiB = Math.max(0, ...Object.values(pages).map((page) => page.peakRssMiB))
  return { engine: result.engine, scale: result.scale, pages, peakRssMiB }
}

/** The middle value (nulls left out), without reordering `values`. */
export const median = (values) => {
  const sorted = values.filter((value) => value != null).sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : null
}

/** The median of several runs' summaries of one engine, page by page and figure by figure. */
export function medianSummary(summaries) {
  const pages = {}
  for (const name of Object.keys(summaries[0].pages)) {
    const runs = summaries.map((summary) => summary.pages[name]).filter(Boolean)
    pages[name] = { path: runs[0].path }
    for (const key of ['statements', 'sqlMs', 'p50At1', 'p99At10', 'rpsAt50', 'ratioAt50', 'peakRssMiB'])
      pages[name][key] = median(runs.map((run) => run[key]))
  }
  return { ...summaries[0], pages, peakRssMiB: median(summaries.map((summary) => summary.peakRssMiB)), runs: summaries.length }
}

/**
 * Issue 38: cost stays flat as the community grows. A run at ×N against the ×1 run of the same
 * engine: every page keeps its statement count, its median at one connection stays within 1.5×
 * (judged, for a page over the line in the runs, on its turns beside a ×1 server), and the server's
 * peak RSS within 10 %.
 */
export function scaleProblems(summary, reference) {
  const problems = []
  for (const [name, page] of Object.entries(summary.pages)) {
    const base = reference.pages[name]
    if (!base) continue
    if (page.statements !== base.statements)
      problems.push(`${name}: ${page.statements} SQL statements per request at ×${summary.scale}, ${base.statements} at ×1`)
    // Measured again beside a ×1 server (scripts/bench.js pairedCheck), the page is judged on those turns.
    const { p50At1, p50AtScale } = page.paired ?? { p50At1: base.p50At1, p50AtScale: page.p50At1 }
    const how = page.paired ? ` (in turns beside a ×1 server; ${page.p50At1} ms against ${base.p50At1} ms in the runs)` : ''
    if (p50AtScale != null && p50At1 != null && p50AtScale > 1.5 * p50At1)
      problems.push(`${name}: p50 ${p50AtScale} ms at one connection at ×${summary.scale}, over 1.5 × ${p50At1} ms at ×1${how}`)
  }
  if (summary.peakRssMiB > 1.1 * reference.peakRssMiB)
    problems.push(`server: peak RSS ${summary.peakRssMiB} MiB at ×${summary.scale}, over 1.1 × ${reference.peakRssMiB} MiB at ×1`)
  return problems
}

/**
 * The guards from the median of several ×1 runs (issue 38): the floor 20 % under the median ratio
 * to /healthz, the p99 ceiling 20 % over the median p99, for the run's engine, with the date and
 * commit beside them; each page's statement count as measured. Other engines' guards are kept.
 */
export function withGuards(budgets, summary, { takenAt, commit }) {
  const pages = { ...budgets.pages }
  for (const [name, page] of Object.entries(summary.pages)) {
    const guard = { takenAt, commit }
    if (page.ratioAt50 != null && page.path !== '/healthz') guard.floor = Math.floor(page.ratioAt50 * 0.8 * 1000) / 1000
    if (page.p99At10 != null) guard.p99Ms = Math.ceil(page.p99At10 * 1.2)
    // The hand-set floor and p99 of before issue 38 give way to the engines' guards.
    const kept = { ...pages[name] }
    delete kept.floor
    delete kept.p99Ms
    pages[name] = { ...kept, statements: page.statements ?? kept.statements ?? null, [summary.engine]: guard }
  }
  return { ...budgets, pages }
}

/**
 * The table the issue asks for, one row per page and run: statements, p50 at 1, p99 at 10, req/s at 50, peak RSS;
 * beside the p50, the part of a request spent waiting on the database (its median, measured after the load).
 */
export function printSummaries(summaries) {
  console.log(
    '\nPer page and run (statements; p50 ms at 1 connection, with the SQL ms of a request; p99 ms at 10; req/s and ×/healthz at 50; peak RSS MiB):',
  )
  const label = (summary) => `${summary.engine} ×${summary.scale}${summary.kept ? ' (kept)' : ''}`
  const head = ['page'.padEnd(38), ...summaries.map((summary) => label(summary).padStart(44))]
  console.log(head.join(' '))
  for (const name of Object.keys(summaries[0].pages)) {
    const cells = summaries.map((summary) => {
      const page = summary.pages[name]
      if (!page) return '-'.padStart(44)
      const ratio = page.ratioAt50 == null ? '' : ` ${page.ratioAt50}×`
      const sql = page.sqlMs == null ? '' : ` (sql ${page.sqlMs})`
      return `${page.statements ?? '-'} | ${page.p50At1 ?? '-'}${sql} | ${page.p99At10 ?? '-'} | ${page.rpsAt50 ?? '-'}${ratio} | ${page.peakRssMiB}`.padStart(
        44,
      )
    })
    console.log([name.slice(0, 38).padEnd(38), ...cells].join(' '))
  }
  console.log(['peak RSS of the load (MiB)'.padEnd(38), ...summaries.map((summary) => String(summary.peakRssMiB).padStart(44))].join(' '))
  for (const summary of summaries)
    for (const [name, page] of Object.entries(summary.pages).filter(([, page]) => page.paired))
      console.log(
        `${label(summary)}, ${name}: in turns beside a ×1 server, p50 ${page.paired.p50At1} ms at ×1 and ${page.paired.p50AtScale} ms at ×${summary.scale}`,
      )
}

/** The server's highest RSS of the run: the upload proof resets the kernel's peak, so every measure counts. */
export function peakRss(result) {
  const memory = result.upload?.memory
  return Math.max(
    result.serverPeakRssMiB ?? 0,
    ...result.scenarios.map((scenario) => scenario.serverPeakRssMiB ?? 0),
    memory?.uploadPeakRssMiB ?? 0,
    memory?.processingPeakRssMiB ?? 0,
  )
}

/** Every page route's first-load JavaScript against its row (a page route without one is a problem). */
export function firstLoadProblems(budgets, buildDir) {
  const manifest = readManifest(buildDir)
  const rows = []
  const problems = []
  for (const route of pageRoutes(manifest)) {
    const kib = firstLoadKiB(manifest, buildDir, route)
    const budget = budgets.firstLoadKiB[route]
    rows.push({ route, kib, budget: budget ?? null })
    if (budget == null) problems.push(`${route}: no first-load row in bench/budgets.json (it loads ${kib} KiB)`)
    else if (kib > budget) problems.push(`${route}: first-load JavaScript ${kib} KiB gzip, budget ${budget} KiB`)
  }
  return { rows, problems }
}
