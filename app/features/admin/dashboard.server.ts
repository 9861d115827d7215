import { sql, type SQL } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { addDays, DEFAULT_TIME_ZONE, fromWallTime, toWallTime } from '~/platform/dates'
import type { Period } from './filters'
import type { CounterName } from '~/features/community/schema'
import type { activityDaily } from './schema'

/**
 * The console's dashboard (/admin): one statement per block, each reading counters, small tables
 * (profiles, subscriptions) or index ranges of the period (created_at indexes of migration 0016);
 * `dashboard.test.ts` EXPLAINs every one. Days and weeks are the community's (Europe/Madrid).
 */

export const SERIES_WEEKS = 12

/** What the SQL gets back: a day or week and its count. */
type DayCounts = Array<[string, number]>
type Kind = (typeof activityDaily.kind.enumValues)[number]

/** The Monday of the day's week. */
export function mondayOf(day: string) {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7
  return addDays(day, -weekday)
}

/** The community's day of an instant. */
const dayOf = (at: Date) => toWallTime(at, DEFAULT_TIME_ZONE).slice(0, 10)

/** The period's first day and instant, and the first Monday of the twelve weeks drawn. */
export function windowOf(period: Period, now = new Date()) {
  const today = dayOf(now)
  const periodStartDay = addDays(today, -(period - 1))
  const weeks = Array.from({ length: SERIES_WEEKS }, (_, index) => addDays(mondayOf(today), -7 * (SERIES_WEEKS - 1 - index)))
  const fromDay = periodStartDay < weeks[0]! ? periodStartDay : weeks[0]!
  // ISO strings: the driver passes them as text and PostgreSQL reads them as the column's timestamptz.
  const instant = (day: string) => fromWallTime(`${day}T00:00`, DEFAULT_TIME_ZONE)!.toISOString()
  return {
    period,
    now: now.toISOString(),
    today,
    periodStartDay,
    periodStart: instant(periodStartDay),
    weeks,
    fromDay,
    from: instant(fromDay),
  }
}

type Window = ReturnType<typeof windowOf>

async function one<T>(query: SQL) {
  const result = (await getDb().execute(query)) as unknown as { rows: T[] }
  return result.rows[0]!
}

/**
 * Members: totals from the counters kept by triggers (migration 0037), the period's newcomers from
 * the join date's index, and the subscribers by plan from the running subscriptions (a row per
 * paying member), each profile read by its key. What premium by subscription leaves is 'other'.
 */
export function membersQuery(w: Window) {
  const counter = (name: CounterName) => sql`(select value from community_counters where name = ${name})::int`
  return sql`
    select
      ${counter('members')} as "total",
      ${counter('complete_members')} as "complete",
      ${counter('premium_members')} as "premium",
      (select count(*) from profiles where created_at >= ${w.periodStart})::int as "newInPeriod",
      ${counter('premium_admin')} as "premiumByAdmin",
      coalesce(plans.monthly, 0) as "premiumMonthly",
      coalesce(plans.annual, 0) as "premiumAnnual",
      ${counter('premium_subscription')} - coalesce(plans.monthly, 0) - coalesce(plans.annual, 0) as "premiumOther"
    from (
      select
        count(*) filter (where s.plan = 'monthly')::int as monthly,
        count(*) filter (where s.plan = 'annual')::int as annual
      from (
        select distinct on (user_id) user_id, plan from subscriptions
        where status in ('active', 'trialing', 'past_due')
        order by user_id, monthly_cents desc
      ) s
      -- Looked up by key for each subscriber: a join could read every profile to hash them.
      where (select p.is_premium and p.premium_source = 'subscription' from profiles p where p.user_id = s.user_id)
    ) plans`
}

