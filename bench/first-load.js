// First-load JavaScript of a page: what a browser must fetch before the page is interactive —
// the entry, the root and the page's route modules with every chunk they import statically,
// each gzip-compressed at level 9 as the build stores it. Chunks loaded on demand (dialogs,
// menus, the video player) do not count: that is the point of loading them on demand.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

/** The client build's route manifest (build/client/assets/manifest-*.js). */
export function readManifest(buildDir) {
  const assets = path.join(buildDir, 'client/assets')
  const file = readdirSync(assets).find((name) => name.startsWith('manifest-') && name.endsWith('.js'))
  if (!file) throw new Error(`no route manifest in ${assets}: build the site first`)
  const source = readFileSync(path.join(assets, file), 'utf8')
  return JSON.parse(source.replace(/^window\.__reactRouterManifest=/, '').replace(/;\s*$/, ''))
}

/** Routes that render a page (not resource routes), by id. */
export function pageRoutes(manifest) {
  return Object.values(manifest.routes)
    .filter((route) => route.hasDefaultExport && route.id !== 'root')
    .map((route) => route.id)
}

/** KiB (gzip) a first visit to `routeId` downloads in JavaScript. */
export function firstLoadKiB(manifest, buildDir, routeId) {
  if (!manifest.routes[routeId]) throw new Error(`no route ${routeId} in the manifest`)
  const files = new Set([manifest.entry.module, ...(manifest.entry.imports ?? [])])
  for (let route = manifest.routes[routeId]; route; route = manifest.routes[route.parentId]) {
    files.add(route.module)
    for (const file of route.imports ?? []) files.add(file)
  }
  let bytes = 0
  for (const file of files) bytes += zlib.gzipSync(readFileSync(path.join(buildDir, 'client', file)), { level: 9 }).length
  return Math.round((bytes / 1024) * 10) / 10
}
