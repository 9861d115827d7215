import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import { profiles, publicProfileColumns } from '~/features/account/schema'
import { ceoSessionComments, ceoSessions } from '~/features/ceo-sessions/schema'
import { communityComments, communityPosts } from '~/features/feed/schema'
import { notifyInTransaction } from '~/features/notifications/notifications.server'
import { recordAudit } from '~/platform/audit/audit.server'
import type { CurrentUser } from '~/platform/auth/guards.server'
import { session, userRoles } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { refuse, success } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { MODERATION_MESSAGES, REPORT_REASONS, type ReportReason } from './reasons'
import { moderationDecisions, moderationReports } from './schema'

/**
 * Moderation with reasons (issue 28, ADR 0029): members report what they read; moderators and
 * admins decide in the queue (/admin/moderacion) — hide with a reason its author sees, dismiss, or
 * make visible again — and whoever acts second on the same item is told the first one won. The
 * reporter hears what was decided, never who decided it.
 */

export type ItemKind = 'post' | 'comment' | 'session_comment'

/** Each kind of item: its table, and where it is read (the queue links there). */
const ITEMS = {
  post: { table: communityPosts, text: sql<string>`${communityPosts.title} || ' — ' || coalesce(${communityPosts.content}, '')` },
  comment: { table: communityComments, text: sql<string>`${communityComments.content}` },
  session_comment: { table: ceoSessionComments, text: sql<string>`${ceoSessionComments.content}` },
} as const

/** Where an item is read: a post with its comments open, a session's comments. */
function linkOf(kind: ItemKind, item: { id: string; postId?: string | null; sessionId?: string | null }) {
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

const excerpt = (text: string, length = 80) => (text.length > length ? `${text.slice(0, length - 1)}…` : text)

/** Everyone who moderates (moderators and admins) hears of something for the queue, in the bell and by e-mail per their topic. */
async function tellModerators(tx: DbExecutor, title: string, message: string) {
  const staff = await tx
    .selectDistinct({ userId: userRoles.userId })
    .from(userRoles)
    .where(inArray(userRoles.role, ['moderator', 'admin']))
  for (const { userId } of staff) {
    await notifyInTransaction(tx, { recipientId: userId, actorId: null, type: 'moderation_report', title, message })
  }
}

/** A member reports an item: one open report per member and item; moderators hear of it. */
export async function reportItem(
  member: CurrentUser,
  input: { kind: ItemKind; itemId: string; reason: ReportReason; note?: string | null },
) {
  await enforceRateLimits([{ key: `report:${member.id}`, max: 10, windowSeconds: 60 * 60 }])
  const db = getDb()
  const item = await findItem(db, input.kind, input.itemId)
  if (!item || item.hiddenAt) refuse(404, MODERATION_MESSAGES.gone)
  if (item.userId === member.id) refuse(400, MODERATION_MESSAGES.own)
  const reported = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(moderationReports)
      .values({ userId: member.id, kind: input.kind, itemId: item.id, reason: input.reason, note: input.note || null })
      .onConflictDoNothing()
      .returning({ id: moderationReports.id })
    if (!row) return false
    await tellModerators(tx, 'Nuevo informe', `${REPORT_REASONS[input.reason]}: «${excerpt(item.text)}»`)
    return true
  })
  if (!reported) refuse(409, MODERATION_MESSAGES.already)
  return success({ reported: true }, { title: MODERATION_MESSAGES.received })
}

/** The author asks for a second look at their hidden item (after editing it, or as it is). */
export async function requestReview(member: CurrentUser, kind: ItemKind, itemId: string) {
  await enforceRateLimits([{ key: `review:${member.id}`, max: 10, windowSeconds: 60 * 60 }])
  const { table } = ITEMS[kind]
  const asked = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(table)
      .set({ reviewRequestedAt: sql`now()` })
      .where(and(eq(table.id, itemId), eq(table.userId, member.id), isNotNull(table.hiddenAt), isNull(table.reviewRequestedAt)))
      .returning({ id: table.id })
    if (!row) return false
    await tellModerators(tx, 'Revisión pedida', 'El autor de un contenido oculto pide que se revise de nuevo.')
    return true
  })
  if (!asked) refuse(409, MODERATION_MESSAGES.gone)
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

const OUTCOME = {
  hide: 'lo hemos ocultado',
  dismiss: 'no infringe las normas de la comunidad, así que sigue visible',
} as const

/**
 * A moderator's decision on an item. 'hide' (with the reason its author sees) and 'dismiss' close
 * the item's open reports; 'hide' on a hidden item whose author asked for a review keeps it
 * hidden with the new reason; 'restore' shows a hidden item again. Each is conditional on what
 * the moderator saw: of two at once, one wins and the other gets 409.
 */
