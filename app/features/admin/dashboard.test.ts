import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { type PlanNode, plansOf, useTestDatabase } from '../../../tests/setup/database'
import {
  activityQuery,
  commentedPostsQuery,
  contentQuery,
  healthQuery,
  loadDashboard,
  moveCommentWindows,
  windowOf,
} from './dashboard.server'

useTestDatabase()

// A Wednesday; in Madrid the same day (UTC+1), so 'today' is 2026-11-25 and its week starts 2026-11-23.
const NOW = new Date('2026-11-25T12:00:00Z')

async function member(
  id: string,
  { complete = true, premium = false, source = null as 'subscription' | 'admin' | null, joined = '2026-01-10T10:00:00Z' } = {},
) {
  await getDb().execute(
    sql`insert into "user" (id, name, email, email_verified) values (${id}, ${`Miembro ${id}`}, ${`${id}@example.com`}, true)`,
  )
  await getDb().execute(sql`
    insert into profiles (user_id, first_name, last_name, avatar_url, company, position, is_premium, premium_source, created_at)
    values (${id}, 'Nombre', ${id}, ${complete ? '/uploads/a.webp' : null}, 'Empresa', 'Cargo', ${premium}, ${source}, ${joined})`)
}

async function subscription(
  id: string,
  userId: string,
  {
    status = 'active',
    plan = 'monthly',
    cents = 8900,
    started = '2026-03-01T10:00:00Z',
    canceled = null as string | null,
    ended = null as string | null,
    periodEnd = '2026-12-20T10:00:00Z',
  } = {},
) {
  await getDb().execute(sql`
    insert into subscriptions (id, user_id, customer_id, status, plan, monthly_cents, currency, current_period_end, started_at, canceled_at, ended_at)
    values (${id}, ${userId}, ${`cus_${userId}`}, ${status}, ${plan}, ${cents}, 'eur', ${periodEnd}, ${started}, ${canceled}, ${ended})`)
}

