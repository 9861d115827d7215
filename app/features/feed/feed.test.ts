import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { renderToString } from 'react-dom/server'
import { createElement } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { and, count, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { PostCard } from '~/features/feed/components/post-card'
import { getDb } from '~/platform/db/client.server'
import { notifications } from '~/features/notifications/schema'
import { profiles } from '~/features/account/schema'
import { commentLikes, communityComments, communityPosts, postCategories, postLikes } from './schema'
import * as layoutRoute from '~/features/community/layout.route'
import * as feedRoute from './feed.route'
import * as commentsRoute from './comments.route'
import * as uploadsRoute from '~/platform/storage/uploads.route'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'
import { pixelBombPng } from '../../../tests/setup/images'
import { createPost, createPostWithFiles, feedAction, feedLoader, feedPage } from '../../../tests/setup/feed'
import { createPersona, type Persona } from '../../../tests/setup/members'
import { getRequest, run } from '../../../tests/setup/requests'
import { getEnv } from '~/platform/env.server'
import { ATTACHMENT_ERRORS } from './limits'

useTestDatabase()

let people: Record<Persona, Awaited<ReturnType<typeof createPersona>>>
const personas: Persona[] = ['anonymous', 'member', 'premium', 'moderator', 'admin']

beforeAll(async () => {
  people = {} as typeof people
  for (const persona of personas) people[persona] = await createPersona(persona, { firstName: persona, lastName: 'Prueba' })
})

const postRow = async (id: string) => (await getDb().select().from(communityPosts).where(eq(communityPosts.id, id)))[0]

describe('authorization matrix', () => {
  // anonymous → sign-in redirect; member without premium → 403 for every interaction.
  const cases: Array<[string, (target: { postId: string; commentId: string }) => Record<string, string>]> = [
    ['create-post', () => ({ intent: 'create-post', title: 'Hola', postType: 'text' })],
    ['like-post', ({ postId }) => ({ intent: 'like-post', postId })],
    ['add-comment', ({ postId }) => ({ intent: 'add-comment', postId, content: 'Hola' })],
    ['reply', ({ postId, commentId }) => ({ intent: 'add-comment', postId, parentCommentId: commentId, content: 'Hola' })],
    ['like-comment', ({ commentId }) => ({ intent: 'like-comment', commentId })],
  ]
  test.each(cases)('%s: anonymous 302, member and moderator without premium 403, premium and admin 200', async (_name, fieldsFor) => {
    const postId = await createPost(people.premium.cookie!)
    await feedAction({ intent: 'add-comment', postId, content: 'Primero' }, people.premium.cookie)
    const [comment] = await getDb().select().from(communityComments).where(eq(communityComments.postId, postId))
    const fields = fieldsFor({ postId, commentId: comment!.id })
    expect((await feedAction(fields)).status).toBe(302)
    const refused = await feedAction(fields, people.member.cookie)
    expect(refused.status).toBe(403)
    expect(refused.data.message.title).toBe('Acceso Premium Requerido')
    // The moderator role moderates content; it does not give premium access.
    expect((await feedAction(fields, people.moderator.cookie)).status).toBe(403)
    expect((await feedAction(fields, people.premium.cookie)).status).toBe(200)
    expect((await feedAction(fields, people.admin.cookie)).status).toBe(200)
  })

  test('the spec messages for likes and comments without access', async () => {
    const postId = await createPost(people.premium.cookie!)
    expect((await feedAction({ intent: 'like-post', postId }, people.member.cookie)).data.message.description).toBe(
      'Necesitas acceso premium para dar like',
    )
    expect((await feedAction({ intent: 'add-comment', postId, content: 'x' }, people.member.cookie)).data.message.description).toBe(
      'Necesitas acceso premium para comentar',
    )
  })

  test('edit: only the author', async () => {
    const postId = await createPost(people.premium.cookie!, { title: 'Original' })
    for (const persona of ['member', 'moderator', 'admin'] as const) {
      const outcome = await feedAction({ intent: 'update-post', postId, title: 'Cambiado' }, people[persona].cookie)
      expect(outcome.status).toBe(403)
    }
    expect((await postRow(postId))!.title).toBe('Original')
    const own = await feedAction({ intent: 'update-post', postId, title: '  Editado  ', content: '' }, people.premium.cookie)
    expect(own.data).toMatchObject({ ok: true, message: { title: 'Post actualizado', description: 'Los cambios han sido guardados' } })
    expect(await postRow(postId)).toMatchObject({ title: 'Editado', content: null })
  })

  test('delete: author, moderator or admin; not another member', async () => {
    const other = await createPersona('premium')
    const postId = await createPost(people.premium.cookie!)
    expect((await feedAction({ intent: 'delete-post', postId }, other.cookie)).status).toBe(403)
    expect(await postRow(postId)).toBeDefined()
    for (const persona of ['premium', 'moderator', 'admin'] as const) {
      const id = await createPost(people.premium.cookie!)
      const outcome = await feedAction({ intent: 'delete-post', postId: id }, people[persona].cookie)
      expect(outcome.data).toMatchObject({ ok: true, message: { title: 'Post eliminado' } })
      expect(await postRow(id)).toBeUndefined()
    }
  })

  test('pin: admins only; pinned posts come first', async () => {
    const first = await createPost(people.premium.cookie!, { title: 'Antiguo' })
    await createPost(people.premium.cookie!, { title: 'Nuevo' })
    for (const persona of ['premium', 'moderator'] as const) {
      expect((await feedAction({ intent: 'pin-post', postId: first, pinned: 'true' }, people[persona].cookie)).status).toBe(403)
    }
    const pinned = await feedAction({ intent: 'pin-post', postId: first, pinned: 'true' }, people.admin.cookie)
    expect(pinned.data.message.title).toBe('Post actualizado')
    const page = await feedLoader('', people.premium.cookie)
    expect(page.data.feed.items[0]).toMatchObject({ id: first, isPinned: true })
    await feedAction({ intent: 'pin-post', postId: first, pinned: 'false' }, people.admin.cookie)
  })

  test('an incomplete profile is sent to /perfil before anything else', async () => {
    const { cookie } = await import('../../../tests/setup/requests').then((m) => m.createConfirmedUser())
    const outcome = await feedAction({ intent: 'create-post', title: 'x' }, cookie)
    expect(outcome.location).toBe('/perfil?incompleto=1')
  })
})

describe('posts: validation and hostile input', () => {
  test.each([
    ['title', { title: '   ' }, 'El título es requerido'],
    ['title', { title: 'x'.repeat(201) }, 'El título es demasiado largo'],
    ['content', { title: 'Ok', content: 'x'.repeat(10_001) }, 'El contenido es demasiado largo'],
    ['linkUrl', { title: 'Ok', postType: 'link' }, 'La URL es requerida para publicar un enlace'],
    ['linkUrl', { title: 'Ok', postType: 'link', linkUrl: 'javascript:alert(document.cookie)' }, 'Introduce una URL válida (http o https)'],
    [
      'linkUrl',
      { title: 'Ok', postType: 'link', linkUrl: 'data:text/html,<script>alert(1)</script>' },
      'Introduce una URL válida (http o https)',
    ],
    ['categoryId', { title: 'Ok', categoryId: 'not-a-uuid' }, 'Categoría no válida'],
  ])('refuses a bad %s', async (field, fields, message) => {
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await feedAction({ intent: 'create-post', postType: 'text', ...fields }, people.premium.cookie)
    expect(outcome.status).toBe(400)
    expect(outcome.data.submission.error[field]).toEqual([message])
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
  })

  test('script in title and content is stored as text and rendered inert', async () => {
    const hostile = '<script>alert("xss")</script><img src=x onerror=alert(1)>'
    const postId = await createPost(people.premium.cookie!, {
      title: hostile,
      content: hostile,
      postType: 'link',
      linkUrl: 'https://example.com/?q="><script>',
    })
    expect(await postRow(postId)).toMatchObject({ title: hostile, content: hostile })
    const page = await feedLoader('', people.premium.cookie)
    const view = page.data.feed.items.find((post: { id: string }) => post.id === postId)
    const router = createMemoryRouter([{ path: '/', element: createElement(PostCard, { post: view }) }])
    const html = renderToString(createElement(RouterProvider, { router }))
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<img src="x"')
    expect(html).toContain('&lt;script&gt;')
    expect(html).toContain('rel="noopener noreferrer nofollow ugc"')
  })

  test('a post in a category is filtered by it', async () => {
    const [category] = await getDb().select().from(postCategories).where(eq(postCategories.name, 'Liderazgo'))
    const postId = await createPost(people.premium.cookie!, { title: 'Liderar equipos', categoryId: category!.id })
    const page = await feedLoader(`?categoria=${category!.id}`, people.premium.cookie)
    const posts = page.data.feed.items
    expect(posts.map((post: { id: string }) => post.id)).toContain(postId)
    expect(posts.every((post: { category: { id: string } | null }) => post.category?.id === category!.id)).toBe(true)
  })
})

describe('feed pagination', () => {
  // Straight into the table (the posting rate limit would rightly stop so many posts), one second
  // apart so "newest first" can fail; `index` 0 is the newest.
  const seedPosts = async (
    count: number,
    label: string,
    { sameTime = false, categoryId }: { sameTime?: boolean; categoryId?: string } = {},
  ) => {
    const author = await createPersona('premium')
    const now = Date.now()
    const rows = await getDb()
      .insert(communityPosts)
      .values(
        Array.from({ length: count }, (_, index) => ({
          userId: author.userId!,
          title: `${label} ${index}`,
          categoryId,
          createdAt: new Date(sameTime ? now : now - index * 1000),
        })),
      )
      .returning({ id: communityPosts.id })
    return { author, ids: rows.map((row) => row.id) }
  }

  type Shown = { id: string; createdAt: string; title: string; category: { id: string } | null }
  /** Every page as the member gets it: the first with the page, the next ones as 'Cargar más' fetches them. */
  const allPages = async (cookie: string, filter = '') => {
    const first = (await feedLoader(filter ? `?${filter}` : '', cookie)).data.feed
    const pages: Shown[][] = [first.items]
    for (let next: string | null = first.next; next && pages.length < 100;) {
      const page = (await feedPage(`?cursor=${next}${filter ? `&${filter}` : ''}`, cookie)).data
      pages.push(page.items)
      next = page.next
    }
    return pages
  }

  test('pinned first, then newest, 10 a page; every post exactly once across pages', async () => {
    const { author, ids } = await seedPosts(45, 'Serie')
    const oldest = ids.at(-1)!
    await getDb().update(communityPosts).set({ isPinned: true }).where(eq(communityPosts.id, oldest))
    try {
      const pages = await allPages(author.cookie!)
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(10)
      const seen = pages.flat()
      expect(seen[0]!.id).toBe(oldest)
      for (const page of pages.slice(1)) expect(page.map((post) => post.id)).not.toContain(oldest)
      const dates = seen.slice(1).map((post) => post.createdAt)
      expect(dates).toEqual(dates.toSorted().reverse())
      const total = (await getDb().select().from(communityPosts)).length
      expect(new Set(seen.map((post) => post.id)).size).toBe(total)
      expect(seen).toHaveLength(total)
    } finally {
      await getDb().update(communityPosts).set({ isPinned: false }).where(eq(communityPosts.id, oldest))
    }
  })

  test('posts written at the same microsecond are each shown once: the cursor goes on by id', async () => {
    const { author, ids } = await seedPosts(25, 'Mismo instante', { sameTime: true })
    const seen = (await allPages(author.cookie!)).flat().map((post) => post.id)
    expect(seen).toHaveLength(new Set(seen).size)
    for (const id of ids) expect(seen).toContain(id)
  })

  test("the next pages keep the category; a hidden post stays its author's alone on every page", async () => {
    const [category] = await getDb().select({ id: postCategories.id }).from(postCategories).limit(1)
    const { author, ids } = await seedPosts(23, 'En categoría', { categoryId: category!.id })
    const hidden = ids[15]!
    await getDb().update(communityPosts).set({ hiddenAt: new Date(), hiddenReason: 'Spam' }).where(eq(communityPosts.id, hidden))
    const inCategory = (
      await getDb().select({ id: communityPosts.id }).from(communityPosts).where(eq(communityPosts.categoryId, category!.id))
    ).length
    try {
      const mine = (await allPages(author.cookie!, `categoria=${category!.id}`)).flat()
      expect(mine.every((post) => post.category?.id === category!.id)).toBe(true)
      expect(mine).toHaveLength(inCategory)
      expect(mine.map((post) => post.id)).toContain(hidden)
      const others = (await allPages(people.premium.cookie!, `categoria=${category!.id}`)).flat()
      expect(others.map((post) => post.id)).not.toContain(hidden)
      expect(others).toHaveLength(inCategory - 1)
    } finally {
      await getDb().update(communityPosts).set({ hiddenAt: null, hiddenReason: null }).where(eq(communityPosts.id, hidden))
    }
  })

  test("a notification's link to a post beyond the first page opens it: the post comes first with its comments", async () => {
    const { ids } = await seedPosts(30, 'Antiguo')
    const old = ids[25]!
    expect((await feedAction({ intent: 'add-comment', postId: old, content: 'Sigue abierto' }, people.premium.cookie)).data.ok).toBe(true)
    const page = await feedLoader(`?comentarios=${old}`, people.premium.cookie)
    expect(page.data.feed.items[0].id).toBe(old)
    expect(page.data.openComments.postId).toBe(old)
    expect(page.data.openComments.comments.map((comment: { content: string }) => comment.content)).toContain('Sigue abierto')
    // It is not on the first page otherwise.
    expect((await feedLoader('', people.premium.cookie)).data.feed.items.map((post: { id: string }) => post.id)).not.toContain(old)
  })

  test('the list reloads what it shows in one request: cantidad is honoured up to 100, junk means a page (10)', async () => {
    const { author } = await seedPosts(121, 'Recarga')
    const cursor = (await feedLoader('', author.cookie)).data.feed.next
    const sizeOf = async (cantidad: string) => (await feedPage(`?cursor=${cursor}&cantidad=${cantidad}`, author.cookie)).data.items.length
    expect(await sizeOf('7')).toBe(7)
    expect(await sizeOf('40')).toBe(40)
    expect(await sizeOf('100000')).toBe(100)
    for (const junk of ['-3', '0', 'abc', '']) expect(await sizeOf(junk)).toBe(10)
  })

  test('feed and notification pages are read in index order, never by sorting every row', async () => {
    // With sorting priced out, a plan still holding a Sort node means no index gives this order.
    const plans = await getDb().transaction(async (tx) => {
      await tx.execute(sql`set local enable_sort = off`)
      const explain = async (query: ReturnType<typeof sql>) => {
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Array<Record<string, string>> }
        return result.rows.map((row) => Object.values(row)[0]).join('\n')
      }
      return [
        await explain(sql`select id from community_posts order by is_pinned desc, created_at desc, id desc limit 11`),
        // A next page ('Cargar más'): the cursor's row comparison is a range of the same index.
        await explain(
          sql`select id from community_posts where (is_pinned, created_at, id) < (false, now(), gen_random_uuid()) order by is_pinned desc, created_at desc, id desc limit 11`,
        ),
        await explain(
          sql`select id from community_posts where category_id = gen_random_uuid() order by is_pinned desc, created_at desc, id desc limit 11`,
        ),
        await explain(sql`select id from notifications where user_id = 'x' order by created_at desc limit 50`),
      ]
    })
    for (const plan of plans) expect(plan).not.toMatch(/\bSort\b/)
  })

  test('the stats panel (the /comunidad layout) counts complete members and posts; events and sessions are zero until they exist', async () => {
    const page = await run(() =>
      layoutRoute.loader({ request: getRequest('/comunidad', { cookie: people.premium.cookie }), params: {}, context: {} } as any),
    )
    const [posts] = await getDb().select({ n: count() }).from(communityPosts)
    const [members] = await getDb().select({ n: count() }).from(profiles).where(eq(profiles.isComplete, true))
    expect(page.data.stats).toEqual({ members: members!.n, discussions: posts!.n, eventsThisMonth: 0, ceoSessions: 0 })
    expect(page.data.stats.members).toBeGreaterThanOrEqual(Object.keys(people).length - 1)

    // The counters follow every change in its own transaction (triggers, migration 0008).
    const stats = async () =>
      (
        await run(() =>
          layoutRoute.loader({ request: getRequest('/comunidad', { cookie: people.premium.cookie }), params: {}, context: {} } as any),
        )
      ).data.stats
    // The admin posts: the premium member's hourly allowance belongs to the attachment tests.
    const postId = await createPost(people.admin.cookie!)
    expect((await stats()).discussions).toBe(posts!.n + 1)
    await getDb().delete(communityPosts).where(eq(communityPosts.id, postId))
    expect((await stats()).discussions).toBe(posts!.n)
    const [other] = await getDb().select({ company: profiles.company }).from(profiles).where(eq(profiles.userId, people.member.userId!))
    await getDb().update(profiles).set({ company: null }).where(eq(profiles.userId, people.member.userId!))
    expect((await stats()).members).toBe(members!.n - 1)
    await getDb().update(profiles).set({ company: other!.company }).where(eq(profiles.userId, people.member.userId!))
    expect((await stats()).members).toBe(members!.n)
    // The layout guards itself too: its loader is not a guard for the tabs, nor the tabs for it.
    expect((await run(() => layoutRoute.loader({ request: getRequest('/comunidad'), params: {}, context: {} } as any))).status).toBe(302)
  })

  test("without JavaScript 'Editar' is ?editar=<id>: the post comes first with its form, only for its author", async () => {
    const { author, ids } = await seedPosts(25, 'Editable sin JavaScript')
    const oldest = ids[24]!
    const page = await feedLoader(`?editar=${oldest}`, author.cookie)
    expect(page.data.editing).toBe(oldest)
    const [first] = page.data.feed.items
    expect(first).toMatchObject({ id: oldest, canEdit: true })
    const render = (post: unknown) =>
      renderToString(
        createElement(RouterProvider, {
          router: createMemoryRouter([{ path: '/', element: createElement(PostCard, { post, editOnLoad: true } as never) }]),
        }),
      )
    const own = render(first)
    expect(own).toContain('name="intent" value="update-post"')
    expect(own).toContain('Guardar')
    // Another member following the same link sees the post, never a form for it.
    const other = (await feedLoader(`?editar=${oldest}`, people.premium.cookie)).data.feed.items[0]
    expect(other).toMatchObject({ id: oldest, canEdit: false })
    expect(render(other)).not.toContain('update-post')
    // Junk is ignored: the first page as usual.
    const junk = await feedLoader('?editar=%3Cscript%3E', author.cookie)
    expect(junk.data.editing).toBeNull()
    expect(junk.data.feed.items.map((post: { id: string }) => post.id)).not.toContain(oldest)
  })

  test('a forged cursor is ignored (first page)', async () => {
    const idsOf = async (query: string) =>
      (await feedLoader(query, people.premium.cookie)).data.feed.items.map((post: { id: string }) => post.id)
    const forged = await idsOf('?cursor=eyJoYWNrIjp0cnVlfQ')
    expect(forged).toHaveLength(10)
    expect(forged).toEqual(await idsOf(''))
  })
})