/**
 * Money, from the subscriptions as Stripe last described them: MRR counts active and past-due
 * subscriptions in euros (an annual one as a twelfth, stored so); churn is the share of the
 * subscriptions running at the period's start that ended within it. Issue 40: the failed payments
 * Stripe is retrying (past_due), the monthly revenue of the subscriptions that ended in the period,
 * the members' reasons for the cancellations asked in it, and the share of new subscriptions
 * that came with a promotion code.
 */
export function moneyQuery(w: Window) {
  return sql`
    select
      coalesce(sum(monthly_cents) filter (where status in ('active', 'past_due') and currency = 'eur'), 0)::int as "mrrCents",
      count(distinct user_id) filter (where status in ('active', 'past_due'))::int as "paying",
      count(*) filter (where canceled_at >= ${w.periodStart})::int as "cancellations",
      count(*) filter (where ended_at >= ${w.periodStart} and started_at < ${w.periodStart})::int as "ended",
      count(*) filter (
        where started_at < ${w.periodStart} and (ended_at is null or ended_at >= ${w.periodStart})
          and status not in ('incomplete', 'incomplete_expired')
      )::int as "runningAtStart",
      count(*) filter (where status = 'past_due')::int as "retrying",
      coalesce(sum(monthly_cents) filter (where ended_at >= ${w.periodStart} and currency = 'eur'), 0)::int as "lostCents",
      count(*) filter (where started_at >= ${w.periodStart} and status not in ('incomplete', 'incomplete_expired'))::int as "newSubscriptions",
      count(*) filter (
        where started_at >= ${w.periodStart} and status not in ('incomplete', 'incomplete_expired') and promotion_code_id is not null
      )::int as "newWithCode",
      (
        select coalesce(json_agg(json_build_array(reason, n) order by n desc, reason), '[]') from (
          select cancel_reason as reason, count(*)::int as n from subscriptions
          where cancel_reason is not null and canceled_at >= ${w.periodStart} group by 1
        ) reasons
      ) as "churnReasons",
      (select count(*)::int from refunds where status = 'done' and created_at >= ${w.periodStart}) as "refunds",
      (
        select coalesce(sum(amount_cents), 0)::int from refunds
        where status = 'done' and created_at >= ${w.periodStart} and currency = 'eur'
      ) as "refundedCents",
      (
        select coalesce(json_agg(due order by due."periodEnd"), '[]') from (
          select s.user_id as "userId", coalesce(nullif(trim(p.display_name), ''), trim(concat(p.first_name, ' ', p.last_name)), u.name) as "name",
            u.email as "email", s.current_period_end as "periodEnd"
          from subscriptions s join "user" u on u.id = s.user_id left join profiles p on p.user_id = s.user_id
          where s.status = 'past_due' order by s.current_period_end limit 50
        ) due
      ) as "pastDue"
    from subscriptions`
}

/**
 * Activity: the daily counters (activity_daily, kept by triggers) since the earliest day needed
 * (the weeks drawn, the period), and the active members from the counters kept from the days they
 * used the community (migration 0045): those active in the period are those whose last day is in
 * it, each week's are counted on its Monday. Counting distinct members over member_activity_days
 * cost ~500 ms at ten thousand members, a fifth of them active each day (issue 38).
 */
export function activityQuery(w: Window) {
  return sql`
    select
      (
        select coalesce(json_agg(json_build_array(kind, day::text, n)), '[]')
        from activity_daily where day >= ${w.fromDay} and kind in ('posts', 'comments', 'likes', 'registrations', 'views')
      ) as "days",
      (select coalesce(sum(n), 0)::int from activity_daily where day >= ${w.periodStartDay} and kind = 'active_last') as "activeInPeriod",
      (
        select coalesce(json_agg(json_build_array(day::text, n)), '[]')
        from activity_daily where day >= ${w.weeks[0]} and kind = 'active_weeks'
      ) as "activeByWeek"`
}

