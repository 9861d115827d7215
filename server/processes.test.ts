import { describe, expect, test } from 'vitest'
import { memoryFlags } from '../scripts/memory.js'
import { workerPlan } from '../scripts/workers.js'
import { metricsAddress } from './metrics-server.js'

const POSTGRES = 'postgres://postgres@127.0.0.1:5432/circulo'

describe('how many server processes npm start runs (WEB_CONCURRENCY)', () => {
  test('on PostgreSQL: one per core by default, or what WEB_CONCURRENCY says', () => {
    expect(workerPlan({ DATABASE_URL: POSTGRES, MEMORY_LIMIT_MB: '2048' }, 4)).toEqual({ workers: 4, note: null })
    expect(workerPlan({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: '2' }, 8)).toEqual({ workers: 2, note: null })
  })

  test('on the embedded database: always one, with one line saying why', () => {
    expect(workerPlan({ WEB_CONCURRENCY: '4' }, 8)).toEqual({
      workers: 1,
      note: 'One server process: the embedded database (PGlite) belongs to one process. Set DATABASE_URL (PostgreSQL) to run one per core (WEB_CONCURRENCY).',
    })
    expect(workerPlan({}, 1)).toEqual({ workers: 1, note: null })
  })

  test('MEMORY_LIMIT_MB is the whole server’s: the default count fits it (256 MiB each), an explicit one that cannot is refused', () => {
    expect(workerPlan({ DATABASE_URL: POSTGRES }, 8)).toEqual({
      workers: 2,
      note: '2 server processes for 8 cores: MEMORY_LIMIT_MB=512 gives each at least 256 MiB (raise it to run one per core).',
    })
    expect(() => workerPlan({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: '4', MEMORY_LIMIT_MB: '512' }, 8)).toThrow(
      'MEMORY_LIMIT_MB=512 is too little for 4 server processes (256 MiB each): raise it or lower WEB_CONCURRENCY',
    )
    expect(workerPlan({ DATABASE_URL: POSTGRES, MEMORY_LIMIT_MB: '0' }, 6).workers).toBe(6)
    // Each process's heap: half of its share.
    expect(memoryFlags({ MEMORY_LIMIT_MB: '1024' }, [], 2)).toEqual(['--max-old-space-size=256'])
    expect(memoryFlags({ MEMORY_LIMIT_MB: '512' }, [])).toEqual(['--max-old-space-size=256'])
  })

  test('a WEB_CONCURRENCY that is not a count is refused in one line', () => {
    for (const value of ['0', 'dos', '1.5', '65']) {
      expect(() => workerPlan({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: value }, 2)).toThrow(
        `WEB_CONCURRENCY must be a whole number from 1 to 64, not "${value}"`,
      )
    }
  })
})

describe('where metrics are served (METRICS_PORT)', () => {
  test('off unless set; on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(metricsAddress({})).toBeNull()
    expect(metricsAddress({ METRICS_PORT: '9464' })).toEqual({ port: 9464, host: '127.0.0.1' })
    expect(metricsAddress({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toEqual({ port: 9464, host: '0.0.0.0' })
  })

  test('never the public port, never a port that is not one', () => {
    expect(() => metricsAddress({ METRICS_PORT: '3000' })).toThrow('METRICS_PORT must not be the public port (3000)')
    expect(() => metricsAddress({ METRICS_PORT: '8080', PORT: '8080' })).toThrow('must not be the public port')
    expect(() => metricsAddress({ METRICS_PORT: 'abc' })).toThrow('METRICS_PORT must be a port number (1 to 65535), not "abc"')
  })
})
