import { can, type Capability } from '~/platform/auth/capabilities'
import type { Role } from '~/platform/auth/schema'
import type { notificationSettings, notifications } from './schema'

type NotificationType = (typeof notifications.$inferSelect)['type']
export type Channel = (typeof notificationSettings.$inferSelect)['comments']
export type DigestFrequency = (typeof notificationSettings.$inferSelect)['digest']

/** What a member chooses for each topic (issues 14 and 42), in the words of the /perfil form, in its order. */
export const CHANNEL_LABELS: Record<Channel, string> = {
  web: 'Solo en la web',
  email: 'En la web y por email',
  push: 'En la web y por notificación push',
  all: 'En la web, por email y por notificación push',
  off: 'Nada',
}

/** The choices that e-mail the topic, and those that push it (to every device the member turned push on). */
export const byEmail = (channel: Channel | null | undefined) => channel === 'email' || channel === 'all'
export const byPush = (channel: Channel | null | undefined) => channel === 'push' || channel === 'all'

export const DIGEST_LABELS: Record<DigestFrequency, string> = {
  never: 'Nunca',
  daily: 'Diario',
  weekly: 'Semanal',
}

/**
 * The topics a member sets, each a column of notification_settings, and the notification types
 * each covers. A type in no topic ('other') always reaches the bell and never e-mail.
 */
export const TOPICS = [
  { key: 'comments', label: 'Comentarios en mis publicaciones y sesiones', types: ['comment', 'session_comment'] },
  { key: 'replies', label: 'Respuestas a mis comentarios', types: ['comment_reply', 'session_comment_reply'] },
  { key: 'likes', label: 'Me gusta en mis publicaciones y comentarios', types: ['like', 'comment_like'] },
  { key: 'sessions', label: 'Nuevas sesiones CEO', types: ['new_session'] },
  { key: 'events', label: 'Nuevos eventos', types: ['new_event'] },
  { key: 'myEvents', label: 'Mis eventos: recordatorios y plazas liberadas', types: ['event_spot', 'event_reminder'] },
  { key: 'admissions', label: 'Nuevas solicitudes de admisión', types: ['admission_application'], only: 'manage-members' },
  { key: 'reports', label: 'Nuevos informes de moderación', types: ['moderation_report'], only: 'moderate-content' },
  // No notification type: private messages live in /mensajes, never in the bell. This topic says
  // whether they come by e-mail (issue 41, messages/email.server.ts) and by push (issue 42,
  // messages/push.server.ts, which never puts a message's words in a push).
  { key: 'messages', label: 'Mensajes privados', types: [] },
] as const satisfies ReadonlyArray<{
  key: string
  label: string
  types: readonly NotificationType[]
  only?: Capability
}>

/** The choices /perfil offers for every topic, in order. */
export const CHANNELS = Object.keys(CHANNEL_LABELS) as Channel[]

/** The topics a member sees in /perfil: a staff topic (new applications, new reports) only to whom it concerns. */
export const topicsFor = (user: { roles: readonly Role[] }) => TOPICS.filter((topic) => !('only' in topic) || can(user, topic.only))

export type Topic = (typeof TOPICS)[number]['key']

/** What a one-click unsubscribe link turns off: a topic's e-mail, or the digest. */
export type MailingList = Topic | 'digest'

export function topicOf(type: NotificationType): Topic | null {
  return TOPICS.find((topic) => (topic.types as readonly string[]).includes(type))?.key ?? null
}

export function listLabel(list: MailingList) {
  return list === 'digest' ? 'El resumen de la comunidad' : TOPICS.find((topic) => topic.key === list)!.label
}
