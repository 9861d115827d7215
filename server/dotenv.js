// A `.env` file in the project's root is read at start when present (Node's own loader):
// variables already set in the environment win over the file.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export function loadDotEnv(root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')) {
  const file = path.join(root, '.env')
  if (existsSync(file)) process.loadEnvFile(file)
}
