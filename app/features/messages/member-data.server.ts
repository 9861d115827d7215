import { and, eq, isNull, or, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { conversations, messages } from './schema'

/**
 * What messages hold of a member (decisions/0028, 0032). The export has the conversations they took
 * part in, each message marked as theirs or not; the other person appears only as their name as
 * it shows in the conversation (never their id or e-mail), and no third party ever appears. The
 * deletion keeps, by default, what they wrote for the other person to read as 'Miembro eliminado'
 * (their side and sender id go null by foreign key); when they delete everything their messages go,
 * and a conversation nobody is left in goes with them.
 */
export const messagesData: MemberDataPart = {
  tables: {
    conversations: { section: 'conversaciones' },
    messages: { section: 'mensajes' },
    message_blocks: { section: 'miembros_bloqueados' },
    message_preferences: { section: 'preferencias_de_mensajes' },
  },
  sections: {
    conversaciones: (id) => sql`select c.id, c.state, c.created_at, c.started_by = ${id} as started_by_me,
        case when o.user_id is null then 'Miembro eliminado'
          else coalesce(nullif(trim(o.display_name), ''), nullif(trim(concat_ws(' ', o.first_name, o.last_name)), ''), 'Usuario') end as with_name
      from conversations c
      left join profiles o on o.user_id = case when c.user_a = ${id} then c.user_b else c.user_a end
      where c.user_a = ${id} or c.user_b = ${id}
      order by c.created_at`,
    mensajes: (id) => sql`select m.conversation_id, m.sender_id = ${id} as mine, m.body, m.created_at
      from messages m join conversations c on c.id = m.conversation_id
      where c.user_a = ${id} or c.user_b = ${id}
      order by m.conversation_id, m.created_at`,
    // Whom they blocked is another member: when, not who (only a conversation shows the other's name).
    miembros_bloqueados: (id) => sql`select created_at from message_blocks where user_id = ${id} order by created_at`,
    preferencias_de_mensajes: (id) => sql`select policy, updated_at from message_preferences where user_id = ${id}`,
  },
  async erase(tx, { id, writing }) {
    if (writing === 'delete') {
      // The other member's unread messages in these conversations were theirs: they leave that count.
      await tx.execute(sql`update profiles p set unread_messages = greatest(0, p.unread_messages - x.unread)
        from (select case when c.user_a = ${id} then c.user_b else c.user_a end as other_id,
                case when c.user_a = ${id} then c.b_unread else c.a_unread end as unread
              from conversations c where c.user_a = ${id} or c.user_b = ${id}) x
        where p.user_id = x.other_id and x.unread > 0`)
      await tx.delete(messages).where(eq(messages.senderId, id))
      await tx.execute(sql`update conversations c set a_unread = 0, b_unread = 0,
          last_message_id = (select m.id from messages m where m.conversation_id = c.id order by m.created_at desc, m.id desc limit 1)
        where c.user_a = ${id} or c.user_b = ${id}`)
    }
    // A conversation whose other member is already gone is nobody's any more.
    await tx
      .delete(conversations)
      .where(
        or(and(eq(conversations.userA, id), isNull(conversations.userB)), and(eq(conversations.userB, id), isNull(conversations.userA))),
      )
  },
}
