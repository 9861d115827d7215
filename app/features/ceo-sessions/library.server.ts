import { and, desc, eq, gt, gte, lt, ne, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { profiles } from '~/features/account/schema'
import { displayName } from '~/features/account/display-name'
import type { CurrentUser } from '~/features/account/guards.server'
import { can } from '~/platform/auth/capabilities'
import { getDb } from '~/platform/db/client.server'
import { DEFAULT_TIME_ZONE } from '~/platform/dates'
import { dateCursor } from '~/platform/http/query'
import { signedUploadUrl } from '~/platform/storage/signed-url.server'
import { ceoSessionDailyViews, ceoSessionLikes, ceoSessionProgress, ceoSessions } from './schema'
import { findSession, searchTextOf } from './sessions.server'

/** Cards per page of the library (issue 38: 12, the next ones appended as the member scrolls). */
export const LIBRARY_PAGE_SIZE = 12

/** Who spoke, when and about what: what a card and the edit dialog both show. */
const aboutColumns = {
  id: ceoSessions.id,
  title: ceoSessions.title,
  ceoName: ceoSessions.ceoName,
  ceoPosition: ceoSessions.ceoPosition,
  ceoCompany: ceoSessions.ceoCompany,
  sessionDate: ceoSessions.sessionDate,
  durationMinutes: ceoSessions.durationMinutes,
  tags: ceoSessions.tags,
  isFeatured: ceoSessions.isFeatured,
}

const cardColumns = {
  ...aboutColumns,
  thumbnailKey: ceoSessions.thumbnailKey,
  pdfKey: ceoSessions.pdfKey,
  viewCount: ceoSessions.viewCount,
  likeCount: ceoSessions.likeCount,
  commentCount: ceoSessions.commentCount,
  createdBy: ceoSessions.createdBy,
  publishedAt: ceoSessions.publishedAt,
}

type CardRow = Awaited<ReturnType<typeof listLibrary>>['sessions'][number]

/** What a card shows, with what this viewer may do with it. */
export function toCardView(row: CardRow, viewer: Pick<CurrentUser, 'id' | 'roles'>) {
  return {
    id: row.id,
    title: row.title,
    ceoName: row.ceoName,
    ceoPosition: row.ceoPosition,
    ceoCompany: row.ceoCompany,
    sessionDate: row.sessionDate.toISOString(),
    durationMinutes: row.durationMinutes,
    tags: row.tags,
    isFeatured: row.isFeatured,
    thumbnailUrl: row.thumbnailKey ? signedUploadUrl(row.thumbnailKey, 'miniatura.webp') : null,
    hasPdf: Boolean(row.pdfKey),
    viewCount: row.viewCount,
    likeCount: row.likeCount,
    commentCount: row.commentCount,
    canManage: row.createdBy === viewer.id || can(viewer, 'manage-sessions'),
  }
}
export type SessionCardView = ReturnType<typeof toCardView>

/** The search as the model stores it: lower case, without accents. */
export function normalizeSearch(query: string) {
  return searchTextOf({ title: query, summary: '', description: '', ceoName: '', ceoCompany: '', tags: [] }).trim()
}

/**
 * Published sessions, newest session first (spec 001 §7), optionally only those whose title, CEO,
 * company, texts or tags contain every word searched, accents and case aside. One query.
 */
export async function listLibrary({
  search,
  cursor,
  limit = LIBRARY_PAGE_SIZE,
}: {
  search: string
  cursor: string | null
  limit?: number
}) {
  const after = dateCursor.decode(cursor)
  const words = normalizeSearch(search).split(/\s+/).filter(Boolean).slice(0, 8)
  const rows = await getDb()
    .select(cardColumns)
    .from(ceoSessions)
    .where(
      and(
        eq(ceoSessions.publicationStatus, 'published'),
        after
          ? or(lt(ceoSessions.sessionDate, after.date), and(eq(ceoSessions.sessionDate, after.date), lt(ceoSessions.id, after.id)))
          : undefined,
        ...words.map((word) => sql`${ceoSessions.searchText} like ${`%${word.replace(/[\\%_]/g, '\\$&')}%`}`),
      ),
    )
    .orderBy(desc(ceoSessions.sessionDate), desc(ceoSessions.id))
    .limit(limit + 1)
  const shown = rows.slice(0, limit)
  const last = shown.at(-1)
  return { sessions: shown, nextCursor: rows.length > limit && last ? dateCursor.encode(last.sessionDate, last.id) : null }
}

/**
 * 'Mis sesiones en proceso': the creator's sessions not yet published, and those published in
 * the last day (so the creator sees 'Publicada' once processing ends), newest first.
 */
export async function listMyInProcess(userId: string) {
  return getDb()
    .select({
      id: ceoSessions.id,
      title: ceoSessions.title,
      publicationStatus: ceoSessions.publicationStatus,
      uploadStatus: ceoSessions.uploadStatus,
      createdAt: ceoSessions.createdAt,
    })
    .from(ceoSessions)
    .where(
      and(
        eq(ceoSessions.createdBy, userId),
        or(ne(ceoSessions.publicationStatus, 'published'), gt(ceoSessions.publishedAt, sql`now() - interval '1 day'`)),
      ),
    )
    .orderBy(desc(ceoSessions.createdAt))
    .limit(20)
}

/** Sessions the member started and did not finish, most recent first ('Continuar viendo'). */
export async function listContinueWatching(userId: string) {
  const rows = await getDb()
    .select({ ...cardColumns, positionSeconds: ceoSessionProgress.positionSeconds })
    .from(ceoSessionProgress)
    .innerJoin(ceoSessions, eq(ceoSessions.id, ceoSessionProgress.sessionId))
    .where(
      and(eq(ceoSessionProgress.userId, userId), gt(ceoSessionProgress.positionSeconds, 0), eq(ceoSessions.publicationStatus, 'published')),
    )
    .orderBy(desc(ceoSessionProgress.updatedAt))
    .limit(4)
  return rows
}

/** Everything the video page shows of one session, with the viewer's like and saved position. */
export async function getSessionPage(sessionId: string, viewerId: string) {
  const myLike = alias(ceoSessionLikes, 'my_session_like')
  const myProgress = alias(ceoSessionProgress, 'my_progress')
  const [row] = await getDb()
    .select({
      ...cardColumns,
      summary: ceoSessions.summary,
      description: ceoSessions.description,
      pdfName: ceoSessions.pdfName,
      captionsKey: ceoSessions.captionsKey,
      videoKey: ceoSessions.videoKey,
      videoContentType: ceoSessions.videoContentType,
      muxPlaybackId: ceoSessions.muxPlaybackId,
      publicationStatus: ceoSessions.publicationStatus,
      likedByMe: sql<boolean>`${myLike.userId} is not null`,
      positionSeconds: myProgress.positionSeconds,
      creatorFirstName: profiles.firstName,
      creatorLastName: profiles.lastName,
      creatorDisplayName: profiles.displayName,
    })
    .from(ceoSessions)
    .leftJoin(myLike, and(eq(myLike.sessionId, ceoSessions.id), eq(myLike.userId, viewerId)))
    .leftJoin(myProgress, and(eq(myProgress.sessionId, ceoSessions.id), eq(myProgress.userId, viewerId)))
    .leftJoin(profiles, eq(profiles.userId, ceoSessions.createdBy))
    .where(eq(ceoSessions.id, sessionId))
    .limit(1)
  if (!row) return null
  return {
    ...row,
    creatorName: row.creatorFirstName
      ? displayName({ displayName: row.creatorDisplayName, firstName: row.creatorFirstName, lastName: row.creatorLastName })
      : null,
  }
}

/** The fields the edit dialog shows. */
export function getSessionForEdit(sessionId: string) {
  return findSession(sessionId, {
    ...aboutColumns,
    summary: ceoSessions.summary,
    description: ceoSessions.description,
    pdfName: ceoSessions.pdfName,
    hasThumbnail: sql<boolean>`${ceoSessions.thumbnailKey} is not null`,
    hasCaptions: sql<boolean>`${ceoSessions.captionsKey} is not null`,
    createdBy: ceoSessions.createdBy,
    publicationStatus: ceoSessions.publicationStatus,
  })
}

/**
 * Spec 001 §4: +1 per opening, in the database (no read-then-write race). Published sessions only.
 * The same statement counts the opening on its day (community's zone), for the console's periods.
 */
export async function recordView(sessionId: string) {
  const result = (await getDb().execute(sql`
    with viewed as (
      update ${ceoSessions} set view_count = view_count + 1
      where id = ${sessionId} and publication_status = 'published'
      returning id, view_count
    ), daily as (
      insert into ${ceoSessionDailyViews} (session_id, day, views)
      select id, (now() at time zone ${DEFAULT_TIME_ZONE})::date, 1 from viewed
      on conflict (session_id, day) do update set views = ${ceoSessionDailyViews}.views + 1
    )
    select view_count as "viewCount" from viewed`)) as unknown as { rows: Array<{ viewCount: number }> }
  return result.rows[0]?.viewCount ?? null
}

/** Where the member stopped watching; written at most as often as the player reports. */
export async function saveProgress(sessionId: string, userId: string, positionSeconds: number) {
  await getDb()
    .insert(ceoSessionProgress)
    .values({ sessionId, userId, positionSeconds })
    .onConflictDoUpdate({
      target: [ceoSessionProgress.sessionId, ceoSessionProgress.userId],
      set: { positionSeconds, updatedAt: sql`now()` },
    })
}

/** Published sessions, newest first, by title: what an event can name as its recording. */
export async function listPublishedTitles(limit = 100) {
  return getDb()
    .select({ id: ceoSessions.id, title: ceoSessions.title })
    .from(ceoSessions)
    .where(eq(ceoSessions.publicationStatus, 'published'))
    .orderBy(desc(ceoSessions.sessionDate), desc(ceoSessions.id))
    .limit(limit)
}

/** Whether the session exists and is published. */
export async function isPublished(sessionId: string) {
  const [row] = await getDb()
    .select({ id: ceoSessions.id })
    .from(ceoSessions)
    .where(and(eq(ceoSessions.id, sessionId), eq(ceoSessions.publicationStatus, 'published')))
  return Boolean(row)
}

/** For the e-mail digest: sessions published since `since`, newest first. */
export async function listPublishedSince(since: Date, limit: number) {
  return getDb()
    .select({
      id: ceoSessions.id,
      title: ceoSessions.title,
      ceoName: ceoSessions.ceoName,
      ceoCompany: ceoSessions.ceoCompany,
      createdBy: ceoSessions.createdBy,
    })
    .from(ceoSessions)
    .where(and(eq(ceoSessions.publicationStatus, 'published'), gte(ceoSessions.publishedAt, since)))
    .orderBy(desc(ceoSessions.publishedAt))
    .limit(limit)
}
