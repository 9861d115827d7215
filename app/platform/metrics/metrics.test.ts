import { describe, expect, test } from 'vitest'
import { createStaticHandler, type RouteObject } from 'react-router'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { instrumentations } from '~/entry.server'
import routes from '~/routes'
import { enqueue, runDueJobs } from '~/platform/jobs/jobs.server'
import { sendMailJob } from '~/platform/mail/mail.server'
import { type RouteLabel, runWithRequestId } from '~/platform/http/request-context.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { collectProcessMetrics, httpRequestDuration, metricsText, operationOf, routeLabel, webhookEvents } from './metrics.server'

useTestDatabase()

/** The app's route map (app/routes.ts) as React Router builds it, each route with a loader that answers nothing. */
function routeObjects(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map((entry) => {
    const base = { id: entry.id ?? entry.file, path: entry.path, loader: () => null }
    return (entry.index ? { ...base, index: true } : { ...base, children: routeObjects(entry.children ?? []) }) as RouteObject
  })
}

/** The label the HTTP histogram gives a request to `path`, matched by React Router with the app's instrumentation. */
async function labelOf(path: string) {
  const handler = createStaticHandler([{ id: 'root', path: '', loader: () => null, children: routeObjects(routes) }], {
    instrumentations,
  })
  const route: RouteLabel = {}
  await runWithRequestId('test', () => handler.query(new Request(`http://localhost${path}`)), 'GET', route)
  return routeLabel(route.pattern)
}

describe('the HTTP histogram’s route label', () => {
  test('is the matched route’s pattern, never the URL: ids stay out of the series', async () => {
    expect(await labelOf(`/usuario/${crypto.randomUUID()}`)).toBe('/usuario/:userId')
    expect(await labelOf(`/video/${crypto.randomUUID()}/comentarios`)).toBe('/video/:sessionId/comentarios')
    expect(await labelOf(`/admin/miembros/${crypto.randomUUID()}/cobro`)).toBe('/admin/miembros/:userId/cobro')
    expect(await labelOf('/comunidad')).toBe('/comunidad')
    expect(await labelOf('/comunidad/calendario/123')).toBe('/comunidad/calendario/:eventId')
    expect(await labelOf('/')).toBe('/')
    expect(await labelOf('/uploads/avatars/u1/a.webp')).toBe('/uploads/*')
  })

  test('what no route takes (the 404 page’s catch-all) is "unmatched"; built files are "static"', async () => {
    expect(await labelOf('/no-existe/12345')).toBe('unmatched')
    expect(routeLabel(undefined)).toBe('unmatched')
    expect(routeLabel('static')).toBe('static')
  })

  test('statements are labelled by their kind', () => {
    expect(['select 1', ' INSERT into x', 'update y', 'delete from z', 'with a as (select 1) select 2', 'begin'].map(operationOf)).toEqual([
      'select',
      'insert',
      'update',
      'delete',
      'other',
      'other',
    ])
  })
})

describe('a scrape', () => {
  test('lists every series of the contract, with no id in any label', async () => {
    collectProcessMetrics()
    httpRequestDuration.observe({ method: 'GET', route: await labelOf(`/usuario/${crypto.randomUUID()}`), status: '200' }, 0.01)
    webhookEvents.inc({ provider: 'stripe', outcome: 'duplicate' })
    // A job and an e-mail: their counters, and the queue's depth while one waits.
    await enqueue(sendMailJob, { to: 'metricas@example.com', subject: 'Hola', html: '<p>Hola</p>', text: 'Hola' })
    await enqueue(
      sendMailJob,
      { to: 'luego@example.com', subject: 'Luego', html: '<p>Luego</p>', text: 'Luego' },
      {
        runAt: new Date(Date.now() + 3_600_000),
      },
    )
    await runDueJobs({ names: ['mail.send'] })
    const { body, contentType } = await metricsText()
    expect(contentType).toMatch(/^text\/plain/)
    const names = new Set([...body.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]))
    for (const name of [
      'circulo_http_request_duration_seconds',
      'circulo_db_statement_duration_seconds',
      'circulo_db_errors_total',
      'circulo_jobs_queue_depth',
      'circulo_jobs_failed_total',
      'circulo_jobs_completed_total',
      'circulo_mail_sent_total',
      'circulo_mail_failed_total',
      'circulo_webhook_events_total',
      'circulo_realtime_connections',
      'circulo_members',
      'circulo_premium_members',
      'circulo_open_reports',
      'circulo_ready',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
      'process_cpu_seconds_total',
    ]) {
      expect(names, name).toContain(name)
    }
    expect(body).toContain('circulo_http_request_duration_seconds_count{method="GET",route="/usuario/:userId",status="200"}')
    expect(body).toMatch(/circulo_db_statement_duration_seconds_count\{operation="select"\} [1-9]/)
    expect(body).toContain('circulo_jobs_completed_total{kind="mail.send"}')
    expect(body).toMatch(/circulo_mail_sent_total [1-9]/)
    expect(body).toContain('circulo_jobs_queue_depth{kind="mail.send"} 1')
    expect(body).toMatch(/^circulo_members \d+$/m)
    // Every label value: no uuid, no id made of digits (a status code, a bucket bound, Node's version are not ids).
    const notIds = new Set(['status', 'le', 'version', 'major', 'minor', 'patch'])
    const values = [...body.matchAll(/(\w+)="([^"]*)"/g)].filter(([, label]) => !notIds.has(label!))
    expect(values.length).toBeGreaterThan(10)
    for (const [pair, , value] of values) {
      expect(value, pair).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i)
      expect(value, pair).not.toMatch(/^\d+$/)
      expect(value, pair).not.toMatch(/\/\d+(\/|$)/)
    }
  })
})
