// The budgets every page is held to (bench/budgets.json, docs/decisions/0027-performance-budgets.md):
// `npm run bench` fails and names the page that falls below one, and a page without a row.
import { readFileSync } from 'node:fs'
import { firstLoadKiB, pageRoutes, readManifest } from './first-load.js'

export function readBudgets(file) {
  return JSON.parse(readFileSync(file, 'utf8'))
}

/** What one engine's run broke: scenarios against their floor and p99, statements, peak memory. */
export function engineProblems(budgets, result) {
  const problems = []
  const load = result.scenarios
  for (const name of new Set(load.map((scenario) => scenario.name))) {
    const budget = budgets.pages[name]
    if (!budget) {
      problems.push(`${name}: no row in bench/budgets.json`)
      continue
    }
    const at = (concurrency) => load.find((scenario) => scenario.name === name && scenario.concurrency === concurrency)
    const busy = at(50)
    if (budget.floor && busy?.ratioToHealthz != null && busy.ratioToHealthz < budget.floor)
      problems.push(`${name}: ${busy.ratioToHealthz}× /healthz at 50 connections, budget ≥ ${budget.floor}×`)
    const ordinary = at(10)
    if (budget.p99Ms && ordinary && ordinary.p99Ms > budget.p99Ms)
      problems.push(`${name}: p99 ${ordinary.p99Ms} ms at 10 connections, budget < ${budget.p99Ms} ms`)
    const path = load.find((scenario) => scenario.name === name).path
    const counted = result.queries.find((query) => query.path === path)
    if (budget.statements != null && counted && counted.statements > budget.statements)
      problems.push(`${name}: ${counted.statements} SQL statements per request, budget ${budget.statements}`)
  }
  const ceiling = budgets.peakRssMiB[result.engine]
  const peak = peakRss(result)
  if (ceiling && peak > ceiling) problems.push(`server: peak RSS ${peak} MiB on ${result.engine}, budget < ${ceiling} MiB`)
  return problems
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
