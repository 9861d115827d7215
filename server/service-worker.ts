import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'

/**
 * Writes the browser build's service worker (`sw.js`, served at the root so its scope is the
 * whole site) from app/features/phone/sw.js: its build id is a hash of the build's file names, so
 * every deploy that changes a file is a new worker, and it precaches what every page's first
 * load needs (the entry, its static imports and the stylesheets). The other hashed files are
 * cached as they are first fetched.
 */
export function serviceWorker(): Plugin {
  let source = ''
  return {
    name: 'service-worker',
    apply: 'build',
    configResolved(config) {
      source = path.resolve(config.root, 'app/features/phone/sw.js')
    },
    generateBundle(_options, bundle) {
      const files = Object.values(bundle)
      const entry = files.find((file) => file.type === 'chunk' && file.isEntry)
      const precache = new Set<string>()
      if (entry?.type === 'chunk') for (const name of [entry.fileName, ...entry.imports]) precache.add(`/${name}`)
      for (const file of files) if (file.fileName.endsWith('.css')) precache.add(`/${file.fileName}`)
      const buildId = createHash('sha256')
        .update(
          files
            .map((file) => file.fileName)
            .sort()
            .join('\n'),
        )
        .digest('hex')
        .slice(0, 16)
      const worker = readFileSync(source, 'utf8')
        .replace("'__BUILD_ID__'", JSON.stringify(buildId))
        .replace('/* __PRECACHE__ */ []', JSON.stringify([...precache].sort()))
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: worker })
    },
  }
}