beforeAll(async () => {
  // Members: eight, in every state the dashboard tells apart.
  await member('m1', { premium: true, source: 'subscription', joined: '2026-11-20T10:00:00Z' })
  await member('m2', { premium: true, source: 'subscription' })
  await member('m3', { complete: false, premium: true, source: 'admin', joined: '2026-11-01T10:00:00Z' })
  await member('m4')
  await member('m5', { premium: true, source: 'subscription' })
  await member('m6', { complete: false })
  await member('m7', { premium: true, source: 'subscription' })
  await member('m8', { complete: false, joined: '2026-10-01T10:00:00Z' })

  // Subscriptions: monthly, annual (900 € = 7,500 cents a month), one cancelled inside the
  // period, one outside it, one past due, one cancelling at the end of its period.
  await subscription('sub_1', 'm1', { started: '2026-11-20T10:00:00Z' })
  await subscription('sub_2', 'm2', { plan: 'annual', cents: 7500, started: '2026-01-10T10:00:00Z' })
  await subscription('sub_4', 'm4', {
    status: 'canceled',
    started: '2026-05-01T10:00:00Z',
    canceled: '2026-11-10T10:00:00Z',
    ended: '2026-11-10T10:00:00Z',
  })
  await subscription('sub_5', 'm5', { status: 'past_due', started: '2026-02-01T10:00:00Z', periodEnd: '2026-11-22T10:00:00Z' })
  await subscription('sub_6', 'm6', { status: 'canceled', canceled: '2026-08-01T10:00:00Z', ended: '2026-08-01T10:00:00Z' })
  await subscription('sub_7', 'm7', { started: '2026-04-01T10:00:00Z', canceled: '2026-11-15T10:00:00Z' })

  // Posts: three today, one at 00:30 Madrid on Monday (23:30 UTC on Sunday: this week, not the
  // last), two five weeks ago (outside the 30 days, inside the twelve weeks), one in August.
  const post = async (id: string, at: string) =>
    getDb().execute(
      sql`insert into community_posts (id, user_id, title, created_at) values (${id}, 'm1', ${`Post ${id.slice(-1)}`}, ${at})`,
    )
  const ids = Array.from({ length: 7 }, (_, index) => `00000000-0000-4000-8000-00000000000${index + 1}`)
  await post(ids[0]!, '2026-11-24T10:00:00Z')
  await post(ids[1]!, '2026-11-24T11:00:00Z')
  await post(ids[2]!, '2026-11-24T12:00:00Z')
  await post(ids[3]!, '2026-11-22T23:30:00Z')
  await post(ids[4]!, '2026-10-20T10:00:00Z')
  await post(ids[5]!, '2026-10-21T10:00:00Z')
  await post(ids[6]!, '2026-08-01T10:00:00Z')

  const comment = async (postId: string, at: string) =>
    getDb().execute(
      sql`insert into community_comments (post_id, user_id, content, created_at) values (${postId}, 'm2', 'Comentario', ${at})`,
    )
  await comment(ids[0]!, '2026-11-24T10:00:00Z')
  await comment(ids[0]!, '2026-11-24T10:05:00Z')
  await comment(ids[1]!, '2026-11-23T10:00:00Z')
  await comment(ids[4]!, '2026-10-20T10:00:00Z')

  const session = async (id: string, title: string) =>
    getDb().execute(sql`
      insert into ceo_sessions (id, title, summary, description, ceo_name, ceo_position, ceo_company, session_date, video_provider, publication_status)
      values (${id}, ${title}, 'r', 'd', 'CEO', 'CEO', 'Empresa', '2026-10-01T10:00:00Z', 'local', 'published')`)
  const s1 = '10000000-0000-4000-8000-000000000001'
  const s2 = '10000000-0000-4000-8000-000000000002'
  await session(s1, 'Sesión uno')
  await session(s2, 'Sesión dos')
  await getDb().execute(
    sql`insert into ceo_session_comments (session_id, user_id, content, created_at) values (${s1}, 'm3', 'Gracias', '2026-11-24T09:00:00Z')`,
  )
  await getDb().execute(
    sql`insert into ceo_session_daily_views (session_id, day, views) values (${s1}, '2026-11-24', 5), (${s2}, '2026-11-20', 7), (${s1}, '2026-09-01', 100)`,
  )

  const [firstComment] = (await getDb().execute(sql`select id from community_comments order by created_at limit 1`)).rows as Array<{
    id: string
  }>
  await getDb().execute(sql`insert into post_likes (post_id, user_id, created_at) values (${ids[0]}, 'm4', '2026-11-24T10:00:00Z')`)
  await getDb().execute(
    sql`insert into comment_likes (comment_id, user_id, created_at) values (${firstComment!.id}, 'm4', '2026-11-24T10:00:00Z')`,
  )
  await getDb().execute(sql`insert into ceo_session_likes (session_id, user_id, created_at) values (${s1}, 'm4', '2026-09-10T10:00:00Z')`)

  const event = async (id: string, title: string, at: string, capacity: number | null, registered: number) =>
    getDb().execute(sql`
      insert into events (id, title, description, event_date, event_type, max_attendees, registered_count)
      values (${id}, ${title}, 'd', ${at}, 'virtual', ${capacity}, ${registered})`)
  const e1 = '20000000-0000-4000-8000-000000000001'
  await event(e1, 'Cena de directivos', '2026-12-10T19:00:00Z', 2, 2)
  await event('20000000-0000-4000-8000-000000000002', 'Ya celebrado', '2026-11-01T19:00:00Z', null, 0)
  await getDb().execute(sql`
    insert into event_attendees (event_id, user_id, status, registered_at)
    values (${e1}, 'm1', 'registered', '2026-11-24T10:00:00Z'), (${e1}, 'm2', 'registered', '2026-11-24T10:00:00Z'), (${e1}, 'm5', 'waitlisted', '2026-11-24T11:00:00Z')`)

  await getDb().execute(sql`
    insert into member_activity_days (day, user_id)
    values ('2026-11-24', 'm1'), ('2026-11-25', 'm1'), ('2026-11-10', 'm2'), ('2026-10-01', 'm3')`)

  await getDb().execute(sql`
    insert into jobs (name, payload, status, finished_at) values
      ('mail.send', '{}', 'queued', null), ('mail.send', '{}', 'queued', null), ('events.reminder', '{}', 'running', null),
      ('events.reminder', '{}', 'failed', '2026-11-24T10:00:00Z'),
      ('notifications.digest', '{}', 'done', '2026-11-24T07:00:00Z'), ('notifications.digest', '{}', 'done', '2026-11-25T07:00:00Z')`)
})