export async function decide(
  moderator: CurrentUser,
  input: { kind: ItemKind; itemId: string; action: 'hide' | 'dismiss' | 'restore'; reason?: string | null },
) {
  const { table } = ITEMS[input.kind]
  const reason = input.reason?.trim() || null
  if (input.action === 'hide' && !reason) refuse(400, MODERATION_MESSAGES.reasonRequired)
  const outcome = await getDb().transaction(async (tx) => {
    const item = await findItem(tx, input.kind, input.itemId, { lock: true })
    if (!item) return 'gone' as const
    const closing =
      input.action === 'restore' ? [] : await closeReports(tx, input.kind, item.id, input.action === 'hide' ? 'actioned' : 'dismissed')
    const reviewing = Boolean(item.hiddenAt && item.reviewRequestedAt)
    if (input.action === 'hide') {
      if (item.hiddenAt && !reviewing) return 'taken' as const
      if (!item.hiddenAt && closing.length === 0) return 'taken' as const
      await tx
        .update(table)
        .set({ hiddenAt: item.hiddenAt ?? sql`now()`, hiddenReason: reason, reviewRequestedAt: null })
        .where(eq(table.id, item.id))
      if (!item.hiddenAt) await moveCounter(tx, input.kind, item, -1)
    } else if (input.action === 'dismiss') {
      if (closing.length === 0) return 'taken' as const
    } else {
      if (!item.hiddenAt) return 'taken' as const
      await tx.update(table).set({ hiddenAt: null, hiddenReason: null, reviewRequestedAt: null }).where(eq(table.id, item.id))
      await moveCounter(tx, input.kind, item, 1)
    }
    await tx
      .insert(moderationDecisions)
      .values({ kind: input.kind, itemId: item.id, userId: item.userId, decidedBy: moderator.id, action: input.action, reason })
    await recordAudit(
      {
        action: input.action === 'hide' ? 'content_hidden' : input.action === 'dismiss' ? 'report_dismissed' : 'content_restored',
        actorUserId: moderator.id,
        targetUserId: item.userId,
        details: { kind: input.kind, itemId: item.id, reason, reports: closing.length },
      },
      tx,
    )
    const what = `«${excerpt(item.text, 60)}»`
    for (const reporterId of new Set(closing)) {
      await notifyInTransaction(tx, {
        recipientId: reporterId,
        actorId: null,
        type: 'moderation_outcome',
        title: 'Hemos revisado tu informe',
        message: `Sobre ${what}: ${OUTCOME[input.action as 'hide' | 'dismiss']}. Gracias por avisarnos.`,
      })
    }
    if (input.action !== 'dismiss') {
      await notifyInTransaction(tx, {
        recipientId: item.userId,
        actorId: null,
        type: 'moderation_hidden',
        title: input.action === 'hide' ? 'Hemos ocultado un contenido tuyo' : 'Tu contenido vuelve a estar visible',
        message: input.action === 'hide' ? `${what}: ${reason}` : `${what} vuelve a verse en la comunidad.`,
        ...(input.kind === 'post' ? { postId: item.id } : item.postId ? { postId: item.postId } : {}),
      })
    }
    return 'done' as const
  })
  if (outcome === 'gone') refuse(404, MODERATION_MESSAGES.gone)
  if (outcome === 'taken') refuse(409, MODERATION_MESSAGES.taken)
  const title = { hide: MODERATION_MESSAGES.hidden, dismiss: MODERATION_MESSAGES.dismissed, restore: MODERATION_MESSAGES.restored }[
    input.action
  ]
  // Back to the queue, which no longer lists what was decided.
  return redirectWithToast('/admin/moderacion', { type: 'success', title })
}

/** Closes the item's open reports; returns their reporters (none: someone decided first). */
async function closeReports(tx: DbExecutor, kind: ItemKind, itemId: string, status: 'actioned' | 'dismissed') {
  const closed = await tx
    .update(moderationReports)
    .set({ status, closedAt: sql`now()` })
    .where(and(eq(moderationReports.kind, kind), eq(moderationReports.itemId, itemId), eq(moderationReports.status, 'open')))
    .returning({ reporterId: moderationReports.userId })
  return closed.map((row) => row.reporterId)
}

export const QUEUE_SIZE = 25

/**
 * The queue: items with open reports (grouped: how many, which reasons, the notes), oldest report
 * first, then hidden items whose author asked for a review; each with its text, author, where it
 * is read, and the author's earlier decisions.
 */
