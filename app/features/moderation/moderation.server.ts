import { and, eq, gt, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { displayName } from '~/features/account/display-name'
import { profiles, publicProfileColumns, recipientColumns } from '~/features/account/schema'
import { sessionComments } from '~/features/ceo-sessions/session-comments.server'
import { ceoSessionComments, ceoSessions } from '~/features/ceo-sessions/schema'
import { removeComment } from '~/features/community/comments/comments.server'
import { postComments } from '~/features/feed/comments.server'
import { deletePost } from '~/features/feed/posts.server'
import { communityComments, communityPosts } from '~/features/feed/schema'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { notifications } from '~/features/notifications/schema'
import { recordAudit } from '~/platform/audit/audit.server'
import type { CurrentUser } from '~/features/account/guards.server'
import { requireCapability } from '~/platform/auth/guards.server'
import { session, user, userRoles } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { refuse, success } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { fullDateTime } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { renderMail, enqueueRenderedMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { getStorage } from '~/platform/storage/storage.server'
import { MODERATION_MESSAGES, REPORT_REASONS, type ReportReason } from './reasons'
import { moderationDecisions, moderationReports, type ReportedMessages } from './schema'

/**
 * Moderation with reasons (issue 28, ADR 0029): members report what they read; moderators and
 * admins decide in the queue (/admin/moderacion) — hide with a reason its author sees, dismiss, or
 * make visible again — and whoever acts second on the same item is told the first one won. The
 * reporter hears what was decided, never who decided it.
 */

export type ItemKind = 'post' | 'comment' | 'session_comment'
/** What members report: an item, or a member (the report's item id is their user id). */
export type ReportedKind = ItemKind | 'member'

/** Each kind of item: its table, and the text the queue shows. */
const ITEMS = {
  post: { table: communityPosts, text: sql<string>`${communityPosts.title} || ' — ' || coalesce(${communityPosts.content}, '')` },
  comment: { table: communityComments, text: sql<string>`${communityComments.content}` },
  session_comment: { table: ceoSessionComments, text: sql<string>`${ceoSessionComments.content}` },
} as const

const ITEM_KINDS = Object.keys(ITEMS) as ItemKind[]

/** Where something reported is read: a post with its comments open, a session's comments, a member's profile. */
function linkOf(kind: ReportedKind, item: { id: string; postId?: string | null; sessionId?: string | null }) {
  if (kind === 'member') return `/usuario/${item.id}`
  if (kind === 'post') return `/comunidad?comentarios=${item.id}#post-${item.id}`
  if (kind === 'comment') return `/comunidad?comentarios=${item.postId}#comment-${item.id}`
  return `/video/${item.sessionId}#comment-${item.id}`
}

/** Items of one kind as moderation sees them, by id: one query. */
function selectItems(executor: DbExecutor, kind: ItemKind) {
  const { table, text } = ITEMS[kind]
  return executor
    .select({
      id: table.id,
      userId: table.userId,
      text,
      hiddenAt: table.hiddenAt,
      reviewRequestedAt: table.reviewRequestedAt,
      postId: kind === 'comment' ? communityComments.postId : sql<null>`null`,
      sessionId: kind === 'session_comment' ? ceoSessionComments.sessionId : sql<null>`null`,
    })
    .from(table)
}

/** One item, locked for the decision when `lock` (inside its transaction). */
async function findItem(executor: DbExecutor, kind: ItemKind, id: string, { lock = false } = {}) {
  const query = selectItems(executor, kind).where(eq(ITEMS[kind].table.id, id))
  const [item] = lock ? await query.for('update') : await query
  return item ?? null
}

/** Reported members as the queue shows them: their name and what they say of themselves; an expelled one counts as hidden. */
async function selectMembers(executor: DbExecutor, userIds: string[], { lock = false } = {}) {
  if (userIds.length === 0) return []
  const query = executor
    .select({ userId: profiles.userId, ...publicProfileColumns, bio: profiles.bio, bannedAt: profiles.bannedAt })
    .from(profiles)
    .where(inArray(profiles.userId, userIds))
  const rows = lock ? await query.for('update') : await query
  return rows.map((row) => ({
    id: row.userId,
    userId: row.userId as string | null,
    name: displayName(row),
    text: `Perfil de ${displayName(row)}${row.bio ? ` — ${row.bio}` : ''}`,
    hiddenAt: row.bannedAt,
    reviewRequestedAt: null,
    postId: null,
    sessionId: null,
  }))
}

const excerpt = (text: string, length = 80) => (text.length > length ? `${text.slice(0, length - 1)}…` : text)

/** Everyone who moderates (moderators and admins) hears of something for the queue, in the bell and by e-mail per their topic. */
async function tellModerators(tx: DbExecutor, title: string, message: string, subjectUserId: string | null = null) {
  const staff = await tx
    .selectDistinct({ userId: userRoles.userId })
    .from(userRoles)
    .where(inArray(userRoles.role, ['moderator', 'admin']))
  for (const { userId } of staff) {
    await notifyInTransaction(tx, { recipientId: userId, actorId: null, type: 'moderation_report', title, message, subjectUserId })
  }
}

/** A member reports an item or another member: one open report per member and item; moderators hear of it. */
export async function reportItem(
  member: CurrentUser,
  input: { kind: ReportedKind; itemId: string; reason: ReportReason; note?: string | null; context?: ReportedMessages | null },
) {
  await enforceRateLimits([{ key: `report:${member.id}`, max: 10, windowSeconds: 60 * 60 }])
  await getDb().transaction(async (tx) => {
    // Read under the lock a decision takes: a report and a decision hiding the item (or expelling
    // the member) at once go one after the other, so no report stays open on what is hidden.
    const item =
      input.kind === 'member'
        ? (await selectMembers(tx, [input.itemId], { lock: true }))[0]
        : await findItem(tx, input.kind, input.itemId, { lock: true })
    if (!item || item.hiddenAt) refuse(404, input.kind === 'member' ? MODERATION_MESSAGES.memberGone : MODERATION_MESSAGES.gone)
    if (item.userId === member.id) refuse(400, MODERATION_MESSAGES.own)
    const [row] = await tx
      .insert(moderationReports)
      .values({
        userId: member.id,
        kind: input.kind,
        itemId: item.id,
        reason: input.reason,
        note: input.note || null,
        context: input.context ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: moderationReports.id })
    if (!row) refuse(409, MODERATION_MESSAGES.already)
    // The excerpt is the author's words (or the reported member's name): it goes with their account.
    await tellModerators(tx, 'Nuevo informe', `${REPORT_REASONS[input.reason]}: «${excerpt(item.text)}»`, item.userId)
  })
  return success({ reported: true }, { title: MODERATION_MESSAGES.received })
}

/** The author asks for a second look at their hidden item (after editing it, or as it is). */
export async function requestReview(member: CurrentUser, kind: ItemKind, itemId: string) {
  await enforceRateLimits([{ key: `review:${member.id}`, max: 10, windowSeconds: 60 * 60 }])
  const { table } = ITEMS[kind]
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(table)
      .set({ reviewRequestedAt: sql`now()` })
      .where(and(eq(table.id, itemId), eq(table.userId, member.id), isNotNull(table.hiddenAt), isNull(table.reviewRequestedAt)))
      .returning({ id: table.id })
    if (!row) refuse(409, MODERATION_MESSAGES.gone)
    await tellModerators(tx, 'Revisión pedida', 'El autor de un contenido oculto pide que se revise de nuevo.')
  })
  return success({ reviewAsked: true }, { title: MODERATION_MESSAGES.reviewAsked })
}