describe('the dashboard of a known community (30 days to 2026-11-25)', () => {
  test('every figure', async () => {
    const d = await loadDashboard(30, NOW)
    expect(d.weeks).toHaveLength(12)
    expect(d.weeks[0]).toBe('2026-09-07')
    expect(d.weeks[11]).toBe('2026-11-23')

    expect(d.members).toEqual({
      total: 8,
      complete: 5,
      premium: 5,
      newInPeriod: 2,
      premiumByAdmin: 1,
      premiumMonthly: 3,
      premiumAnnual: 1,
      premiumOther: 0,
    })

    // 89 + 75 (900/12) + 89 (past due) + 89 (cancels at period end, still paying) = 342 €.
    expect(d.money).toMatchObject({ mrrCents: 34_200, paying: 4, cancellations: 2, ended: 1, runningAtStart: 4, churn: 0.25 })
    expect(d.money.pastDue).toEqual([
      { userId: 'm5', name: 'Nombre m5', email: 'm5@example.com', periodEnd: expect.stringMatching(/^2026-11-22/) },
    ])

    const week = (values: number[]) =>
      Object.fromEntries(values.map((value, index) => [d.weeks[index], value]).filter(([, value]) => value))
    expect(d.activity.posts.period).toBe(4)
    expect(week(d.activity.posts.weeks)).toEqual({ '2026-10-19': 2, '2026-11-23': 4 })
    expect(d.activity.comments.period).toBe(4)
    expect(week(d.activity.comments.weeks)).toEqual({ '2026-10-19': 1, '2026-11-23': 4 })
    expect(d.activity.likes.period).toBe(2)
    expect(week(d.activity.likes.weeks)).toEqual({ '2026-09-07': 1, '2026-11-23': 2 })
    expect(d.activity.views.period).toBe(12)
    expect(week(d.activity.views.weeks)).toEqual({ '2026-11-16': 7, '2026-11-23': 5 })
    expect(d.activity.registrations.period).toBe(3)
    expect(d.activity.active.period).toBe(2)
    expect(week(d.activity.active.weeks)).toEqual({ '2026-09-28': 1, '2026-11-09': 1, '2026-11-23': 1 })

    expect(d.content.topSessions).toEqual([
      { id: '10000000-0000-4000-8000-000000000002', title: 'Sesión dos', views: 7 },
      { id: '10000000-0000-4000-8000-000000000001', title: 'Sesión uno', views: 5 },
    ])
    expect(d.content.topPosts.map((post) => [post.title, post.comments])).toEqual([
      ['Post 1', 2],
      ['Post 2', 1],
    ])
    expect(d.content.nextEvents).toEqual([
      {
        id: '20000000-0000-4000-8000-000000000001',
        title: 'Cena de directivos',
        eventDate: expect.stringMatching(/^2026-12-10/),
        capacity: 2,
        taken: 2,
        waitlist: 1,
      },
    ])

    expect(d.health).toEqual({ queued: 2, running: 1, failed: 1, mailWaiting: 2, lastDigest: '2026-11-25T07:00:00.000Z' })
  })

  test('the daily counters follow deletions, in the transaction that deletes', async () => {
    const before = await loadDashboard(30, NOW)
    await getDb().execute(sql`delete from community_posts where id = '00000000-0000-4000-8000-000000000001'`)
    const after = await loadDashboard(30, NOW)
    // The post, its two comments and its like went with it (the comment like is on another post's comment).
    expect(after.activity.posts.period).toBe(before.activity.posts.period - 1)
    expect(after.activity.comments.period).toBe(before.activity.comments.period - 2)
    expect(after.activity.likes.period).toBe(before.activity.likes.period - 1)
    await getDb().execute(
      sql`insert into community_posts (id, user_id, title, created_at) values ('00000000-0000-4000-8000-000000000001', 'm1', 'Post 1', '2026-11-24T10:00:00Z')`,
    )
    await getDb().execute(sql`insert into community_comments (post_id, user_id, content, created_at) values
      ('00000000-0000-4000-8000-000000000001', 'm2', 'Comentario', '2026-11-24T10:00:00Z'),
      ('00000000-0000-4000-8000-000000000001', 'm2', 'Comentario', '2026-11-24T10:05:00Z')`)
    await getDb().execute(
      sql`insert into post_likes (post_id, user_id, created_at) values ('00000000-0000-4000-8000-000000000001', 'm4', '2026-11-24T10:00:00Z')`,
    )
    expect((await loadDashboard(30, NOW)).activity).toEqual(before.activity)
  })

  test("issue 40: failed payments retried, revenue lost to churn, the reasons given, codes' share of new subscriptions", async () => {
    const d = await loadDashboard(30, NOW)
    // sub_5 is past due; sub_4 (89 €) ended in the period; sub_1 is the period's one new subscription.
    expect(d.money).toMatchObject({ retrying: 1, lostCents: 8900, newSubscriptions: 1, newWithCode: 0, codeShare: 0, churnReasons: [] })
    await getDb().execute(sql`update subscriptions set cancel_reason = 'precio' where id in ('sub_7', 'sub_4')`)
    await getDb().execute(sql`update subscriptions set cancel_reason = 'otro' where id = 'sub_6'`)
    await getDb().execute(sql`update subscriptions set promotion_code_id = 'promo_1' where id = 'sub_1'`)
    try {
      const after = await loadDashboard(30, NOW)
      // sub_6 was cancelled in August: its reason is not this period's.
      expect(after.money).toMatchObject({ newWithCode: 1, codeShare: 1, churnReasons: [['precio', 2]] })
    } finally {
      await getDb().execute(sql`update subscriptions set cancel_reason = null, promotion_code_id = null`)
    }
  })

  test('a shorter period counts less; nothing running at its start means no churn figure', async () => {
    const d = await loadDashboard(7, NOW)
    expect(d.members.newInPeriod).toBe(1)
    expect(d.activity.posts.period).toBe(4)
    expect(d.activity.comments.period).toBe(4)
    expect(d.money.cancellations).toBe(0)
    const empty = await loadDashboard(7, new Date('2025-01-01T12:00:00Z'))
    expect(empty.money.churn).toBeNull()
    expect(empty.activity.posts.weeks.every((n) => n === 0)).toBe(true)
  })

  // Members and money read their small tables whole (one row per member, per subscription). The
  // other blocks must reach each large table through an index condition (a range of the period, a
  // key) or a partial index of the queue: a full index scan would still read every row.
  test('no block reads a whole large table: every scan of one is bounded by an index', async () => {
    const w = windowOf(90, NOW)
    // The indexes meant for each large table's reads (migration 0016 and the keys); none for those never read.
    const MEANT: Record<string, string[]> = {
      activity_daily: ['activity_daily_day_kind_pk'],
      community_posts: ['community_posts_pkey'],
      community_comments: ['community_comments_created_idx'],
      post_comment_counts: ['post_comment_counts_top_idx'],
      event_attendees: ['event_attendees_queue_idx'],
      member_activity_days: ['member_activity_days_day_user_id_pk'],
      ceo_session_daily_views: ['ceo_session_daily_views_day_idx'],
      jobs: ['jobs_due_idx', 'jobs_failed_idx', 'jobs_name_finished_idx'],
      // Counted by activity_daily: never read.
      ceo_session_comments: [],
      post_likes: [],
      comment_likes: [],
      ceo_session_likes: [],
    }
    const PARTIAL = new Set(['jobs_due_idx', 'jobs_failed_idx'])
    const meant = (relation: string, node: PlanNode) =>
      MEANT[relation]!.includes(node['Index Name'] as string) && Boolean(node['Index Cond'] || PARTIAL.has(node['Index Name'] as string))
    const unbounded = (node: PlanNode): string[] => {
      const own: string[] = []
      const relation = node['Relation Name'] as string | undefined
      if (relation && MEANT[relation]) {
        const type = node['Node Type'] as string
        const bounded =
          ((type === 'Index Scan' || type === 'Index Only Scan') && meant(relation, node)) ||
          (type === 'Bitmap Heap Scan' && (node.Plans ?? []).some((child) => meant(relation, child)))
        if (!bounded) own.push(`${type} on ${relation}${node['Index Name'] ? ` (${node['Index Name']})` : ''}`)
      }
      return [...own, ...(node.Plans ?? []).flatMap(unbounded)]
    }
    const found = (await plansOf([activityQuery(w), contentQuery(w), commentedPostsQuery(w), healthQuery()])).flatMap(unbounded)
    expect(found).toEqual([])
  })
})

