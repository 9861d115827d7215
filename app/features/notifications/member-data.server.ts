import { eq, inArray, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { type notificationTypeEnum, notifications } from './schema'

/**
 * The kinds whose words name nobody but the member (a session, an event, a decision about what they
 * wrote). The others name whoever liked, commented, applied or was reported: those keep their kind,
 * title, time and link, without the words.
 */
const NAMING_NOBODY: Array<(typeof notificationTypeEnum.enumValues)[number]> = [
  'new_session',
  'session_published',
  'session_failed',
  'new_event',
  'event_spot',
  'event_reminder',
  'moderation_decision',
]

export const notificationsData: MemberDataPart = {
  tables: {
    notifications: { section: 'notificaciones' },
    notification_settings: { section: 'preferencias_de_notificacion' },
  },
  sections: {
    notificaciones: (id) => sql`select type, title, case when ${inArray(notifications.type, NAMING_NOBODY)} then message end as message,
      is_read, created_at, related_post_id, related_comment_id, related_session_id, related_event_id
      from notifications where user_id = ${id} order by created_at`,
    preferencias_de_notificacion: (
      id,
    ) => sql`select comments, replies, likes, sessions, events, my_events, admissions, reports, messages, digest,
      time_zone, quiet_start, quiet_end, digest_sent_at, updated_at from notification_settings where user_id = ${id}`,
  },
  // 'A Marta le gusta tu post': the words name them, so what their actions caused goes.
  async erase(tx, { id }) {
    await tx.delete(notifications).where(eq(notifications.actorUserId, id))
  },
}