/**
 * Content of the period: most-viewed sessions, most-commented posts; the next events and their
 * places. The posts are read from the counts kept for the period's window (migrations 0049 and 0050) when the
 * window starts on the period's first day; otherwise (from midnight until the job below moves the
 * windows, or for another day than today) null, and `commentedPostsQuery` counts them.
 */
export function contentQuery(w: Window) {
  return sql`
    select
      (
        select coalesce(json_agg(top), '[]') from (
          select s.id, s.title, sum(v.views)::int as "views"
          from ceo_session_daily_views v join ceo_sessions s on s.id = v.session_id
          where v.day >= ${w.periodStartDay} group by s.id, s.title order by 3 desc, s.title limit 5
        ) top
      ) as "topSessions",
      (
        select case when exists (select from post_comment_windows where days = ${w.period} and since = ${w.periodStartDay})
          then coalesce(json_agg(top), '[]') end
        from (
          select c.post_id as "id", (select p.title from community_posts p where p.id = c.post_id) as "title", c.n as "comments"
          from post_comment_counts c where c.days = ${w.period} and c.n > 0 order by c.n desc, c.post_id limit 5
        ) top
      ) as "topPosts",
      (
        select coalesce(json_agg(next), '[]') from (
          select e.id, e.title, e.event_date as "eventDate", e.max_attendees as "capacity", e.registered_count as "taken",
            (select count(*) from event_attendees a where a.event_id = e.id and a.status = 'waitlisted')::int as "waitlist"
          from events e where e.event_date >= ${w.now} order by e.event_date, e.id limit 5
        ) next
      ) as "nextEvents"`
}

/**
 * The most commented posts counted from the period's comments (their date index, with the post):
 * what the kept counts hold, for a period whose window they are not on. Costs what the period's
 * comments cost (~250,000 at ×100 for 30 days).
 */
export function commentedPostsQuery(w: Window) {
  return sql`
    select coalesce(json_agg(top), '[]') as "topPosts" from (
      select counted.post_id as "id", (select p.title from community_posts p where p.id = counted.post_id) as "title", counted.n as "comments"
      from (
        select post_id, count(*)::int as n from community_comments
        where created_at >= ${w.periodStart} group by post_id order by 2 desc, post_id limit 5
      ) counted
      order by counted.n desc, counted.post_id
    ) top`
}

/**
 * At midnight (Madrid), the windows of the most commented posts move to the new day: what leaves
 * them is one day's comments. Every process schedules today's run at start-up and the queue keeps
 * one; each run schedules the next midnight's.
 */
export const moveCommentWindowsJob = defineJob<Record<string, never>>({
  name: 'admin.comment-windows',
  label: 'Publicaciones más comentadas del panel',
  async run() {
    const today = dayOf(new Date())
    await moveCommentWindows(today)
    await scheduleCommentWindows(fromWallTime(`${addDays(today, 1)}T00:00`, DEFAULT_TIME_ZONE)!)
  },
})

/** The windows of the periods ending on `today` (any day: moved backwards, they take the days back). */
export async function moveCommentWindows(today: string) {
  await getDb().execute(sql`select move_comment_windows(${today}::date)`)
}

export function scheduleCommentWindows(at = new Date()) {
  return enqueue(moveCommentWindowsJob, {}, { runAt: at, dedupeKey: dayOf(at) })
}

/** The machinery: the queue's partial indexes and the last digest, never the finished jobs one by one. */
export function healthQuery() {
  return sql`
    select
      (select count(*)::int from jobs where status in ('queued', 'running') and status = 'queued') as "queued",
      (select count(*)::int from jobs where status in ('queued', 'running') and status = 'running') as "running",
      (select count(*)::int from jobs where status = 'failed') as "failed",
      (select max(finished_at) from jobs where name = 'notifications.digest' and finished_at is not null and status = 'done') as "lastDigest",
      (select count(*)::int from jobs where status in ('queued', 'running') and name = 'mail.send') as "mailWaiting"`
}

