import { type SQL, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPersona } from '../../../tests/setup/members'
import { getRequest, run } from '../../../tests/setup/requests'
import { SearchResults } from './components/search-results'
import { CAPPED_COUNT, CAPPED_NOTE, SEARCH_CAP } from './search'
import { search, searchStatements, titlesOf } from './search.server'
import * as searchRoute from './search.route'

// Issue 38: a search reads at most SEARCH_CAP matches of each kind, whatever the number of matches.
useTestDatabase()

let viewer: { id: string; hasAccess: boolean }
let cookie: string
const BODY_ONLY = SEARCH_CAP + 100
const TITLED = 5

beforeAll(async () => {
  const persona = await createPersona('premium', { firstName: 'Cap', lastName: 'Prueba' })
  viewer = { id: persona.userId!, hasAccess: true }
  cookie = persona.cookie!
  // The few title matches are the oldest posts; the many body matches are all newer, so a cap
  // that kept only the newest matches would leave the titles out.
  await getDb().execute(sql`insert into community_posts (user_id, title, content, created_at)
    select ${viewer.id}, 'Coralina número ' || n, 'Una nota', timestamptz '2024-01-01' + n * interval '1 minute'
    from generate_series(1, ${TITLED}) n`)
  await getDb().execute(sql`insert into community_posts (user_id, title, content, created_at)
    select ${viewer.id}, 'Nota ' || n, 'Hablamos de la coralina', timestamptz '2025-01-01' + n * interval '1 minute'
    from generate_series(1, ${BODY_ONLY}) n`)
  // Hidden by moderation and not the viewer's: never counted, never a candidate, though the newest.
  const other = await createPersona('member')
  await getDb().execute(sql`insert into community_posts (user_id, title, content, created_at, hidden_at, hidden_reason)
    select ${other.userId!}, 'Coralina oculta ' || n, 'x', now(), now(), 'spam' from generate_series(1, 3) n`)
}, 120_000)

const find = (order: 'relevancia' | 'recientes', page = 1) => search(viewer, { query: 'coralina', tab: 'posts', order, page })

