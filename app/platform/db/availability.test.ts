import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { DrizzleQueryError } from 'drizzle-orm'
import * as profileRoute from '~/features/account/profile.route'
import { communityPosts } from '~/features/feed/schema'
import * as healthzRoute from '~/features/site/healthz.route'
import * as feedRoute from '~/features/feed/feed.route'
import * as rootRoute from '~/root'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { feedAction } from '../../../tests/setup/feed'
import { createPeople, type People } from '../../../tests/setup/members'
import { formRequest, getRequest, run } from '../../../tests/setup/requests'
import { connectionRefused, failedWhileConnecting, isDatabaseUnavailable } from './availability.server'
import { failStatements } from './client.server'

useTestDatabase()
let people: People
let disarm: (() => void) | undefined
beforeAll(async () => {
  people = await createPeople()
})
afterEach(() => disarm?.())

const context = { cspNonce: 'n' }

describe('what counts as the database being away', () => {
  test('network refusals, dropped connections and shutdowns do, through the wrappers that carry them', () => {
    const code = (value: string) => Object.assign(new Error('x'), { code: value })
    for (const away of [
      connectionRefused(),
      new DrizzleQueryError('select 1', [], connectionRefused()),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      code('57P01'),
      code('08006'),
      new AggregateError([code('ECONNREFUSED'), code('ECONNREFUSED')]),
    ]) {
      expect(isDatabaseUnavailable(away)).toBe(true)
    }
  })

  test('whatever fails while connecting does, whatever its code; the same code from a query in progress does not', () => {
    const code = (value: string) => Object.assign(new Error('x'), { code: value })
    // Closed for maintenance, no such role or database (a restore under way), an authentication change.
    for (const sqlState of ['55000', '28000', '3D000', '28P01']) {
      expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], failedWhileConnecting(code(sqlState))))).toBe(true)
      expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], code(sqlState)))).toBe(false)
    }
  })

  test('a wrong query, a constraint or a bug does not', () => {
    const code = (value: string) => Object.assign(new Error('x'), { code: value })
    for (const bug of [
      new TypeError('x is undefined'),
      code('23505'),
      code('42P01'),
      new DrizzleQueryError('select', [], code('42703')),
      null,
    ]) {
      expect(isDatabaseUnavailable(bug)).toBe(false)
    }
  })
})

describe('the database away while serving', () => {
  test('a member page answers 503 with Retry-After and the Spanish message, never a sign-in redirect or a 500', async () => {
    disarm = failStatements(/"session"/)
    const outcome = await run(() =>
      profileRoute.loader({ request: getRequest('/perfil', { cookie: people.member.cookie }), params: {}, context } as never),
    )
    expect(outcome.status).toBe(503)
    expect(outcome.headers.get('Retry-After')).toBe('5')
    expect(outcome.data.message).toEqual({
      title: 'Servicio no disponible temporalmente',
      description: 'No podemos acceder a los datos ahora mismo. Vuelve a intentarlo en unos segundos.',
    })
  })

  test('the frame (root loader) treats the member as signed out and neither admin nor premium, and still renders', async () => {
    disarm = failStatements(/"session"/)
    const outcome = await run(() =>
      rootRoute.loader({ request: getRequest('/legal', { cookie: people.admin.cookie }), params: {}, context } as never),
    )
    expect(outcome.status).toBe(200)
    expect(outcome.data.user).toBeNull()
  })

  test('a post sent while the database is away: 503 with the action message, the words back; sent again later: published once', async () => {
    const fields = {
      intent: 'create-post',
      postType: 'text',
      title: 'Mi reflexión del lunes',
      content: 'Tres párrafos que me costó escribir',
    }
    disarm = failStatements(/insert into "community_posts"/)
    const failed = await feedAction(fields, people.premium.cookie)
    expect(failed.status).toBe(503)
    expect(failed.headers.get('Retry-After')).toBe('5')
    expect(failed.data.message).toEqual({
      title: 'No se pudo crear el post',
      description: 'No podemos acceder a los datos ahora mismo. Vuelve a intentarlo en unos segundos.',
    })
    expect(failed.data.submission.initialValue).toMatchObject({ title: fields.title, content: fields.content })
    const again = await feedAction(fields, people.premium.cookie)
    expect(again.status).toBe(200)
    const rows = await getDb().select({ title: communityPosts.title }).from(communityPosts)
    expect(rows.filter((row) => row.title === fields.title)).toHaveLength(1)
  })

  test('an action whose guard cannot reach the database answers the form (503), it does not throw the page away', async () => {
    disarm = failStatements(/"session"/)
    const request = formRequest('/comunidad?index', { intent: 'like-post', postId: crypto.randomUUID() }, { cookie: people.premium.cookie })
    // A thrown Response would replace the page with the error boundary; a returned one is the form's answer.
    const answer = (await feedRoute.action({ request, params: {}, context } as never)) as { type?: string; init?: ResponseInit; data?: any }
    expect(answer.type).toBe('DataWithResponseInit')
    expect(answer.init?.status).toBe(503)
    expect(new Headers(answer.init?.headers).get('Retry-After')).toBe('5')
    expect(answer.data.message.title).toBe('Servicio no disponible temporalmente')
    expect(answer.data.submission.initialValue).toMatchObject({ intent: 'like-post' })
  })

  test('/healthz answers 503 while the database does not answer, 200 once it does', async () => {
    disarm = failStatements(/select 1/)
    expect((await run(() => healthzRoute.loader())).status).toBe(503)
    expect((await run(() => healthzRoute.loader())).status).toBe(200)
  })
})