describe('likes and comments', () => {
  test('like toggles, counts never go below 0, and a stale second unlike does nothing', async () => {
    const postId = await createPost(people.admin.cookie!)
    const like = () => feedAction({ intent: 'like-post', postId }, people.premium.cookie)
    expect((await like()).data).toMatchObject({ liked: true, likeCount: 1 })
    expect((await like()).data).toMatchObject({ liked: false, likeCount: 0 })
    await getDb().update(communityPosts).set({ likeCount: 0 }).where(eq(communityPosts.id, postId))
    await like()
    await getDb().update(communityPosts).set({ likeCount: 0 }).where(eq(communityPosts.id, postId))
    expect((await like()).data.likeCount).toBe(0)
  })

  concurrencyTest('simultaneous likes from one member (double click, two tabs) keep each counter equal to its likes', async () => {
    const postId = await createPost(people.admin.cookie!)
    const comment = await feedAction({ intent: 'add-comment', postId, content: 'Para likes' }, people.admin.cookie)
    const commentId = comment.data.commentId as string
    for (const round of [5, 6]) {
      await Promise.all([
        ...Array.from({ length: round }, () => feedAction({ intent: 'like-post', postId }, people.premium.cookie)),
        ...Array.from({ length: round }, () => feedAction({ intent: 'like-comment', commentId }, people.premium.cookie)),
      ])
      const [likes] = await getDb().select({ n: count() }).from(postLikes).where(eq(postLikes.postId, postId))
      const [commentLikeRows] = await getDb().select({ n: count() }).from(commentLikes).where(eq(commentLikes.commentId, commentId))
      expect((await postRow(postId))!.likeCount).toBe(likes!.n)
      const [commentRow] = await getDb().select().from(communityComments).where(eq(communityComments.id, commentId))
      expect(commentRow!.likeCount).toBe(commentLikeRows!.n)
    }
  })

  test('replies go one level deep; deleting a comment removes its replies and the counter follows', async () => {
    const postId = await createPost(people.admin.cookie!)
    const first = await feedAction({ intent: 'add-comment', postId, content: 'Comentario' }, people.premium.cookie)
    expect(first.data.message.title).toBe('Comentario añadido')
    const replyOutcome = await feedAction(
      { intent: 'add-comment', postId, parentCommentId: first.data.commentId, content: 'Respuesta' },
      people.admin.cookie,
    )
    expect(replyOutcome.data.message.title).toBe('Respuesta añadida')
    const nested = await feedAction(
      { intent: 'add-comment', postId, parentCommentId: replyOutcome.data.commentId, content: 'Respuesta a respuesta' },
      people.premium.cookie,
    )
    const [nestedRow] = await getDb().select().from(communityComments).where(eq(communityComments.id, nested.data.commentId))
    expect(nestedRow!.parentCommentId).toBe(first.data.commentId)
    expect((await postRow(postId))!.commentCount).toBe(3)

    const list = await run(() =>
      commentsRoute.loader({
        request: getRequest(`/comunidad/posts/${postId}/comentarios`, { cookie: people.premium.cookie }),
        params: { postId },
        context: {},
      } as any),
    )
    expect(list.data.comments.map((c: { content: string }) => c.content)).toEqual(['Comentario', 'Respuesta', 'Respuesta a respuesta'])

    const otherPost = await createPost(people.admin.cookie!)
    const crossPost = await feedAction(
      { intent: 'add-comment', postId: otherPost, parentCommentId: first.data.commentId, content: 'x' },
      people.premium.cookie,
    )
    expect(crossPost.status).toBe(404)
    expect((await postRow(otherPost))!.commentCount).toBe(0)

    expect((await feedAction({ intent: 'delete-comment', commentId: first.data.commentId }, people.member.cookie)).status).toBe(403)
    const removed = await feedAction({ intent: 'delete-comment', commentId: first.data.commentId }, people.premium.cookie)
    expect(removed.data.message.title).toBe('Comentario eliminado')
    expect((await postRow(postId))!.commentCount).toBe(0)
  })

  test('comments list: anonymous 302, any complete profile reads, a bad id is 404', async () => {
    // Its own author, so the shared personas' posting limits stay for the other tests.
    const author = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    await feedAction({ intent: 'add-comment', postId, content: 'Visible' }, author.cookie)
    const list = (cookie: string | undefined, id = postId) =>
      run(() =>
        commentsRoute.loader({
          request: getRequest(`/comunidad/posts/${id}/comentarios`, { cookie }),
          params: { postId: id },
          context: {},
        } as any),
      )
    expect((await list(undefined)).status).toBe(302)
    for (const persona of ['member', 'premium', 'moderator', 'admin'] as const) {
      const outcome = await list(people[persona].cookie)
      expect(outcome.status).toBe(200)
      expect(outcome.data.comments.map((c: { content: string }) => c.content)).toEqual(['Visible'])
    }
    expect((await list(people.premium.cookie, 'no-es-un-id')).status).toBe(404)
  })

  test("delete another member's comment: moderator and admin yes, a member or premium member no", async () => {
    const author = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    for (const [persona, status] of [
      ['member', 403],
      ['moderator', 200],
      ['admin', 200],
    ] as const) {
      const added = await feedAction({ intent: 'add-comment', postId, content: `Para ${persona}` }, author.cookie)
      expect((await feedAction({ intent: 'delete-comment', commentId: added.data.commentId }, people[persona].cookie)).status).toBe(status)
    }
    const other = await createPersona('premium')
    const kept = await feedAction({ intent: 'add-comment', postId, content: 'Ajeno' }, author.cookie)
    expect((await feedAction({ intent: 'delete-comment', commentId: kept.data.commentId }, other.cookie)).status).toBe(403)
    expect((await postRow(postId))!.commentCount).toBe(2)
  })

  test('only the author edits a comment; empty comments are refused', async () => {
    const postId = await createPost(people.admin.cookie!)
    const added = await feedAction({ intent: 'add-comment', postId, content: 'Original' }, people.premium.cookie)
    expect(
      (await feedAction({ intent: 'update-comment', commentId: added.data.commentId, content: 'Hack' }, people.admin.cookie)).status,
    ).toBe(403)
    expect(
      (await feedAction({ intent: 'add-comment', postId, content: '   ' }, people.premium.cookie)).data.submission.error.content,
    ).toEqual(['El comentario no puede estar vacío'])
    const edited = await feedAction(
      { intent: 'update-comment', commentId: added.data.commentId, content: 'Editado' },
      people.premium.cookie,
    )
    expect(edited.data.message.title).toBe('Comentario actualizado')
  })
})