export async function listQueue() {
  const db = getDb()
  const groups = await db
    .select({
      kind: moderationReports.kind,
      itemId: moderationReports.itemId,
      reports: count(),
      reasons: sql<ReportReason[]>`array_agg(distinct ${moderationReports.reason}::text)`,
      notes: sql<string[]>`coalesce(array_agg(${moderationReports.note}) filter (where ${moderationReports.note} is not null), '{}')`,
      firstAt: sql<Date>`min(${moderationReports.createdAt})`.mapWith((value) => new Date(value)),
    })
    .from(moderationReports)
    .where(eq(moderationReports.status, 'open'))
    .groupBy(moderationReports.kind, moderationReports.itemId)
    .orderBy(asc(sql`min(${moderationReports.createdAt})`))
    .limit(QUEUE_SIZE)
  const reviews = await Promise.all(
    (Object.keys(ITEMS) as ItemKind[]).map(async (kind) => {
      const { table } = ITEMS[kind]
      const rows = await db
        .select({ id: table.id })
        .from(table)
        .where(and(isNotNull(table.hiddenAt), isNotNull(table.reviewRequestedAt)))
        .orderBy(asc(table.reviewRequestedAt))
        .limit(QUEUE_SIZE)
      return rows.map((row) => ({ kind, itemId: row.id }))
    }),
  )
  const entries = [
    ...groups.map((group) => ({ ...group, review: false })),
    ...reviews
      .flat()
      .map((entry) => ({ ...entry, reports: 0, reasons: [] as ReportReason[], notes: [] as string[], firstAt: null, review: true })),
  ]
  const items = new Map<string, NonNullable<Awaited<ReturnType<typeof findItem>>>>()
  for (const kind of Object.keys(ITEMS) as ItemKind[]) {
    const ids = entries.filter((entry) => entry.kind === kind).map((entry) => entry.itemId)
    if (ids.length === 0) continue
    for (const item of await selectItems(db, kind).where(inArray(ITEMS[kind].table.id, ids))) items.set(`${kind}:${item.id}`, item)
  }
  const authorIds = [...new Set([...items.values()].map((item) => item.userId).filter((id): id is string => Boolean(id)))]
  const [authors, history] = authorIds.length
    ? await Promise.all([
        db
          .select({ userId: profiles.userId, ...publicProfileColumns })
          .from(profiles)
          .where(inArray(profiles.userId, authorIds)),
        db
          .select({
            userId: moderationDecisions.userId,
            action: moderationDecisions.action,
            reason: moderationDecisions.reason,
            createdAt: moderationDecisions.createdAt,
          })
          .from(moderationDecisions)
          .where(inArray(moderationDecisions.userId, authorIds))
          .orderBy(desc(moderationDecisions.createdAt)),
      ])
    : [[], []]
  return entries.flatMap((entry) => {
    const item = items.get(`${entry.kind}:${entry.itemId}`)
    if (!item) return []
    return [
      {
        ...entry,
        text: item.text,
        link: linkOf(entry.kind, item),
        hidden: Boolean(item.hiddenAt),
        author: authors.find((author) => author.userId === item.userId) ?? null,
        history: history.filter((decision) => decision.userId === item.userId).slice(0, 5),
      },
    ]
  })
}

/** Staff are not suspended or expelled from the queue: that is a change of role, an admin's. */
async function refuseStaff(tx: DbExecutor, userId: string) {
  const [staff] = await tx
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), inArray(userRoles.role, ['moderator', 'admin'])))
  if (staff) refuse(403, MODERATION_MESSAGES.staff)
}

/**
 * 'Suspender' (moderators and admins): read-only for 1, 7 or 30 days, with the reason the member
 * is shown on every refused action; 'Expulsar' (admins): every session ends and no sign-in opens
 * another (auth.server.ts), premium left to the admin's billing decision; 'Levantar' undoes either.
 */
export async function decideOnMember(
  moderator: CurrentUser,
  input: { userId: string; action: 'suspend' | 'ban' | 'lift'; days?: number | null; reason?: string | null },
) {
  const reason = input.reason?.trim() || null
  if (input.action !== 'lift' && !reason) refuse(400, MODERATION_MESSAGES.reasonRequired)
  if (input.action === 'ban' && !moderator.isAdmin) refuse(403, 'Solo un administrador puede expulsar a un miembro')
  // The schema allows only SUSPENSION_DAYS; a suspension must name one of them.
  const days = input.action === 'suspend' ? (input.days ?? refuse(400, 'Elige 1, 7 o 30 días')) : null
  await getDb().transaction(async (tx) => {
    await refuseStaff(tx, input.userId)
    const set =
      input.action === 'suspend'
        ? { suspendedUntil: sql`now() + ${`${days} days`}::interval`, suspensionReason: reason }
        : input.action === 'ban'
          ? { bannedAt: sql`now()`, suspensionReason: reason }
          : { suspendedUntil: null, bannedAt: null, suspensionReason: null }
    const [changed] = await tx.update(profiles).set(set).where(eq(profiles.userId, input.userId)).returning({ userId: profiles.userId })
    if (!changed) refuse(404, 'Miembro no encontrado')
    if (input.action === 'ban') await tx.delete(session).where(eq(session.userId, input.userId))
    await recordAudit(
      {
        action: input.action === 'suspend' ? 'member_suspended' : input.action === 'ban' ? 'member_banned' : 'member_reinstated',
        actorUserId: moderator.id,
        targetUserId: input.userId,
        details: { days, reason },
      },
      tx,
    )
    if (input.action === 'suspend') {
      await notifyInTransaction(tx, {
        recipientId: input.userId,
        actorId: null,
        type: 'moderation_hidden',
        title: 'Tu cuenta está en modo lectura',
        message: `Durante ${days === 1 ? '1 día' : `${days} días`} podrás leer la comunidad, pero no publicar, comentar ni dar like. Motivo: ${reason}`,
      })
    }
  })
  const title = { suspend: MODERATION_MESSAGES.suspended, ban: MODERATION_MESSAGES.banDone, lift: MODERATION_MESSAGES.lifted }[input.action]
  return redirectWithToast('/admin/moderacion', { type: 'success', title })
}
