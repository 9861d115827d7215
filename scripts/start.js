// `npm start`: builds when needed, then serves the site.
import { ensureBuild, root } from './ensure-build.js'

process.chdir(root)
ensureBuild()
await import('../server.js')