describe('notifications from feed actions', () => {
  const inbox = (userId: string) => getDb().select().from(notifications).where(eq(notifications.userId, userId))

  test('like, comment, reply and comment like notify the right person, never oneself, once per like', async () => {
    const author = await createPersona('premium', { firstName: 'Autora' })
    const fan = await createPersona('premium', { firstName: 'Fan', lastName: 'Uno' })
    const postId = await createPost(author.cookie!, { title: 'Mi post' })

    await feedAction({ intent: 'like-post', postId }, author.cookie)
    expect(await inbox(author.userId!)).toHaveLength(0)

    await feedAction({ intent: 'like-post', postId }, fan.cookie)
    await feedAction({ intent: 'like-post', postId }, fan.cookie)
    await feedAction({ intent: 'like-post', postId }, fan.cookie)
    let received = await inbox(author.userId!)
    expect(received.map((n) => n.type)).toEqual(['like'])
    expect(received[0]).toMatchObject({ title: 'Nuevo like', actorUserId: fan.userId, relatedPostId: postId, isRead: false })
    expect(received[0]!.message).toBe('A Fan Uno le gusta tu post «Mi post»')

    const comment = await feedAction({ intent: 'add-comment', postId, content: 'Buen post' }, fan.cookie)
    await feedAction({ intent: 'add-comment', postId, parentCommentId: comment.data.commentId, content: 'Gracias' }, author.cookie)
    await feedAction({ intent: 'like-comment', commentId: comment.data.commentId }, author.cookie)
    received = await inbox(author.userId!)
    expect(received.map((n) => n.type).sort()).toEqual(['comment', 'like'])
    const fanInbox = await inbox(fan.userId!)
    expect(fanInbox.map((n) => n.type).sort()).toEqual(['comment_like', 'comment_reply'])
    expect(fanInbox.find((n) => n.type === 'comment_reply')).toMatchObject({
      title: 'Nueva respuesta',
      relatedCommentId: expect.any(String),
    })
  })

  test("deleting a comment takes its notifications and its replies' with it, and the bell's count follows", async () => {
    const author = await createPersona('premium')
    const fan = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    const comment = await feedAction({ intent: 'add-comment', postId, content: 'Hola' }, fan.cookie)
    await feedAction({ intent: 'add-comment', postId, parentCommentId: comment.data.commentId, content: 'Gracias' }, author.cookie)
    await feedAction({ intent: 'like-comment', commentId: comment.data.commentId }, author.cookie)
    expect((await inbox(fan.userId!)).map((n) => n.type).sort()).toEqual(['comment_like', 'comment_reply'])
    expect((await inbox(author.userId!)).map((n) => n.type)).toEqual(['comment'])
    expect((await feedAction({ intent: 'delete-comment', commentId: comment.data.commentId }, fan.cookie)).status).toBe(200)
    expect([...(await inbox(fan.userId!)), ...(await inbox(author.userId!))]).toEqual([])
    const unread = await getDb()
      .select({ n: profiles.unreadNotifications })
      .from(profiles)
      .where(sql`${profiles.userId} in (${fan.userId}, ${author.userId})`)
    expect(unread.map((row) => row.n)).toEqual([0, 0])
  })

  test('a refused action creates no notification', async () => {
    const author = await createPersona('premium')
    const postId = await createPost(author.cookie!)
    await feedAction({ intent: 'like-post', postId }, people.member.cookie)
    await feedAction({ intent: 'add-comment', postId, content: '   ' }, people.premium.cookie)
    expect(await inbox(author.userId!)).toHaveLength(0)
  })
})