describe('active members, kept by triggers (migration 0045, issue 38)', () => {
  /** What the counters say against a count of the days themselves, from each of these days on. */
  async function compare() {
    const result = (await getDb().execute(sql`
      select
        (select json_agg(json_build_array(s.day::text,
          (select count(distinct user_id)::int from member_activity_days where day >= s.day),
          (select coalesce(sum(n), 0)::int from activity_daily where kind = 'active_last' and day >= s.day)) order by s.day)
         from (select d::date as day from generate_series(date '2026-08-01', date '2026-12-31', interval '1 day') d) s) as "since",
        (select coalesce(json_agg(json_build_array(week::text, n) order by week), '[]') from (
          select date_trunc('week', day)::date as week, count(distinct user_id)::int as n from member_activity_days group by 1) counted) as "counted",
        (select coalesce(json_agg(json_build_array(day::text, n) order by day), '[]') from activity_daily
          where kind = 'active_weeks' and n > 0) as "kept"`)) as unknown as {
      rows: Array<{ since: Array<[string, number, number]>; counted: Array<[string, number]>; kept: Array<[string, number]> }>
    }
    const { since, counted, kept } = result.rows[0]!
    expect(since.filter(([, direct, fromCounters]) => direct !== fromCounters)).toEqual([])
    expect(kept).toEqual(counted)
    return since.find(([day]) => day === '2026-10-27')![1]
  }

  test('later days, earlier days, several members in one statement, a day removed, an account deleted: the counters equal the count of the days', async () => {
    expect(await compare()).toBe(2)
    await member('m9')
    await member('m10')
    // One statement: a member's days out of order, another's first day, and a day already known (ignored).
    await getDb().execute(sql`
      insert into member_activity_days (day, user_id)
      values ('2026-11-26', 'm9'), ('2026-11-02', 'm9'), ('2026-12-01', 'm9'), ('2026-10-05', 'm10'), ('2026-11-24', 'm1')
      on conflict do nothing`)
    // m9 is; m10 only on 2026-10-05, before the period.
    expect(await compare()).toBe(3)
    // Earlier than the member's last: neither last days nor a week already counted move.
    await getDb().execute(sql`insert into member_activity_days (day, user_id) values ('2026-11-27', 'm9'), ('2026-09-01', 'm1')`)
    await compare()
    // One statement per day, as noteActive writes them.
    for (const day of ['2026-12-02', '2026-12-03', '2026-12-10']) {
      await getDb().execute(sql`insert into member_activity_days (day, user_id) values (${day}, 'm10')`)
    }
    await compare()
    // A member's last day removed, and another's only day of a week.
    await getDb().execute(sql`delete from member_activity_days where (user_id, day) in (('m10', '2026-12-10'), ('m9', '2026-11-02'))`)
    await compare()
    // An account deleted takes its days with it (the cascade is one statement).
    await getDb().execute(sql`delete from "user" where id in ('m9', 'm10')`)
    expect(await compare()).toBe(2)
    await getDb().execute(sql`delete from member_activity_days where (user_id, day) = ('m1', '2026-09-01')`)
    expect(await compare()).toBe(2)
  })
})

