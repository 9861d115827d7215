import { eq, inArray, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { ceoSessionComments, ceoSessionLikes, ceoSessions } from './schema'

export const ceoSessionsData: MemberDataPart = {
  tables: {
    ceo_session_likes: { section: 'sesiones_ceo_likes' },
    ceo_session_comments: { section: 'sesiones_ceo_comentarios' },
    ceo_session_progress: { section: 'sesiones_ceo_progreso' },
    ceo_sessions: { not: 'sessions created by staff as part of their work for the community, not their personal data' },
    ceo_session_video_uploads: { not: 'upload progress of a staff member, deleted when the upload ends' },
  },
  sections: {
    sesiones_ceo_likes: (id) => sql`select session_id, created_at from ceo_session_likes where user_id = ${id} order by created_at`,
    sesiones_ceo_comentarios: (
      id,
    ) => sql`select id, session_id, parent_comment_id, content, created_at, updated_at, hidden_at, hidden_reason,
      review_requested_at from ceo_session_comments where user_id = ${id} order by created_at`,
    sesiones_ceo_progreso: (id) => sql`select session_id, position_seconds, updated_at from ceo_session_progress where user_id = ${id}`,
  },
  async erase(tx, { id, writing }) {
    await tx.execute(sql`update ${ceoSessions} set like_count = greatest(like_count - 1, 0)
      where id in (select session_id from ${ceoSessionLikes} where user_id = ${id})`)
    if (writing === 'keep') return
    // Their comments take the replies to them; each session's counter is counted again.
    const sessions = await tx
      .delete(ceoSessionComments)
      .where(eq(ceoSessionComments.userId, id))
      .returning({ id: ceoSessionComments.sessionId })
    if (sessions.length) {
      await tx
        .update(ceoSessions)
        .set({
          commentCount: sql`(select count(*) from ${ceoSessionComments} c where c.session_id = ${ceoSessions.id} and c.hidden_at is null)`,
        })
        .where(inArray(ceoSessions.id, [...new Set(sessions.map((session) => session.id))]))
    }
  },
}