/** A comment hidden or shown again moves its thread's counter, so no count includes what others cannot see. */
async function moveCounter(tx: DbExecutor, kind: ItemKind, item: { postId?: string | null; sessionId?: string | null }, by: 1 | -1) {
  if (kind === 'comment' && item.postId) {
    await tx
      .update(communityPosts)
      .set({ commentCount: sql`greatest(${communityPosts.commentCount} + ${by}, 0)` })
      .where(eq(communityPosts.id, item.postId))
  }
  if (kind === 'session_comment' && item.sessionId) {
    await tx
      .update(ceoSessions)
      .set({ commentCount: sql`greatest(${ceoSessions.commentCount} + ${by}, 0)` })
      .where(eq(ceoSessions.id, item.sessionId))
  }
}

/**
 * A hidden item leaves other members' bells: the notifications it caused (a comment, a reply) or
 * that lead into it (a hidden post's thread) are withdrawn, but its author's. A restore does not
 * bring them back: they told of something that was, meanwhile, not there.
 */
async function withdrawNotifications(tx: DbExecutor, kind: ItemKind, item: { id: string; userId: string | null }) {
  const about = kind === 'post' ? eq(notifications.relatedPostId, item.id) : eq(notifications.relatedCommentId, item.id)
  await tx.delete(notifications).where(item.userId ? and(about, ne(notifications.userId, item.userId)) : about)
}