describe('the most commented posts, kept by triggers (migrations 0049 and 0050, issue 38)', () => {
  /** Each window's kept counts against a count of the comments since its first day. */
  async function compare() {
    const result = (await getDb().execute(sql`
      select w.days, x.post_id as "postId", x.kept, x.direct from post_comment_windows w cross join lateral (
        select coalesce(c.post_id, d.post_id) as post_id, c.n as kept, d.n as direct
        from (select post_id, n from post_comment_counts where days = w.days and n > 0) c
        full join (
          select post_id, count(*)::int as n from community_comments
          where created_at >= (w.since::timestamp at time zone 'Europe/Madrid') group by post_id
        ) d on d.post_id = c.post_id
      ) x
      where x.kept is distinct from x.direct`)) as unknown as { rows: unknown[] }
    expect(result.rows).toEqual([])
  }
  const today = windowOf(7, NOW).today

  test('inserts, deletes, a cascade, hiding, windows moved forwards and back: the counts equal a count of the comments', async () => {
    await moveCommentWindows(today)
    await compare()
    const post = '00000000-0000-4000-8000-000000000002'
    // One statement: several posts, one comment before every window.
    await getDb().execute(sql`insert into community_comments (post_id, user_id, content, created_at) values
      (${post}, 'm3', 'a', '2026-11-25T08:00:00Z'), (${post}, 'm3', 'b', '2026-11-20T08:00:00Z'),
      ('00000000-0000-4000-8000-000000000004', 'm3', 'c', '2026-10-01T08:00:00Z'), ('00000000-0000-4000-8000-000000000007', 'm3', 'd', '2026-01-01T08:00:00Z')`)
    await compare()
    const d = await loadDashboard(7, NOW)
    expect(d.content.topPosts.map((p) => [p.title, p.comments])).toEqual([
      ['Post 2', 3],
      ['Post 1', 2],
    ])
    // Hidden comments count, as they did when counted from the comments.
    await getDb().execute(sql`update community_comments set hidden_at = now() where post_id = ${post}`)
    await compare()
    await getDb().execute(sql`delete from community_comments where content = 'a'`)
    await compare()
    // A reply goes with the comment it answers (the cascade is a statement of its own).
    const [parent] = (await getDb().execute(sql`select id from community_comments where content = 'b'`)).rows as Array<{ id: string }>
    await getDb().execute(sql`insert into community_comments (post_id, user_id, content, parent_comment_id, created_at)
      values (${post}, 'm4', 'reply', ${parent!.id}, '2026-11-25T09:00:00Z')`)
    await getDb().execute(sql`delete from community_comments where id = ${parent!.id}`)
    await compare()
    // The windows move on a day, then back over a month: what they leave and take back follows.
    await moveCommentWindows('2026-11-26')
    await compare()
    await moveCommentWindows('2026-10-20')
    await compare()
    // A post deleted takes its comments.
    await getDb().execute(sql`delete from community_posts where id = '00000000-0000-4000-8000-000000000005'`)
    await compare()
    await moveCommentWindows(today)
    await compare()
  })

  test('the same five from the kept counts as from the comments; the comments are not read when the window is on the day', async () => {
    await moveCommentWindows(today)
    for (const period of [7, 30, 90] as const) {
      const kept = await loadDashboard(period, NOW)
      await moveCommentWindows('2026-11-26')
      const counted = await loadDashboard(period, NOW)
      await moveCommentWindows(today)
      expect(kept.content.topPosts).toEqual(counted.content.topPosts)
    }
    const result = (await getDb().execute(sql`explain (analyze, format json) ${contentQuery(windowOf(30, NOW))}`)) as unknown as {
      rows: Array<Record<string, unknown>>
    }
    const json = Object.values(result.rows[0]!)[0]
    const plan = (typeof json === 'string' ? JSON.parse(json) : json)[0].Plan as PlanNode
    const relations = (node: PlanNode): string[] => [
      ...(node['Relation Name'] ? [node['Relation Name'] as string] : []),
      ...(node.Plans ?? []).flatMap(relations),
    ]
    expect(relations(plan)).toContain('post_comment_counts')
    expect(relations(plan)).not.toContain('community_comments')
  })
})