describe('attachments', () => {
  const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

  test('images are re-encoded, documents kept; served only through a valid signed link', async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123456' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'secreto' } })
      .toBuffer()
    const outcome = await createPostWithFiles(
      { title: 'Con adjuntos', postType: 'document' },
      [
        { bytes: photo, name: 'foto.jpg', type: 'image/jpeg' },
        { bytes: pdf, name: 'informe anual.pdf', type: 'application/pdf' },
        { bytes: new TextEncoder().encode('hola\nmundo'), name: 'notas.txt', type: 'text/plain' },
      ],
      people.premium.cookie,
    )
    expect(outcome.data).toMatchObject({
      ok: true,
      message: { title: 'Post creado', description: 'Tu post ha sido publicado exitosamente' },
    })
    const page = await feedLoader('', people.premium.cookie)
    const view = page.data.feed.items.find((post: { id: string }) => post.id === outcome.data.postId)
    expect(view.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['foto.webp', 'informe-anual.pdf', 'notas.txt'])

    const serve = (url: string) => {
      const parsed = new URL(url, 'http://localhost:3000')
      const key = parsed.pathname.slice('/uploads/'.length)
      return uploadsRoute.loader({ request: getRequest(`${parsed.pathname}${parsed.search}`), params: { '*': key }, context: {} } as any)
    }
    const image = view.attachments[0]
    const imageResponse = await serve(image.url)
    expect(imageResponse.status).toBe(200)
    expect(imageResponse.headers.get('content-type')).toBe('image/webp')
    expect((await sharp(Buffer.from(await imageResponse.arrayBuffer())).metadata()).exif).toBeUndefined()

    const document = await serve(view.attachments[1].url)
    expect(document.headers.get('content-disposition')).toContain('attachment; filename="informe-anual.pdf"')
    expect(document.headers.get('x-content-type-options')).toBe('nosniff')

    const tampered = view.attachments[1].url.replace(/sig=[^&]+/, 'sig=AAAA')
    expect((await serve(tampered)).status).toBe(404)
    expect((await serve(view.attachments[1].url.split('?')[0])).status).toBe(404)
  })

  test.each([
    ['HTML disguised as PDF', '<html><script>alert(1)</script></html>', 'informe.pdf'],
    ['an executable', 'MZ\u0090\u0000binary', 'setup.exe'],
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'logo.svg'],
  ])('refuses %s and stores no post', async (_label, text, name) => {
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await createPostWithFiles(
      { title: 'Malicioso' },
      [{ bytes: new TextEncoder().encode(text), name }],
      people.premium.cookie,
    )
    expect(outcome.status).toBe(415)
    expect(outcome.data.message.title).toBe('Solo se permiten imágenes, PDF, DOC, DOCX o TXT')
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
  })

  test('more than 5 files or an oversized file is refused while streaming', async () => {
    const six = Array.from({ length: 6 }, (_, index) => ({ bytes: pdf, name: `d${index}.pdf` }))
    const tooMany = await createPostWithFiles({ title: 'Muchos' }, six, people.premium.cookie)
    expect(tooMany.status).toBe(413)
    expect(tooMany.data.message.title).toBe('Máximo 5 archivos por post')
    const big = new Uint8Array(11 * 1024 * 1024)
    big.set(pdf)
    const oversized = await createPostWithFiles({ title: 'Grande' }, [{ bytes: big, name: 'big.pdf' }], people.premium.cookie)
    expect(oversized.status).toBe(413)
    expect(oversized.data.message.title).toBe('Cada archivo debe ser menor a 10MB')
    const rows = await getDb()
      .select()
      .from(communityPosts)
      .where(and(eq(communityPosts.title, 'Grande')))
    expect(rows).toEqual([])
  })
})

