// `npm run backup [-- <folder, or file.tar>]`: the database and the stored files in one dated file,
// in DATA_DIR/backups by default (README 'Backups').
import path from 'node:path'
import { loadDotEnv } from '../server/dotenv.js'
import { ensureBuild, root } from './ensure-build.js'

// Before changing into the project: a path is the operator's, from where they ran the command.
const output = process.argv[2] && path.resolve(process.argv[2])
process.chdir(root)
loadDotEnv(root)
ensureBuild()
const app = await import('../build/server/index.js')
const started = performance.now()
try {
  const { file, bytes, notes } = await app.createBackup(output)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Backup written to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB, ${seconds} s)`)
  for (const note of notes) console.log(`  ${note}`)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await app.shutDown()
}
