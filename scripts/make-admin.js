// `npm run make-admin -- <email>`: grants the admin role to an existing account.
import { loadDotEnv } from '../server/dotenv.js'
import { ensureBuild, root } from './ensure-build.js'

const email = process.argv[2]
if (!email) {
  console.error('Usage: npm run make-admin -- <email>')
  process.exit(2)
}

process.chdir(root)
loadDotEnv(root)
ensureBuild()
const app = await import('../build/server/index.js')
try {
  await app.openForCli()
  const granted = await app.grantRoleByEmail(email, 'admin')
  if (!granted) {
    console.error(`No account has the e-mail ${email}. Sign up first, then run this again.`)
    process.exitCode = 1
  } else {
    console.log(`${email} is now an admin.`)
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await app.shutDown()
}