/** What the reporters are told of each decision. */
const OUTCOME = {
  hide: 'lo hemos ocultado',
  delete: 'lo hemos eliminado',
  dismiss: 'no infringe las normas de la comunidad, así que sigue visible',
  warn: 'hemos advertido a esa persona',
  suspend: 'hemos limitado temporalmente su cuenta',
  ban: 'esa persona ya no forma parte de la comunidad',
} as const

const AUDITED = {
  hide: 'content_hidden',
  delete: 'content_deleted',
  dismiss: 'report_dismissed',
  restore: 'content_restored',
  warn: 'member_warned',
  suspend: 'member_suspended',
  ban: 'member_banned',
  lift: 'member_reinstated',
} as const

/** Each reporter hears what was decided about what they reported, never by whom. */
async function tellReporters(
  tx: DbExecutor,
  reporters: string[],
  what: string,
  action: keyof typeof OUTCOME,
  /** Whose words or name `what` quotes. */
  subjectUserId: string | null,
) {
  for (const reporterId of new Set(reporters)) {
    await notifyInTransaction(tx, {
      recipientId: reporterId,
      actorId: null,
      type: 'moderation_outcome',
      title: 'Hemos revisado tu informe',
      message: `Sobre ${what}: ${OUTCOME[action]}. Gracias por avisarnos.`,
      subjectUserId,
    })
  }
}

/**
 * A moderator's decision on an item. 'hide' (with the reason its author sees), 'delete' (also
 * with a reason) and 'dismiss' close the item's open reports; 'hide' or 'delete' on a hidden item
 * whose author asked for a review keep it hidden with the new reason, or delete it; 'restore'
 * shows a hidden item again. Each is conditional on what the moderator saw: of two at once, one
 * wins and the other gets 409, and nothing the second did stays (the refusal rolls it back).
 */
export async function decide(
  moderator: CurrentUser,
  input: { kind: ItemKind; itemId: string; action: 'hide' | 'delete' | 'dismiss' | 'restore'; reason?: string | null },
) {
  const { table } = ITEMS[input.kind]
  const reason = input.reason?.trim() || null
  const removing = input.action === 'hide' || input.action === 'delete'
  if (removing && !reason) refuse(400, MODERATION_MESSAGES.reasonRequired)
  const files = await getDb().transaction(async (tx) => {
    const item = await findItem(tx, input.kind, input.itemId, { lock: true })
    if (!item) refuse(404, MODERATION_MESSAGES.gone)
    const closing =
      input.action === 'restore' ? [] : await closeReports(tx, input.kind, item.id, input.action === 'dismiss' ? 'dismissed' : 'actioned')
    // What the moderator saw must still be so: open reports, a review asked, or a hidden item to restore.
    const reviewing = Boolean(item.hiddenAt && item.reviewRequestedAt)
    const seen = input.action === 'restore' ? Boolean(item.hiddenAt) : removing && item.hiddenAt ? reviewing : closing.length > 0
    if (!seen) refuse(409, MODERATION_MESSAGES.taken)

    if (input.action === 'hide') {
      await tx
        .update(table)
        .set({ hiddenAt: item.hiddenAt ?? sql`now()`, hiddenReason: reason, reviewRequestedAt: null })
        .where(eq(table.id, item.id))
      if (!item.hiddenAt) {
        await moveCounter(tx, input.kind, item, -1)
        await withdrawNotifications(tx, input.kind, item)
      }
    }
    if (input.action === 'restore') {
      await tx.update(table).set({ hiddenAt: null, hiddenReason: null, reviewRequestedAt: null }).where(eq(table.id, item.id))
      await moveCounter(tx, input.kind, item, 1)
    }
    await tx
      .insert(moderationDecisions)
      .values({ kind: input.kind, itemId: item.id, userId: item.userId, decidedBy: moderator.id, action: input.action, reason })
    await recordAudit(
      {
        action: AUDITED[input.action],
        actorUserId: moderator.id,
        targetUserId: item.userId,
        details: { kind: input.kind, itemId: item.id, reason, reports: closing.length },
      },
      tx,
    )
    const what = `«${excerpt(item.text, 60)}»`
    if (input.action !== 'restore') await tellReporters(tx, closing, what, input.action, item.userId)
    if (input.action !== 'dismiss') {
      // A deleted post takes its notifications with it: the author's must not point at it.
      const postId = input.kind === 'post' ? (input.action === 'delete' ? null : item.id) : item.postId
      await notifyInTransaction(tx, {
        recipientId: item.userId,
        actorId: null,
        type: 'moderation_decision',
        title: {
          hide: 'Hemos ocultado un contenido tuyo',
          delete: 'Hemos eliminado un contenido tuyo',
          restore: 'Tu contenido vuelve a estar visible',
        }[input.action],
        message: input.action === 'restore' ? `${what} vuelve a verse en la comunidad.` : `${what}: ${reason}`,
        postId,
      })
    }
    if (input.action !== 'delete') return [] as string[]
    if (input.kind === 'post') return deletePost(item.id, tx)
    await removeComment(tx, input.kind === 'comment' ? postComments : sessionComments, item.id)
    return [] as string[]
  })
  // A deleted post's attachments go once the deletion is committed.
  for (const key of files) {
    await getStorage()
      .delete(key)
      .catch((error) => logger.warn({ err: error, key }, 'A moderated post left a file behind'))
  }
  const title = {
    hide: MODERATION_MESSAGES.hidden,
    delete: MODERATION_MESSAGES.deleted,
    dismiss: MODERATION_MESSAGES.dismissed,
    restore: MODERATION_MESSAGES.restored,
  }[input.action]
  // Back to the queue, which no longer lists what was decided.
  return redirectWithToast('/admin/moderacion', { type: 'success', title })
}

