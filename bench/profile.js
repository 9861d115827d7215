// Where a server's CPU time went, from the .cpuprofile that `node --cpu-prof` writes at exit:
// self time per function and per area (a package, the app's build, Node's internals, GC).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** The newest .cpuprofile in `dir` written after `since` (ms), or null. */
export function newestProfile(dir, since) {
  let files
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))
  } catch {
    return null
  }
  const newest = files
    .map((name) => ({ file: path.join(dir, name), mtime: statSync(path.join(dir, name)).mtimeMs }))
    .filter((entry) => entry.mtime >= since)
    .sort((a, b) => b.mtime - a.mtime)[0]
  return newest?.file ?? null
}

function areaOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)'
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite’s PostgreSQL)'
  const nodeModules = url.lastIndexOf('node_modules/')
  if (nodeModules !== -1) {
    const [first, second] = url.slice(nodeModules + 'node_modules/'.length).split('/')
    return first.startsWith('@') ? `${first}/${second}` : first
  }
  if (url.startsWith('node:')) return 'node internals'
  if (url.includes('/build/server/')) return 'app (build/server)'
  return path.basename(url)
}

/** Self time (ms) by function and by area, busiest first. */
export function summarizeProfile(file) {
  if (!file) return null
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(nodes.map((node) => [node.id, node]))
  const selfMs = new Map()
  for (let index = 0; index < samples.length; index++) {
    selfMs.set(samples[index], (selfMs.get(samples[index]) ?? 0) + (timeDeltas[index] ?? 0) / 1000)
  }
  const functions = new Map()
  const areas = new Map()
  let totalMs = 0
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame
    totalMs += ms
    const name = functionName || '(anonymous)'
    const area = areaOf(url, name)
    const key = url ? `${name} ${area} ${path.basename(url)}:${lineNumber + 1}` : name
    functions.set(key, (functions.get(key) ?? 0) + ms)
    areas.set(area, (areas.get(area) ?? 0) + ms)
  }
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), percent: Math.round((ms / totalMs) * 1000) / 10 }))
  return { file: path.relative(process.cwd(), file), totalMs: Math.round(totalMs), functions: top(functions, 25), areas: top(areas, 15) }
}

export function printProfile(profile) {
  console.log(`\nCPU profile of the server (${profile.file}, ${(profile.totalMs / 1000).toFixed(1)} s sampled, idle included):`)
  console.log('  by area (self time):')
  for (const { name, ms, percent } of profile.areas)
    console.log(`    ${String(percent).padStart(5)} %  ${String(ms).padStart(7)} ms  ${name}`)
  console.log('  by function (self time):')
  for (const { name, ms, percent } of profile.functions)
    console.log(`    ${String(percent).padStart(5)} %  ${String(ms).padStart(7)} ms  ${name.slice(0, 110)}`)
}
