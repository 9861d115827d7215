// `npm run restore -- <backup>`: a backup made by `npm run backup` into an empty data folder
// (DATA_DIR) or an empty PostgreSQL database (DATABASE_URL); then start the server on it.
import path from 'node:path'
import { loadDotEnv } from '../server/dotenv.js'
import { ensureBuild, root } from './ensure-build.js'

if (!process.argv[2]) {
  console.error('Usage: npm run restore -- <backup file>')
  process.exit(2)
}
const backup = path.resolve(process.argv[2])
process.chdir(root)
loadDotEnv(root)
ensureBuild()
const app = await import('../build/server/index.js')
const started = performance.now()
try {
  const { createdAt, notes } = await app.restoreBackup(backup)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Restored ${backup}, made ${createdAt} (${seconds} s)`)
  for (const note of notes) console.log(`  ${note}`)
  console.log('Start the server on it: npm start')
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await app.shutDown()
}