describe('an attachment over 10 MB', () => {
  test('answers 413 with the spec message, stores no post and no file', async () => {
    const author = await createPersona('premium')
    const justOver = new Uint8Array(10 * 1024 * 1024 + 1)
    justOver.set(new TextEncoder().encode('%PDF-1.4\n'))
    const outcome = await createPostWithFiles(
      { title: 'Justo por encima', postType: 'document' },
      [{ bytes: justOver, name: 'informe.pdf', type: 'application/pdf' }],
      author.cookie,
    )
    expect(outcome.status).toBe(413)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Cada archivo debe ser menor a 10MB' } })
    expect(outcome.data.message.title).toBe(ATTACHMENT_ERRORS.fileSize)
    expect(await getDb().select().from(communityPosts).where(eq(communityPosts.userId, author.userId!))).toEqual([])
    const folder = path.join(getEnv().DATA_DIR, 'uploads', 'attachments', author.userId!)
    expect(await readdir(folder).catch(() => [])).toEqual([])
  })
})

describe('the Create Post form as the browser sends it', () => {
  test('empty optional fields (no category, no URL, an empty file input) are "not given"', async () => {
    const author = await createPersona('premium')
    const outcome = await createPostWithFiles(
      { title: 'Desde el diálogo', postType: 'text', content: '', linkUrl: '', categoryId: '' },
      [{ bytes: new Uint8Array(0), name: '', type: 'application/octet-stream' }],
      author.cookie,
    )
    expect(outcome.data, JSON.stringify(outcome.data)).toMatchObject({ ok: true, message: { title: 'Post creado' } })
    expect(await postRow(outcome.data.postId)).toMatchObject({ categoryId: null, linkUrl: null, content: null })
  })
})