/** Closes the item's open reports; returns their reporters (none: someone decided first). */
async function closeReports(tx: DbExecutor, kind: ReportedKind, itemId: string, status: 'actioned' | 'dismissed') {
  const closed = await tx
    .update(moderationReports)
    .set({ status, closedAt: sql`now()` })
    .where(and(eq(moderationReports.kind, kind), eq(moderationReports.itemId, itemId), eq(moderationReports.status, 'open')))
    .returning({ reporterId: moderationReports.userId })
  return closed.map((row) => row.reporterId)
}

export const QUEUE_SIZE = 25
const HISTORY_SIZE = 5

/** Where a page of the queue starts: after (since in µs, item id) of the last entry shown. */
export interface QueueCursor {
  micros: string
  itemId: string
}

export function decodeQueueCursor(value: string | null): QueueCursor | null {
  const match = value ? /^(\d{1,17})_([0-9a-f-]{36})$/.exec(value) : null
  return match ? { micros: match[1]!, itemId: match[2]! } : null
}

const PAGE_ROWS = QUEUE_SIZE + 1

/** Hidden items of one kind whose author asked for a review: a page of them in the queue's order, off their partial index. */
function reviewsOf(kind: ItemKind, after: SQL | null) {
  const { table } = ITEMS[kind]
  return sql`(select ${kind}::text, ${table.id}, ${table.reviewRequestedAt}, false
    from ${table} where ${table.hiddenAt} is not null and ${table.reviewRequestedAt} is not null
    ${after ? sql`and (${table.reviewRequestedAt}, ${table.id}) > ${after}` : sql``}
    order by 3, 2 limit ${PAGE_ROWS})`
}

/**
 * What waits, oldest first: one page after `after` (and one more, to tell whether another follows).
 * An item's place is its oldest open report: the open reports are walked in (created_at, item_id)
 * order (moderation_reports_open_idx) and one is kept when no earlier open report of its item
 * exists (moderation_reports_open_item_idx), so a page reads its items' reports and those of
 * earlier items made meanwhile, whatever the backlog; each kind of review comes a page at a time
 * off its own index, and only the page's items are aggregated (reasons, notes, messages' contexts).
 * Grouping every open report by item to keep 26 grew with the backlog (issue 38: decisions/0029).
 */