describe('more matches than the cap', () => {
  test('the count stops one past the cap, the pages go as far as the cap', async () => {
    const found = await find('relevancia')
    expect(found.counts.posts).toBe(SEARCH_CAP + 1)
    expect(found.counts.todo).toBe(SEARCH_CAP + 1)
    expect(found.pageCount).toBe(SEARCH_CAP / 10)
  })

  test('relevance: every title match first (the oldest posts), then the newest body matches, ten a page', async () => {
    const found = await find('relevancia')
    expect(found.hits.map((hit) => hit.title)).toEqual([
      'Coralina número 5',
      'Coralina número 4',
      'Coralina número 3',
      'Coralina número 2',
      'Coralina número 1',
      `Nota ${BODY_ONLY}`,
      `Nota ${BODY_ONLY - 1}`,
      `Nota ${BODY_ONLY - 2}`,
      `Nota ${BODY_ONLY - 3}`,
      `Nota ${BODY_ONLY - 4}`,
    ])
    // The next page goes on where this one ended.
    expect((await find('relevancia', 2)).hits.map((hit) => hit.title)[0]).toBe(`Nota ${BODY_ONLY - 5}`)
  })

  test("'Más recientes': the newest ten, and the last page within the cap is the hundredth", async () => {
    const first = await find('recientes')
    expect(first.hits.map((hit) => hit.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Nota ${BODY_ONLY - i}`))
    const last = await find('recientes', SEARCH_CAP / 10)
    expect(last.hits.map((hit) => hit.title).at(-1)).toBe(`Nota ${BODY_ONLY - SEARCH_CAP + 1}`)
  })

  test('fewer matches than the cap are counted exactly', async () => {
    const found = await search(viewer, { query: 'coralina número', tab: 'todo', order: 'relevancia', page: 1 })
    expect(found.counts).toMatchObject({ posts: TITLED, todo: TITLED })
    expect(found.pageCount).toBe(1)
  })

  test('a page far past the cap answers empty, not an error', async () => {
    const page = await run(() =>
      searchRoute.loader({ request: getRequest('/buscar?q=coralina&tipo=posts&pagina=99999', { cookie }), params: {}, context: {} } as any),
    )
    expect(page.status).toBe(200)
    expect(page.data.hits).toEqual([])
  })

  test("the tab says 'más de 100' and the page says what the order looked at", async () => {
    const found = await find('relevancia')
    const render = (order: 'relevancia' | 'recientes') => {
      const Stub = createRoutesStub([
        {
          path: '/buscar',
          Component: () => createElement(SearchResults, { ...found, tab: 'posts', order, page: 1, hasAccess: true }),
        },
      ])
      return renderToStaticMarkup(createElement(Stub, { initialEntries: ['/buscar?q=coralina'] }))
    }
    const html = render('relevancia')
    expect(CAPPED_COUNT).toBe('más de 100')
    expect(html).toContain(`Posts <span class="tabular-nums">(más de 100)</span>`)
    expect(html).toContain(`Todo <span class="tabular-nums">(más de 100)</span>`)
    expect(html).toContain(`Sesiones <span class="tabular-nums">(0)</span>`)
    expect(html).toContain(
      'Hay más de 100 resultados: se ordenan por relevancia los que lo dicen en el título y los más recientes. Añade palabras para afinar la búsqueda.',
    )
    expect(render('recientes')).toContain(
      'Hay más de 100 resultados: se muestran los 100 más recientes. Añade palabras para afinar la búsqueda.',
    )
    expect(CAPPED_NOTE.recientes).toContain('100 más recientes')
  })

  test('past the cap, a kind read from its newest rows, then its older ones, gives the pages that sorting every match gives', async () => {
    // Comments too, on one post, four to a minute: the window's boundary falls between rows of the same time.
    await getDb().execute(sql`insert into community_comments (post_id, user_id, content, created_at)
      select (select id from community_posts where title = 'Nota 1'), ${viewer.id}, 'La coralina otra vez ' || n,
        timestamptz '2025-06-01' + (n / 4) * interval '1 minute'
      from generate_series(1, ${SEARCH_CAP + 50}) n`)
    // Sessions (one in five a draft, never in the window nor the results) and events, three to a day,
    // a few with the word in the title.
    await getDb()
      .execute(sql`insert into ceo_sessions (title, summary, description, ceo_name, ceo_position, ceo_company, session_date, video_provider, publication_status)
      select case when n % 40 = 0 then 'Coralina ' || n else 'Sesión ' || n end, 'Resumen', 'Sobre la coralina', 'CEO', 'CEO', 'Empresa',
        timestamptz '2025-03-01' + (n / 3) * interval '1 day', 'local',
        (case when n % 5 = 0 then 'draft' else 'published' end)::ceo_session_publication_status
      from generate_series(1, ${SEARCH_CAP + 50}) n`)
    await getDb().execute(sql`insert into events (title, description, event_date, event_type)
      select case when n % 40 = 0 then 'Coralina ' || n else 'Evento ' || n end, 'Sobre la coralina',
        timestamptz '2025-03-01' + (n / 3) * interval '1 day', 'virtual'
      from generate_series(1, ${SEARCH_CAP + 50}) n`)
    const rowsOf = async (statement: SQL) =>
      ((await getDb().execute(statement)) as unknown as { rows: Array<{ kind: string; id: string }> }).rows.map(
        (row) => `${row.kind} ${row.id}`,
      )
    // A window of 30 rows: past it, the older matches are read too (decisions/0031), as past 1,600 at scale.
    // With the posts' titles past the cap or not (read through the window, or through their index).
    const pastCaps = [
      new Set(['post', 'comment', 'session', 'event']),
      new Set(['post', titlesOf('post'), 'comment', 'session', titlesOf('session'), 'event', titlesOf('event')]),
    ]
    let compared = 0
    for (const order of ['relevancia', 'recientes'] as const)
      for (const tab of ['posts', 'comentarios', 'sesiones', 'eventos', 'todo'] as const)
        for (const page of [1, 2, 7, SEARCH_CAP / 10]) {
          const input = { query: 'coralina', tab, order, page }
          const every = await rowsOf(searchStatements(viewer, input).page!)
          for (const pastCap of pastCaps) {
            const windowed = await rowsOf(searchStatements(viewer, input, { pastCap, windowRows: 30 }).page!)
            expect(windowed, `${order} ${tab} ${page} ${[...pastCap].join(', ')}`).toEqual(every)
          }
          expect(every).toHaveLength(10)
          compared++
        }
    expect(compared).toBe(40)
  })
})
