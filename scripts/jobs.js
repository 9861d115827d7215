// `npm run jobs`: the background jobs that gave up (failed), newest first.
// `npm run jobs -- retry` queues them all again; `npm run jobs -- retry 12 15` only those ids.
import { loadDotEnv } from '../server/dotenv.js'
import { ensureBuild, root } from './ensure-build.js'

process.chdir(root)
loadDotEnv(root)
ensureBuild()
const app = await import('../build/server/index.js')
const [command, ...ids] = process.argv.slice(2)
try {
  await app.openForCli()
  if (command === 'retry') {
    const count = await app.retryFailedJobs(ids.length ? ids.map(Number) : undefined)
    console.log(`${count} job(s) queued again; a running server picks them up within seconds.`)
  } else {
    const failed = await app.listFailedJobs()
    if (failed.length === 0) console.log('No failed jobs.')
    for (const job of failed) {
      console.log(
        `#${job.id} ${job.name} · ${job.attempts} attempts · failed ${job.finishedAt?.toISOString() ?? '?'}\n    ${job.lastError ?? ''}`,
      )
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await app.shutDown()
}