export function waitingQuery(after: QueueCursor | null) {
  const r = moderationReports
  const cursor = after ? sql`(timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.itemId}::uuid)` : null
  return sql`
    with page (kind, item_id, since, reported) as (
      (select ${r.kind}::text, ${r.itemId}, ${r.createdAt}, true from ${r}
        where ${r.status} = 'open' ${cursor ? sql`and (${r.createdAt}, ${r.itemId}) > ${cursor}` : sql``}
          and not exists (select from ${r} earlier where earlier.status = 'open' and earlier.kind = ${r.kind}
            and earlier.item_id = ${r.itemId} and (earlier.created_at, earlier.id) < (${r.createdAt}, ${r.id}))
        order by 3, 2 limit ${PAGE_ROWS})
      union all ${reviewsOf('post', cursor)}
      union all ${reviewsOf('comment', cursor)}
      union all ${reviewsOf('session_comment', cursor)}
      order by 3, 2 limit ${PAGE_ROWS}
    )
    select page.kind, page.item_id as "itemId", coalesce(d.reports, 0) as reports, coalesce(d.reasons, '{}') as reasons,
      coalesce(d.notes, '{}') as notes, page.since, coalesce(d.contexts, '[]'::jsonb) as contexts,
      (extract(epoch from page.since) * 1000000)::bigint::text as micros
    from page left join lateral (
      select count(*)::int as reports, array_agg(distinct ${r.reason}::text) as reasons,
        coalesce(array_agg(${r.note} order by ${r.createdAt}) filter (where ${r.note} is not null), '{}') as notes,
        coalesce(jsonb_agg(${r.context} order by ${r.createdAt}) filter (where ${r.context} is not null), '[]'::jsonb) as contexts
      from ${r} where ${r.status} = 'open' and ${r.kind} = page.kind::reported_kind and ${r.itemId} = page.item_id
    ) d on page.reported
    order by page.since, page.item_id`
}

interface Waiting {
  kind: ReportedKind
  itemId: string
  reports: number
  reasons: ReportReason[]
  notes: string[]
  since: Date | string
  micros: string
  /** Reported private messages, each with the five before it (issue 41). */
  contexts: ReportedMessages[] | string
}

/** The last five decisions about each of these members' writing and account, newest first, cut in the database. */
export function historyQuery(userIds: string[]) {
  const d = moderationDecisions
  return sql`select a.user_id as "userId", h.action, h.reason, h.created_at as "createdAt"
    from unnest(array[${sql.join(
      userIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]) as a (user_id)
    cross join lateral (
      select ${d.action} as action, ${d.reason} as reason, ${d.createdAt} as created_at from ${d}
      where ${d.userId} = a.user_id order by ${d.createdAt} desc limit ${HISTORY_SIZE}
    ) h
    order by h.created_at desc`
}

interface Decision {
  userId: string
  action: (typeof moderationDecisions.$inferSelect)['action']
  reason: string | null
  createdAt: Date | string
}

/**
 * One page of the queue: what waits for a decision, oldest first — items and members with open
 * reports (grouped: how many, which reasons, the notes) and hidden items whose author asked for a
 * review — each with its text, author, where it is read, and the author's earlier decisions. A
 * page starts after the last entry of the one before (`next`), so decisions taken meanwhile move
 * nothing into or out of it unseen.
 */
export async function listQueue(after: QueueCursor | null = null) {
  const db = getDb()
  const rows = ((await db.execute(waitingQuery(after))) as unknown as { rows: Waiting[] }).rows
  const waiting = rows.slice(0, QUEUE_SIZE)
  const items = new Map<string, Awaited<ReturnType<typeof selectMembers>>[number] | NonNullable<Awaited<ReturnType<typeof findItem>>>>()
  const idsOf = (kind: ReportedKind) => waiting.filter((entry) => entry.kind === kind).map((entry) => entry.itemId)
  for (const kind of ITEM_KINDS) {
    const ids = idsOf(kind)
    if (ids.length === 0) continue
    for (const item of await selectItems(db, kind).where(inArray(ITEMS[kind].table.id, ids))) items.set(`${kind}:${item.id}`, item)
  }
  for (const member of await selectMembers(db, idsOf('member'))) items.set(`member:${member.id}`, member)
  const authorIds = [...new Set([...items.values()].map((item) => item.userId).filter((id): id is string => Boolean(id)))]
  const [authors, history] = authorIds.length
    ? await Promise.all([
        db
          .select({ userId: profiles.userId, ...publicProfileColumns })
          .from(profiles)
          .where(inArray(profiles.userId, authorIds)),
        db.execute(historyQuery(authorIds)).then((result) => (result as unknown as { rows: Decision[] }).rows),
      ])
    : [[], []]
  const entries = waiting.flatMap((entry) => {
    const item = items.get(`${entry.kind}:${entry.itemId}`)
    if (!item) return []
    return [
      {
        kind: entry.kind,
        itemId: entry.itemId,
        reports: entry.reports,
        reasons: entry.reasons,
        notes: entry.notes,
        messages: (typeof entry.contexts === 'string' ? (JSON.parse(entry.contexts) as ReportedMessages[]) : entry.contexts) ?? [],
        since: new Date(entry.since),
        review: entry.reports === 0,
        text: item.text,
        link: linkOf(entry.kind, item),
        hidden: Boolean(item.hiddenAt),
        author: authors.find((author) => author.userId === item.userId) ?? null,
        history: history
          .filter((decision) => decision.userId === item.userId)
          .map(({ action, reason, createdAt }) => ({ action, reason, createdAt: new Date(createdAt) })),
      },
    ]
  })
  const last = waiting.at(-1)
  return { entries, next: rows.length > QUEUE_SIZE && last ? `${last.micros}_${last.itemId}` : null }
}