describe('requests the feed does not accept answer 4xx with a Spanish message', () => {
  // A member of its own: the others have used up their 20 posts an hour.
  let author: Awaited<ReturnType<typeof createPersona>>
  beforeAll(async () => {
    author = await createPersona('premium')
  })
  const post = (body: BodyInit, headers: Record<string, string>, cookie = people.premium.cookie!) =>
    run(() =>
      feedRoute.action({
        request: new Request('http://localhost:3000/comunidad?index', {
          method: 'POST',
          body,
          headers: { Origin: 'http://localhost:3000', 'x-app-client-ip': '203.0.113.7', Cookie: cookie, ...headers },
          duplex: 'half',
        } as RequestInit),
        params: {},
        context: {},
      } as any),
    )

  test('a JSON body is a 415', async () => {
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await post(JSON.stringify({ intent: 'create-post', postType: 'text', title: 'Por JSON' }), {
      'Content-Type': 'application/json',
    })
    expect(outcome.status).toBe(415)
    expect(outcome.data).toMatchObject({
      ok: false,
      message: { title: 'Este formulario solo acepta los datos que envía la propia página.' },
    })
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
  })

  test('a multipart body cut before its closing boundary is a 400, and the next request is served', async () => {
    const boundary = '----corte'
    const cut = `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncreate-post\r\n--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 partial`
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await post(cut, { 'Content-Type': `multipart/form-data; boundary=${boundary}` })
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('La solicitud está incompleta o mal formada. Vuelve a intentarlo.')
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
    expect((await feedLoader('', people.premium.cookie)).status).toBe(200)
  })

  test('a stream that errors mid-file is a 400, not an exception', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode('--x\r\nContent-Disposition: form-data; name="attachments"; filename="a.pdf"\r\n\r\n%PDF-1.4 '),
        )
        controller.error(new Error('client went away'))
      },
    })
    const outcome = await post(body, { 'Content-Type': 'multipart/form-data; boundary=x' })
    expect(outcome.status).toBe(400)
  })

  test('an unknown but well-formed category is a 422 and stores nothing', async () => {
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await feedAction(
      { intent: 'create-post', postType: 'text', title: 'Ok', categoryId: crypto.randomUUID() },
      author.cookie,
    )
    expect(outcome.status).toBe(422)
    expect(outcome.data.message.title).toBe('No se pudo crear el post')
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
  })

  test('an unknown intent is a 400', async () => {
    const outcome = await feedAction({ intent: 'borrar-todo' }, people.premium.cookie)
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('Solicitud no válida')
  })

  test.each([
    ['title', 'El título contiene caracteres no válidos', { title: 'Ana\u202Egnp.exe' }],
    ['content', 'El contenido contiene caracteres no válidos', { title: 'Ok', content: 'Factura \u202Efdp.exe' }],
    ['content', 'El contenido contiene caracteres no válidos', { title: 'Ok', content: 'Texto \u2066oculto\u2069' }],
  ])('a bidirectional override in a new post %s is a 400 and stores nothing', async (field, message, fields) => {
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await feedAction({ intent: 'create-post', postType: 'text', ...fields }, author.cookie)
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('No se pudo crear el post')
    expect(outcome.data.submission.error[field]).toEqual([message])
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
  })

  test('a bidirectional override in an edited post is a 400 and changes nothing', async () => {
    const postId = await createPost(author.cookie!, { title: 'Limpio', content: 'Limpio' })
    for (const [field, fields, message] of [
      ['title', { title: 'Ana\u202Egnp.exe' }, 'El título contiene caracteres no válidos'],
      ['content', { title: 'Limpio', content: 'Texto \u202Eotxet' }, 'El contenido contiene caracteres no válidos'],
    ] as const) {
      const outcome = await feedAction({ intent: 'update-post', postId, ...fields }, author.cookie)
      expect(outcome.status).toBe(400)
      expect(outcome.data.submission.error[field]).toEqual([message])
    }
    expect(await postRow(postId)).toMatchObject({ title: 'Limpio', content: 'Limpio' })
  })

  test('a bidirectional override in a comment (new or edited) is a 400 and stores nothing', async () => {
    const postId = await createPost(author.cookie!)
    const outcome = await feedAction({ intent: 'add-comment', postId, content: 'Hola \u202Emundo' }, author.cookie)
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('No se pudo añadir el comentario')
    expect(outcome.data.submission.error.content).toEqual(['El comentario contiene caracteres no válidos'])
    expect((await postRow(postId))!.commentCount).toBe(0)
    const added = await feedAction({ intent: 'add-comment', postId, content: 'Hola mundo' }, author.cookie)
    const edited = await feedAction(
      { intent: 'update-comment', commentId: added.data.commentId, content: 'Hola \u202Emundo' },
      author.cookie,
    )
    expect(edited.status).toBe(400)
    expect(edited.data.submission.error.content).toEqual(['El comentario contiene caracteres no válidos'])
    const [row] = await getDb().select().from(communityComments).where(eq(communityComments.id, added.data.commentId))
    expect(row!.content).toBe('Hola mundo')
  })

  // Invisible direction marks reorder text just like the overrides: left-to-right mark,
  // right-to-left mark and Arabic letter mark.
  test.each([
    ['U+200E', '\u200E'],
    ['U+200F', '\u200F'],
    ['U+061C', '\u061C'],
  ])('the direction mark %s is refused in a post (title, content, edit) and a comment (new, edit)', async (_name, mark) => {
    const before = (await getDb().select().from(communityPosts)).length
    const title = await feedAction({ intent: 'create-post', postType: 'text', title: `Ana${mark}gnp.exe` }, author.cookie)
    expect(title.status).toBe(400)
    expect(title.data.submission.error.title).toEqual(['El título contiene caracteres no válidos'])
    const content = await feedAction(
      { intent: 'create-post', postType: 'text', title: 'Ok', content: `Factura ${mark}fdp.exe` },
      author.cookie,
    )
    expect(content.status).toBe(400)
    expect(content.data.submission.error.content).toEqual(['El contenido contiene caracteres no válidos'])
    expect((await getDb().select().from(communityPosts)).length).toBe(before)

    const postId = await createPost(author.cookie!, { title: 'Limpio', content: 'Limpio' })
    const editedTitle = await feedAction({ intent: 'update-post', postId, title: `Limpio${mark}` }, author.cookie)
    expect(editedTitle.status).toBe(400)
    expect(editedTitle.data.submission.error.title).toEqual(['El título contiene caracteres no válidos'])
    const editedContent = await feedAction({ intent: 'update-post', postId, title: 'Limpio', content: `Texto ${mark}otxet` }, author.cookie)
    expect(editedContent.status).toBe(400)
    expect(editedContent.data.submission.error.content).toEqual(['El contenido contiene caracteres no válidos'])
    expect(await postRow(postId)).toMatchObject({ title: 'Limpio', content: 'Limpio' })

    const comment = await feedAction({ intent: 'add-comment', postId, content: `Hola ${mark}mundo` }, author.cookie)
    expect(comment.status).toBe(400)
    expect(comment.data.submission.error.content).toEqual(['El comentario contiene caracteres no válidos'])
    expect((await postRow(postId))!.commentCount).toBe(0)
    const added = await feedAction({ intent: 'add-comment', postId, content: 'Hola mundo' }, author.cookie)
    const edited = await feedAction(
      { intent: 'update-comment', commentId: added.data.commentId, content: `Hola ${mark}mundo` },
      author.cookie,
    )
    expect(edited.status).toBe(400)
    expect(edited.data.submission.error.content).toEqual(['El comentario contiene caracteres no válidos'])
    const [row] = await getDb().select().from(communityComments).where(eq(communityComments.id, added.data.commentId))
    expect(row!.content).toBe('Hola mundo')
  })

  test('a zero-width joiner (emoji sequences) is still accepted in a post', async () => {
    const postId = await createPost(author.cookie!, { title: 'Equipo 👩\u200D💻', content: 'Hola 👨\u200D👩\u200D👧' })
    expect(await postRow(postId)).toMatchObject({ title: 'Equipo 👩\u200D💻', content: 'Hola 👨\u200D👩\u200D👧' })
  })

  test('a malformed id is an invalid field (400); an unknown but well-formed id is a 404', async () => {
    const malformed = await feedAction({ intent: 'like-post', postId: 'no-es-un-id' }, author.cookie)
    expect(malformed.status).toBe(400)
    expect(malformed.data.message.title).toBe('No se pudo procesar tu reacción')
    expect(malformed.data.submission.error.postId).toEqual(['Publicación no válida'])
    const unknown = await feedAction({ intent: 'like-post', postId: crypto.randomUUID() }, author.cookie)
    expect(unknown.status).toBe(404)
    expect(unknown.data.message.title).toBe('No se pudo procesar tu reacción')
  })

  test('an image attachment of huge dimensions (a pixel bomb) is a 413 and stores nothing', async () => {
    const bomb = pixelBombPng(8000, 6000)
    const before = (await getDb().select().from(communityPosts)).length
    const outcome = await createPostWithFiles(
      { title: 'Bomba', postType: 'text' },
      [{ bytes: bomb, name: 'bomba.png', type: 'image/png' }],
      author.cookie,
    )
    expect(outcome.status).toBe(413)
    expect(outcome.data.message.title).toBe('La imagen es demasiado grande (máximo 40 megapíxeles)')
    expect((await getDb().select().from(communityPosts)).length).toBe(before)
  })
})

describe('the /comunidad layout', () => {
  test('old ?tab= links answer 301 with the nested URL, keeping the other parameters', async () => {
    const outcome = await run(() =>
      layoutRoute.loader({ request: getRequest('/comunidad?tab=miembros&q=ana'), params: {}, context: {} } as any),
    )
    expect(outcome.status).toBe(301)
    expect(outcome.location).toBe('/comunidad/miembros?q=ana')
    const feed = await run(() =>
      layoutRoute.loader({ request: getRequest('/comunidad?tab=comunidad&categoria=x'), params: {}, context: {} } as any),
    )
    expect(feed.location).toBe('/comunidad?categoria=x')
  })
})