interface Series {
  period: number
  weeks: number[]
}

/** A measure's total over the period and its twelve weekly counts, from its counts by day. */
export function seriesOf(days: DayCounts, w: Window): Series {
  const weeks = new Map(w.weeks.map((week) => [week, 0]))
  let period = 0
  for (const [day, n] of days) {
    if (day >= w.periodStartDay) period += n
    const week = mondayOf(day)
    if (weeks.has(week)) weeks.set(week, weeks.get(week)! + n)
  }
  return { period, weeks: [...weeks.values()] }
}

export interface Dashboard {
  period: Period
  weeks: string[]
  members: {
    total: number
    complete: number
    premium: number
    newInPeriod: number
    premiumByAdmin: number
    premiumMonthly: number
    premiumAnnual: number
    premiumOther: number
  }
  money: {
    mrrCents: number
    paying: number
    cancellations: number
    ended: number
    runningAtStart: number
    /** Refunds made in the period (decisions/0033) and what they gave back, in euro cents. */
    refunds: number
    refundedCents: number
    /** Ended ÷ running at the start, or null when nothing was running. */
    churn: number | null
    retrying: number
    lostCents: number
    newSubscriptions: number
    newWithCode: number
    /** New subscriptions with a code ÷ new subscriptions, or null when none started. */
    codeShare: number | null
    churnReasons: Array<[string, number]>
    pastDue: Array<{ userId: string; name: string; email: string; periodEnd: string | null }>
  }
  activity: Record<'posts' | 'comments' | 'likes' | 'views' | 'registrations' | 'active', Series>
  content: {
    topSessions: Array<{ id: string; title: string; views: number }>
    topPosts: Array<{ id: string; title: string; comments: number }>
    nextEvents: Array<{ id: string; title: string; eventDate: string; capacity: number | null; taken: number; waitlist: number }>
  }
  health: { queued: number; running: number; failed: number; lastDigest: string | null; mailWaiting: number }
}

export async function loadDashboard(period: Period, now = new Date()): Promise<Dashboard> {
  const w = windowOf(period, now)
  type Activity = { days: Array<[Kind, string, number]>; activeInPeriod: number; activeByWeek: DayCounts }
  const [members, money, activity, content, health] = await Promise.all([
    one<Dashboard['members']>(membersQuery(w)),
    one<Omit<Dashboard['money'], 'churn' | 'codeShare'>>(moneyQuery(w)),
    one<Activity>(activityQuery(w)),
    one<Omit<Dashboard['content'], 'topPosts'> & { topPosts: Dashboard['content']['topPosts'] | null }>(contentQuery(w)),
    one<Dashboard['health']>(healthQuery()),
  ])
  const activeWeeks = new Map(activity.activeByWeek)
  const daysOf = (kind: Kind): DayCounts => activity.days.filter(([of]) => of === kind).map(([, day, n]) => [day, n])
  return {
    period,
    weeks: w.weeks,
    members,
    money: {
      ...money,
      churn: money.runningAtStart > 0 ? money.ended / money.runningAtStart : null,
      codeShare: money.newSubscriptions > 0 ? money.newWithCode / money.newSubscriptions : null,
    },
    activity: {
      active: { period: activity.activeInPeriod, weeks: w.weeks.map((week) => activeWeeks.get(week) ?? 0) },
      posts: seriesOf(daysOf('posts'), w),
      comments: seriesOf(daysOf('comments'), w),
      likes: seriesOf(daysOf('likes'), w),
      views: seriesOf(daysOf('views'), w),
      registrations: seriesOf(daysOf('registrations'), w),
    },
    content: {
      ...content,
      topPosts: content.topPosts ?? (await one<Pick<Dashboard['content'], 'topPosts'>>(commentedPostsQuery(w))).topPosts,
    },
    health: { ...health, lastDigest: health.lastDigest ? new Date(health.lastDigest).toISOString() : null },
  }
}