/** The accounts under a suspension still running or an expulsion, a page after the user id `after` (a partial index reads them). */
export function restrictedQuery(after: string | null = null) {
  return getDb()
    .select({
      userId: profiles.userId,
      ...publicProfileColumns,
      suspendedUntil: profiles.suspendedUntil,
      bannedAt: profiles.bannedAt,
      reason: profiles.suspensionReason,
    })
    .from(profiles)
    .where(
      and(
        sql`(${profiles.suspendedUntil} is not null or ${profiles.bannedAt} is not null)`,
        or(isNotNull(profiles.bannedAt), sql`${profiles.suspendedUntil} > now()`),
        after ? gt(profiles.userId, after) : undefined,
      ),
    )
    .orderBy(profiles.userId)
    .limit(QUEUE_SIZE + 1)
}

/** 'Cuentas limitadas', for 'Levantar': a page, and where the next starts. */
export async function listRestricted(after: string | null = null) {
  const rows = await restrictedQuery(after)
  const members = rows.slice(0, QUEUE_SIZE)
  return { members, next: rows.length > QUEUE_SIZE ? members.at(-1)!.userId : null }
}

/** Staff are not warned, suspended or expelled from the queue: that is a change of role, an admin's. */
async function refuseStaff(tx: DbExecutor, userId: string) {
  const [staff] = await tx
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), inArray(userRoles.role, ['moderator', 'admin'])))
  if (staff) refuse(403, MODERATION_MESSAGES.staff)
}

const daysOf = (days: number) => (days === 1 ? '1 día' : `${days} días`)

/** What the member reads, in the bell (when they can still open it) and by e-mail. */
function noticeOf(action: 'warn' | 'suspend' | 'ban', reason: string, days: number | null, until: Date | null) {
  if (action === 'warn') {
    return {
      title: 'Un aviso del equipo de moderación',
      paragraphs: [
        `El equipo de moderación te envía este aviso: ${reason}`,
        'Puedes seguir participando con normalidad. Si crees que es un error, escríbenos.',
      ],
    }
  }
  if (action === 'suspend') {
    return {
      title: 'Tu cuenta está en modo lectura',
      paragraphs: [
        `Durante ${daysOf(days!)} podrás leer la comunidad, pero no publicar, comentar ni dar like (hasta el ${fullDateTime(until!)}). Motivo: ${reason}`,
        'Si crees que es un error, escríbenos.',
      ],
    }
  }
  return {
    title: 'Ya no tienes acceso a la comunidad',
    paragraphs: [
      `El equipo de la comunidad ha cerrado tu acceso. Motivo: ${reason}`,
      'Si tienes una suscripción, no cambia por esto: escríbenos si quieres cancelarla. Si crees que es un error, escríbenos también.',
    ],
  }
}

/**
 * About a member, from the queue: 'Advertir' (a message, moderators and admins), 'Suspender'
 * (read-only for 1, 7 or 30 days, the reason shown on every refused action), 'Expulsar' (admins:
 * every session ends and no sign-in opens another, auth.server.ts; premium left to the admin's
 * billing decision), 'Levantar' (undoes either) and, for a reported member, 'Descartar el
 * informe'. Each is a decision in the member's history; warning, suspending and expelling close
 * the reports about the member and reach them by e-mail too. Each takes the member's row first and
 * decides on the state it finds there: of two decisions at once the second sees the first (a
 * second suspension, or one after an expulsion, is refused; a lift finds an expulsion racing it).
 */
