import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { profiles } from '~/features/account/schema'
import { ceoSessionComments, ceoSessions } from '~/features/ceo-sessions/schema'
import { events } from '~/features/events/schema'
import { communityComments, communityPosts } from '~/features/feed/schema'
import { user } from '~/platform/auth/schema'
import { failStatements, getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { completeProfile, createPersona, type People } from '../../../tests/setup/members'
import { getRequest, run } from '../../../tests/setup/requests'
import { searchMisses } from './schema'
import { snippetParts, type SearchTab } from './search'
import { cleanQuery, frequentMisses, search } from './search.server'
import * as searchRoute from './search.route'
import * as missesRoute from './misses.route'

useTestDatabase()

let people: People
const premium = () => ({ id: people.premium.userId!, hasAccess: true })
const member = () => ({ id: people.member.userId!, hasAccess: false })

beforeAll(async () => {
  people = {} as People
  for (const persona of ['anonymous', 'member', 'premium', 'moderator', 'admin'] as const) {
    people[persona] = await createPersona(persona, { firstName: persona, lastName: 'Prueba' })
  }
})

async function post(title: string, content: string | null = null, extra: Partial<typeof communityPosts.$inferInsert> = {}) {
  const [row] = await getDb()
    .insert(communityPosts)
    .values({ userId: people.premium.userId!, title, content, ...extra })
    .returning({ id: communityPosts.id })
  return row!.id
}

async function comment(postId: string, content: string, extra: Partial<typeof communityComments.$inferInsert> = {}) {
  const [row] = await getDb()
    .insert(communityComments)
    .values({ postId, userId: people.premium.userId!, content, ...extra })
    .returning({ id: communityComments.id })
  return row!.id
}

async function session(title: string, publicationStatus: 'processing' | 'published' = 'published') {
  const [row] = await getDb()
    .insert(ceoSessions)
    .values({
      title,
      summary: 'Resumen de la sesión',
      description: 'Una conversación sobre consejos de administración',
      ceoName: 'Lucía Gómez',
      ceoPosition: 'CEO',
      ceoCompany: 'Genómica SA',
      sessionDate: new Date('2026-11-01T17:00:00Z'),
      videoProvider: 'local',
      publicationStatus,
    })
    .returning({ id: ceoSessions.id })
  return row!.id
}

const find = (query: string, viewer = premium(), tab: SearchTab = 'todo', order: 'relevancia' | 'recientes' = 'relevancia') =>
  search(viewer, { query, tab, order, page: 1 })
const ids = async (query: string, viewer = premium(), tab: SearchTab = 'todo') => (await find(query, viewer, tab)).hits.map((hit) => hit.id)

describe('Spanish as people type it', () => {
  test("accents and case do not matter: 'regulacion' finds 'regulación', 'ANDALUCÍA' finds 'andalucía'", async () => {
    const id = await post('Nueva regulación de precios', 'Lo que cambia en andalucía este año')
    expect(await ids('regulacion')).toContain(id)
    expect(await ids('ANDALUCÍA')).toContain(id)
    expect(await ids('Regulación andalucia')).toContain(id)
  })

  test('plural and singular meet (Spanish stemming)', async () => {
    const id = await post('Ensayos clínicos', 'Los laboratorios farmacéuticos comparten datos')
    expect(await ids('laboratorio farmaceutico')).toContain(id)
    expect(await ids('ensayo clinico')).toContain(id)
    // The stemmer knows '-ación', not '-acion': singular, plural and accents still meet.
    const singular = await post('Una licitación pública')
    const plural = await post('Dos licitaciones públicas')
    expect(await ids('licitacion')).toEqual(expect.arrayContaining([singular, plural]))
    expect(await ids('licitaciones')).toEqual(expect.arrayContaining([singular, plural]))
    expect(await ids('LICITACIÓN')).toEqual(expect.arrayContaining([singular, plural]))
  })

  test('a quoted phrase finds the words together, not apart', async () => {
    const together = await post('Alemania', 'Hablamos del acceso al mercado alemán')
    const apart = await post('Otro tema', 'El mercado pide más que acceso')
    const found = await ids('"acceso al mercado"')
    expect(found).toContain(together)
    expect(found).not.toContain(apart)
    expect(await ids('acceso mercado')).toEqual(expect.arrayContaining([together, apart]))
  })

  test("'-palabra' excludes and 'o' is either", async () => {
    const germany = await post('Precios de referencia', 'En Alemania los precios de referencia')
    const france = await post('Precios de referencia', 'En Francia los precios de referencia')
    const found = await ids('precios referencia -alemania')
    expect(found).toContain(france)
    expect(found).not.toContain(germany)
    expect(await ids('alemania o francia')).toEqual(expect.arrayContaining([germany, france]))
  })

  test("a typo in a member's name or company still finds them", async () => {
    const someone = await createPersona('member', { firstName: 'Bartolomé', lastName: 'Zubizarreta' })
    await completeProfile(someone.userId!, { company: 'Laboratorios Quimerax' })
    expect(await ids('zubisarreta', premium(), 'miembros')).toContain(someone.userId)
    expect(await ids('bartolome zubizareta', premium(), 'miembros')).toContain(someone.userId)
    expect(await ids('quimerex', premium(), 'miembros')).toContain(someone.userId)
  })

  test('an exact title match comes first, even when another title repeats the words more', async () => {
    const repeated = await post(
      'Cadena de suministro: la cadena de suministro y el suministro en cadena',
      'cadena de suministro, suministro',
    )
    const exact = await post('Cadena de suministro')
    const found = await ids('cadena de suministro', premium(), 'posts')
    expect(found.indexOf(exact)).toBe(0)
    expect(found).toContain(repeated)
  })

  test('a word repeated 40 times in a body does not beat it once in a title (repetition is capped)', async () => {
    const stuffed = await post('Una nota', Array.from({ length: 40 }, () => 'ortopedia').join(' '))
    const titled = await post('Ortopedia en hospitales públicos', 'Cómo compran los hospitales')
    expect(await ids('ortopedia', premium(), 'posts')).toEqual([titled, stuffed])
  })

  test("'Más recientes' orders by date", async () => {
    const older = await post('Biosimilares en Europa', null, { createdAt: new Date('2025-01-01T10:00:00Z') })
    const newer = await post('Una nota', 'biosimilares', { createdAt: new Date('2026-01-01T10:00:00Z') })
    expect((await find('biosimilares', premium(), 'posts', 'recientes')).hits.map((hit) => hit.id)).toEqual([newer, older])
  })
})

describe('only what this member may see, counts included', () => {
  test('a post or comment hidden by moderation is found only by its author; the comments of a hidden post too', async () => {
    const hidden = await post('Tema ocultado zafiro', null, { hiddenAt: new Date(), hiddenReason: 'spam' })
    const open = await post('Tema abierto', 'nada')
    const hiddenComment = await comment(open, 'Comentario zafiro oculto', { hiddenAt: new Date() })
    const underHidden = await comment(hidden, 'Respuesta zafiro visible')
    const other = { id: people.admin.userId!, hasAccess: true }
    const seen = await find('zafiro', other)
    expect(seen.hits).toEqual([])
    expect(seen.counts.todo).toBe(0)
    // Its author (the premium member wrote all three) still finds them.
    expect(await ids('zafiro')).toEqual(expect.arrayContaining([hidden, hiddenComment, underHidden]))
  })

  test('a member out of the directory is not found by name; one who hides their work is not found by company', async () => {
    const gone = await createPersona('member', { firstName: 'Eulalia', lastName: 'Berasategui' })
    await completeProfile(gone.userId!, { company: 'Ortomédica Norte', listedInDirectory: false })
    const quiet = await createPersona('member', { firstName: 'Teodora', lastName: 'Ybarrondo' })
    await completeProfile(quiet.userId!, { company: 'Biocirculares Sur', position: 'Directora de Acceso', showsWork: false })
    expect((await find('berasategui')).counts.miembros).toBe(0)
    expect((await find('ortomedica norte')).counts.miembros).toBe(0)
    expect((await find('biocirculares')).counts.miembros).toBe(0)
    const byName = await find('ybarrondo')
    expect(byName.hits.map((hit) => hit.id)).toEqual([quiet.userId])
    // Found by name, shown without where she works.
    expect(byName.hits[0]!.snippet).toBe('')
  })

  test('a session still processing is not found, nor its comments; a published one is, and its comments', async () => {
    const processing = await session('Gobernanza cuántica en biotecnología', 'processing')
    const published = await session('Gobernanza de consejos en medtech')
    await getDb()
      .insert(ceoSessionComments)
      .values({ sessionId: processing, userId: people.premium.userId!, content: 'Gobernanza pendiente' })
    const [said] = await getDb()
      .insert(ceoSessionComments)
      .values({ sessionId: published, userId: people.premium.userId!, content: 'Gobernanza publicada' })
      .returning({ id: ceoSessionComments.id })
    const result = await find('gobernanza')
    expect(result.hits.map((hit) => hit.id).sort()).toEqual([published, said!.id].sort())
    expect(result.counts).toMatchObject({ sesiones: 1, comentarios: 1, todo: 2 })
    expect(result.hits.find((hit) => hit.id === said!.id)!.href).toBe(`/video/${published}#comment-${said!.id}`)
  })

  test("a deleted member's name is not found; what they kept is shown under 'Miembro eliminado'", async () => {
    const leaving = await createPersona('member', { firstName: 'Anacleta', lastName: 'Urquiola' })
    await completeProfile(leaving.userId!)
    const kept = await post('Lo que dejó escrito Anacleta', 'Sobre terapias avanzadas')
    await getDb().update(communityPosts).set({ userId: leaving.userId }).where(eq(communityPosts.id, kept))
    expect((await find('urquiola')).counts.miembros).toBe(1)
    await getDb().delete(user).where(eq(user.id, leaving.userId!))
    expect((await find('urquiola')).counts.miembros).toBe(0)
    const [hit] = (await find('terapias avanzadas')).hits
    expect(hit).toMatchObject({ id: kept, author: 'Miembro eliminado' })
  })

  test('a member without premium finds what the community shows them: posts and their comments, no sessions, events or members', async () => {
    const id = await post('Esmeralda en el feed', null)
    const said = await comment(id, 'Un comentario esmeralda')
    await session('Esmeralda, la sesión')
    await getDb().insert(events).values({ title: 'Esmeralda, el evento', description: 'x', eventDate: new Date(), eventType: 'virtual' })
    const someone = await createPersona('member', { firstName: 'Esmeralda', lastName: 'Prueba' })
    await completeProfile(someone.userId!)
    const seen = await find('esmeralda', member())
    expect(seen.counts).toEqual({ todo: 2, posts: 1, comentarios: 1, sesiones: 0, eventos: 0, miembros: 0 })
    expect(seen.hits.map((hit) => hit.id).sort()).toEqual([id, said].sort())
    expect((await find('esmeralda')).counts).toMatchObject({ todo: 5, sesiones: 1, eventos: 1, miembros: 1 })
  })
})

describe('results', () => {
  test('a comment links to its post with the thread open and the comment in view; snippets mark the words and never carry HTML', async () => {
    const id = await post('Sobre <b>subastas</b>', '<p>Las <script>alert(1)</script>subastas públicas</p>')
    const said = await comment(id, 'Gracias por lo de subastas')
    const { hits } = await find('subasta')
    expect(hits.find((hit) => hit.id === said)!.href).toBe(`/comunidad?comentarios=${id}#comment-${said}`)
    const snippet = hits.find((hit) => hit.id === id)!.snippet
    expect(snippet).not.toMatch(/<p>|<script>/)
    expect(snippetParts(snippet).filter((part) => part.marked)).toEqual([{ text: 'subastas', marked: true }])
  })

  test('pages of ten, and counts that do not depend on the page', async () => {
    for (let i = 0; i < 12; i++) await post(`Turquesa número ${i}`)
    const first = await find('turquesa', premium(), 'posts')
    const second = await search(premium(), { query: 'turquesa', tab: 'posts', order: 'relevancia', page: 2 })
    expect([first.hits.length, second.hits.length, first.pageCount, second.counts.posts]).toEqual([10, 2, 2, 12])
    expect(new Set([...first.hits, ...second.hits].map((hit) => hit.id)).size).toBe(12)
  })

  test('a search is at most three statements: the counts and the page, and the miss when nothing was found', async () => {
    await post('Ámbar para contar')
    const statements: string[] = []
    const disarm = failStatements({ test: (query: string) => statements.push(query) < 0 } as RegExp, { times: Infinity })
    try {
      await find('ambar')
      expect(statements).toHaveLength(2)
      statements.length = 0
      await find('palabraquenoexiste')
      expect(statements).toHaveLength(3)
      expect(statements[2]).toMatch(/^insert into "search_misses"/)
    } finally {
      disarm()
    }
  })

  test('searches with no result are counted per day and text, never with who searched', async () => {
    await find('Vacunas   ÁRTICAS')
    await find('vacunas articas', member())
    const rows = await getDb().select().from(searchMisses).where(eq(searchMisses.query, 'vacunas articas'))
    expect(rows).toEqual([{ query: 'vacunas articas', day: expect.any(String), count: 2 }])
    const columns = await getDb().execute(
      sql`select column_name from information_schema.columns where table_name = 'search_misses' order by 1`,
    )
    expect(columns.rows.map((row) => (row as { column_name: string }).column_name)).toEqual(['count', 'day', 'query'])
    expect(await frequentMisses('2000-01-01')).toContainEqual({ query: 'vacunas articas', count: 2 })
    // The console lists them for admins; to anyone else the page does not exist.
    const at = (cookie?: string) =>
      run(() => missesRoute.loader({ request: getRequest('/admin/busquedas', { cookie }), params: {}, context: {} } as any))
    expect((await at(people.admin.cookie)).data.misses).toContainEqual({ query: 'vacunas articas', count: 2 })
    expect((await at(people.premium.cookie)).status).toBe(404)
  })
})

describe('hostile queries never answer 500', () => {
  const hostile = [
    'regulación '.repeat(1000),
    '& | ! ( ) :* <-> " - o',
    '"comillas abiertas',
    '\u0000\u0001precio\u001f\u007f',
    "'; drop table community_posts; --",
    '\\',
    '🙂🙂',
    '-',
  ]
  test.each(hostile.map((query) => [query.slice(0, 30), query]))('%j', async (_name, query) => {
    const page = await run(() =>
      searchRoute.loader({
        request: getRequest(`/buscar?${new URLSearchParams({ q: query })}`, { cookie: people.premium.cookie }),
        params: {},
        context: {},
      } as any),
    )
    expect(page.status).toBe(200)
    expect(page.data.query.length).toBeLessThanOrEqual(100)
    expect(page.data.query).not.toMatch(/[\u0000-\u001f]/)
  })

  test('control characters become spaces and the text is cut at 100 characters', () => {
    expect(cleanQuery('\u0000a\u0002b\tc  ')).toBe('a b c')
    expect(cleanQuery('x'.repeat(10_000))).toHaveLength(100)
  })

  test('an empty query is the empty page with the box', async () => {
    const page = await run(() =>
      searchRoute.loader({ request: getRequest('/buscar?q=', { cookie: people.premium.cookie }), params: {}, context: {} } as any),
    )
    expect(page.data).toMatchObject({ query: '', hits: [], counts: { todo: 0 } })
  })
})

describe('authorization matrix', () => {
  test('a visitor is sent to sign in; members, premium members, suspended members and admins search', async () => {
    const at = (cookie?: string) =>
      run(() => searchRoute.loader({ request: getRequest('/buscar?q=perla', { cookie }), params: {}, context: {} } as any))
    const visitor = await at()
    expect([visitor.status, visitor.location]).toEqual([302, '/auth?redirectTo=%2Fbuscar%3Fq%3Dperla'])
    const suspended = await createPersona('member', { firstName: 'Suspendida', lastName: 'Prueba' })
    await getDb()
      .update(profiles)
      .set({ suspendedUntil: new Date(Date.now() + 86_400_000), suspensionReason: 'x' })
      .where(eq(profiles.userId, suspended.userId!))
    await post('Una perla')
    for (const cookie of [people.member.cookie, people.premium.cookie, people.moderator.cookie, people.admin.cookie, suspended.cookie]) {
      const page = await at(cookie)
      expect(page.status).toBe(200)
      expect(page.data.counts.posts).toBe(1)
    }
    expect((await at(people.member.cookie)).data.hasAccess).toBe(false)
    expect((await at(people.admin.cookie)).data.hasAccess).toBe(true)
  })
})
