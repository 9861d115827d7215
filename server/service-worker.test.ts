import { expect, test } from 'vitest'
import { serviceWorker } from './service-worker'

/** Runs the plugin on a fake browser build and returns the sw.js it writes. */
function build(files: Array<{ fileName: string; isEntry?: boolean; imports?: string[] }>) {
  const plugin = serviceWorker() as unknown as {
    configResolved: (config: { root: string }) => void
    generateBundle: (this: { emitFile: (file: { fileName: string; source: string }) => void }, options: unknown, bundle: object) => void
  }
  plugin.configResolved({ root: process.cwd() })
  const bundle = Object.fromEntries(
    files.map((file) => [
      file.fileName,
      file.fileName.endsWith('.js')
        ? { type: 'chunk', fileName: file.fileName, isEntry: Boolean(file.isEntry), imports: file.imports ?? [] }
        : { type: 'asset', fileName: file.fileName },
    ]),
  )
  const emitted: Array<{ fileName: string; source: string }> = []
  plugin.generateBundle.call({ emitFile: (file) => emitted.push(file) }, {}, bundle)
  expect(emitted.map((file) => file.fileName)).toEqual(['sw.js'])
  const source = emitted[0]!.source
  return {
    source,
    buildId: /const BUILD_ID = "([0-9a-f]{16})"/.exec(source)?.[1],
    precache: JSON.parse(/const PRECACHE = (\[.*\])/.exec(source)?.[1] ?? 'null') as string[],
  }
}

const first = [
  { fileName: 'assets/entry.client-AAAA.js', isEntry: true, imports: ['assets/chunk-BBBB.js'] },
  { fileName: 'assets/chunk-BBBB.js' },
  { fileName: 'assets/feed-CCCC.js' },
  { fileName: 'assets/app-DDDD.css' },
]

test('the worker precaches the entry, its imports and the stylesheet; the rest is cached when first used', () => {
  const { precache, source } = build(first)
  expect(precache).toEqual(['/assets/app-DDDD.css', '/assets/chunk-BBBB.js', '/assets/entry.client-AAAA.js'])
  expect(source).not.toContain('__PRECACHE__')
})

test('building twice: the same files give the same worker, a changed file a new one that takes over', () => {
  const again = build(first)
  const changed = build([...first.slice(0, 2), { fileName: 'assets/feed-EEEE.js' }, first[3]!])
  expect(again.buildId).toBe(build(first).buildId)
  expect(changed.buildId).not.toBe(again.buildId)
  // The new worker does not wait for the old one's pages to close, and its activation deletes
  // every other build's cache (app/features/phone/sw.js).
  expect(changed.source).toContain('self.skipWaiting()')
  expect(changed.source).toContain('self.clients.claim()')
  expect(changed.source).toMatch(/names\.filter\(\(name\) => name !== CACHE\)\.map\(\(name\) => caches\.delete\(name\)\)/)
})