export async function decideOnMember(
  moderator: CurrentUser,
  input: { userId: string; action: 'warn' | 'suspend' | 'ban' | 'lift' | 'dismiss'; days?: number | null; reason?: string | null },
) {
  const { action, userId } = input
  const reason = input.reason?.trim() || null
  if ((action === 'warn' || action === 'suspend' || action === 'ban') && !reason) refuse(400, MODERATION_MESSAGES.reasonRequired)
  if (action === 'ban') requireCapability(moderator, 'ban-members', 'Solo un administrador puede expulsar a un miembro')
  // The schema allows only SUSPENSION_DAYS; a suspension must name one of them.
  const days = action === 'suspend' ? (input.days ?? refuse(400, 'Elige 1, 7 o 30 días')) : null
  // Until when, worked out once: the e-mail says what the profile keeps, whatever the clocks do meanwhile.
  const until = days ? new Date(Date.now() + days * 24 * 60 * 60 * 1000) : null
  const db = getDb()
  const [account] = await db
    .select({ ...recipientColumns, ...publicProfileColumns })
    .from(user)
    .innerJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId))
  if (!account) refuse(404, 'Miembro no encontrado')
  // Rendered before the transaction opens (mail.server.ts).
  const notice = action === 'warn' || action === 'suspend' || action === 'ban' ? noticeOf(action, reason!, days, until) : null
  const mail = notice
    ? await renderMail({
        to: account.email,
        subject: notice.title,
        email: createElement(NoticeEmail, { title: notice.title, firstName: account.firstName, paragraphs: notice.paragraphs }),
      })
    : null
  await db.transaction(async (tx) => {
    if (action !== 'dismiss') await refuseStaff(tx, userId)
    const [state] = await tx
      .select({ bannedAt: profiles.bannedAt, suspendedUntil: profiles.suspendedUntil })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .for('update')
    if (!state) refuse(404, 'Miembro no encontrado')
    const suspended = (state.suspendedUntil?.getTime() ?? 0) > Date.now()
    if (action === 'lift' && state.bannedAt) {
      requireCapability(moderator, 'ban-members', 'Solo un administrador puede readmitir a un miembro expulsado')
    }
    // Already decided: an expelled member is not warned, suspended or expelled again, a running
    // suspension is not stacked, and a lift needs something to lift.
    const decided =
      action === 'lift'
        ? !state.bannedAt && !suspended
        : action !== 'dismiss' && Boolean(state.bannedAt || (action === 'suspend' && suspended))
    if (decided) refuse(409, MODERATION_MESSAGES.memberTaken)
    if (action === 'suspend' || action === 'ban' || action === 'lift') {
      const set =
        action === 'suspend'
          ? { suspendedUntil: until, suspensionReason: reason }
          : action === 'ban'
            ? { bannedAt: sql`now()`, suspensionReason: reason }
            : { suspendedUntil: null, bannedAt: null, suspensionReason: null }
      await tx.update(profiles).set(set).where(eq(profiles.userId, userId))
    }
    if (action === 'ban') await tx.delete(session).where(eq(session.userId, userId))
    const closing = action === 'lift' ? [] : await closeReports(tx, 'member', userId, action === 'dismiss' ? 'dismissed' : 'actioned')
    if (action === 'dismiss' && closing.length === 0) refuse(409, MODERATION_MESSAGES.taken)
    await tx.insert(moderationDecisions).values({ kind: 'member', itemId: userId, userId, decidedBy: moderator.id, action, reason })
    await recordAudit(
      { action: AUDITED[action], actorUserId: moderator.id, targetUserId: userId, details: { days, reason, reports: closing.length } },
      tx,
    )
    if (action !== 'lift') await tellReporters(tx, closing, `el perfil de ${displayName(account)}`, action, userId)
    if (notice && action !== 'ban') {
      await notifyInTransaction(tx, {
        recipientId: userId,
        actorId: null,
        type: 'moderation_decision',
        title: notice.title,
        message: notice.paragraphs[0]!,
      })
    }
    if (mail) await enqueueRenderedMail(mail, tx)
  })
  const title = {
    warn: MODERATION_MESSAGES.warned,
    suspend: MODERATION_MESSAGES.suspended,
    ban: MODERATION_MESSAGES.banDone,
    lift: MODERATION_MESSAGES.lifted,
    dismiss: MODERATION_MESSAGES.dismissed,
  }[action]
  return redirectWithToast('/admin/moderacion', { type: 'success', title })
}
