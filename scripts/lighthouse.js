// `npm run lighthouse`: Lighthouse 12 (default mobile config) on the landing page and the
// prices page, against the production server this script starts and stops itself.
// Prints the four category scores and the first-load JavaScript (gzip bytes) per page,
// writes the JSON reports to test-results/lighthouse/ and exits non-zero when a target is missed.
// Lighthouse's scores vary from run to run: each page is audited LH_RUNS times (default 5)
// and the median run (by performance) is kept, as Lighthouse's own documentation advises.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PORT = 3310
const BASE_URL = `http://localhost:${PORT}`
const PAGES = ['/', '/pricing']
const REPORT_DIR = path.join(root, 'test-results/lighthouse')
const RUNS = Math.max(1, Number.parseInt(process.env.LH_RUNS ?? '5', 10) || 1)
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 }
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]
// The first start may build the site (about a minute).
const START_TIMEOUT_MS = 240_000

function startServer(dataDir) {
  const logFile = path.join(dataDir, 'server.log')
  const log = openSync(logFile, 'a')
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), APP_URL: BASE_URL, DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', log, log],
  })
  return { child, logFile }
}

async function waitForServer(child) {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`)
    try {
      const response = await fetch(`${BASE_URL}/healthz`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`the server did not answer ${BASE_URL}/healthz within ${START_TIMEOUT_MS / 1000} s`)
}

/** A just-started server is slower on its first requests (JIT, caches): warm it up first. */
async function warmUp() {
  for (let round = 0; round < 3; round += 1) {
    for (const pagePath of PAGES) {
      const response = await fetch(`${BASE_URL}${pagePath}`, { headers: { 'Accept-Encoding': 'gzip' } })
      const html = await response.text()
      if (round === 0) {
        for (const [, asset] of html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g))
          await fetch(`${BASE_URL}${asset}`).then((r) => r.arrayBuffer())
      }
    }
  }
}

async function stopServer(child) {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timeout = setTimeout(() => child.kill('SIGKILL'), 12_000)
  await exited
  clearTimeout(timeout)
}

/** Scripts downloaded by the page's first load, as transferred (gzip) bytes. */
function firstLoadScriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? []
  return items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0)
}

function scoresOf(lhr) {
  return Object.fromEntries(Object.keys(TARGETS).map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]))
}

/** Audits that cost points in a category, to know what to fix. */
function failingAudits(lhr, categoryId) {
  const category = lhr.categories[categoryId]
  if (!category) return []
  return category.auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1)
    .map((audit) => `${audit.id} (${Math.round(audit.score * 100)})${audit.displayValue ? `: ${audit.displayValue}` : ''}`)
}

async function auditPage(chrome, pagePath) {
  const runs = []
  for (let run = 0; run < RUNS; run += 1) {
    const result = await lighthouse(`${BASE_URL}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(TARGETS),
    })
    if (!result) throw new Error(`Lighthouse returned nothing for ${pagePath}`)
    runs.push(result)
    const { lhr } = result
    console.log(
      `  run ${run + 1}/${RUNS} ${pagePath}: performance ${Math.round((lhr.categories.performance?.score ?? 0) * 100)}, ` +
        `FCP ${lhr.audits['first-contentful-paint']?.displayValue}`,
    )
    if (process.env.LH_KEEP_RUNS)
      writeFileSync(path.join(REPORT_DIR, `${pagePath === '/' ? 'home' : pagePath.slice(1)}-run${run + 1}.json`), result.report)
  }
  runs.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0))
  return runs[Math.floor(runs.length / 2)]
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'lighthouse-data-'))
const { child, logFile } = startServer(dataDir)
let chrome
let failed = false
try {
  await waitForServer(child)
  await warmUp()
  mkdirSync(REPORT_DIR, { recursive: true })
  chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS })
  for (const pagePath of PAGES) {
    const { lhr, report } = await auditPage(chrome, pagePath)
    const name = pagePath === '/' ? 'home' : pagePath.slice(1).replace(/\//g, '-')
    writeFileSync(path.join(REPORT_DIR, `${name}.json`), Array.isArray(report) ? report[0] : report)
    const scores = scoresOf(lhr)
    const jsBytes = firstLoadScriptBytes(lhr)
    console.log(`\n${pagePath}`)
    for (const [id, target] of Object.entries(TARGETS)) {
      const ok = scores[id] >= target
      if (!ok) failed = true
      console.log(`  ${ok ? '✓' : '✗'} ${id.padEnd(15)} ${String(scores[id]).padStart(3)}  (target ≥ ${target})`)
      if (!ok) for (const line of failingAudits(lhr, id)) console.log(`      - ${line}`)
    }
    const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']
      .map((id) => `${id.replace(/-/g, ' ')}: ${lhr.audits[id]?.displayValue ?? 'n/a'}`)
      .join(' · ')
    console.log(`  ${metrics}`)
    console.log(`  first-load JavaScript: ${jsBytes} bytes transferred (gzip), ${(jsBytes / 1024).toFixed(1)} KiB`)
  }
  console.log(`\nReports: ${path.relative(root, REPORT_DIR)}/`)
} catch (error) {
  failed = true
  console.error(`\nLighthouse run failed: ${error instanceof Error ? error.message : error}`)
  try {
    console.error(`Server log (${logFile}):\n${readFileSync(logFile, 'utf8').slice(-4000)}`)
  } catch {
    // no log
  }
} finally {
  if (chrome) await chrome.kill()
  await stopServer(child)
  rmSync(dataDir, { recursive: true, force: true })
}

if (failed) console.error('\nLighthouse targets missed.')
process.exit(failed ? 1 : 0)
