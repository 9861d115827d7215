import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseEnv, setEnv } from '~/platform/env.server'

// Every test file gets its own configuration: a localhost app, no SMTP, a throwaway data folder.
setEnv(
  parseEnv({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'circulo-test-')),
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: 'silent',
  }),
)
