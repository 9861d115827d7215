import { sql } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { getDb } from '~/platform/db/client.server'
import { MESSAGES, PAGE_SIZE } from './limits'
import type { ConversationRow } from './pairs.server'

/*
 * What /mensajes and a conversation page read (decisions/0032): one statement per page each, through
 * one index per list (the member's side of conversations, newest first; a conversation's messages,
 * newest first, in keyset pages), never a count of a whole table.
 */

export interface ConversationItem {
  id: string
  other: { id: string | null; name: string; avatarUrl: string | null }
  lastLine: string | null
  lastMessageAt: Date
  unread: number
  /** A request to this member, waiting for 'Aceptar' or 'Ignorar'. */
  isRequest: boolean
  /** This member's request, not accepted yet ('Pendiente'; an ignored one looks the same). */
  isPending: boolean
}

/** A position in a list: the time in microseconds and the id, so equal times never skip a row. */
export function encodeCursor(at: string, id: string) {
  return `${at}_${id}`
}

export function decodeCursor(value: string | null) {
  const match = value?.match(/^(\d{1,17})_([0-9a-f-]{36})$/i)
  return match ? { micros: match[1]!, id: match[2]! } : null
}

/** A time in microseconds since the epoch, exactly (a double would round the last digits). */
const fromMicros = (micros: string) => sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`

interface ListRow extends Record<string, unknown> {
  id: string
  other_id: string | null
  first_name: string | null
  last_name: string | null
  display_name: string | null
  avatar_url: string | null
  last_line: string | null
  last_message_at: Date | string
  at_micros: string
  unread: number
  state: 'request' | 'accepted' | 'ignored'
  started_by: string | null
}

/**
 * The member's conversations, newest first: two ordered branches (their id as user_a, as user_b),
 * each through its index, merged and cut to one page. Left out: ignored requests to them and
 * conversations with someone they blocked.
 */
export async function listConversations(userId: string, cursor: ReturnType<typeof decodeCursor> = null) {
  const after = cursor ? sql`and (c.last_message_at, c.id) < (${fromMicros(cursor.micros)}, ${cursor.id}::uuid)` : sql``
  const branch = (mine: 'user_a' | 'user_b', theirs: 'user_a' | 'user_b', unread: 'a_unread' | 'b_unread') => sql`
    (select c.id, c.${sql.raw(theirs)} as other_id, c.${sql.raw(unread)} as unread, c.state, c.started_by,
        c.last_message_at, c.last_message_id
      from conversations c
      where c.${sql.raw(mine)} = ${userId} ${after}
        and not (c.state = 'ignored' and c.started_by is distinct from ${userId})
        and not exists (select 1 from message_blocks b where b.user_id = ${userId} and b.blocked_id = c.${sql.raw(theirs)})
      order by c.last_message_at desc, c.id desc
      limit ${PAGE_SIZE + 1})`
  const result = await getDb().execute<ListRow>(sql`
    select l.id, l.other_id, l.unread, l.state, l.started_by, l.last_message_at,
      (extract(epoch from l.last_message_at) * 1000000)::bigint::text as at_micros,
      p.first_name, p.last_name, p.display_name, p.avatar_url,
      left(m.body, 140) as last_line
    from (${branch('user_a', 'user_b', 'a_unread')} union all ${branch('user_b', 'user_a', 'b_unread')}) l
    left join profiles p on p.user_id = l.other_id
    left join messages m on m.id = l.last_message_id
    order by l.last_message_at desc, l.id desc
    limit ${PAGE_SIZE + 1}`)
  const rows = result.rows
  const page = rows.slice(0, PAGE_SIZE)
  const last = page.at(-1)
  return {
    items: page.map((row): ConversationItem => ({
      id: row.id,
      other: {
        id: row.other_id,
        name: row.other_id
          ? displayName({ firstName: row.first_name, lastName: row.last_name, displayName: row.display_name }, 'Usuario')
          : MESSAGES.deleted,
        avatarUrl: row.other_id ? row.avatar_url : null,
      },
      lastLine: row.last_line,
      lastMessageAt: new Date(row.last_message_at),
      unread: Number(row.unread),
      isRequest: row.state !== 'accepted' && row.started_by !== userId,
      isPending: row.state !== 'accepted' && row.started_by === userId,
    })),
    next: rows.length > PAGE_SIZE && last ? encodeCursor(last.at_micros, last.id) : null,
  }
}

export interface MessageView {
  id: string
  mine: boolean
  body: string
  createdAt: Date
}

interface MessageRow extends Record<string, unknown> {
  id: string
  sender_id: string | null
  body: string
  created_at: Date | string
  at_micros: string
}

/** One page of a conversation, newest first from the cursor, returned oldest first for reading. */
export async function listMessages(conversationId: string, viewerId: string, cursor: ReturnType<typeof decodeCursor> = null) {
  const before = cursor ? sql`and (created_at, id) < (${fromMicros(cursor.micros)}, ${cursor.id}::uuid)` : sql``
  const result = await getDb().execute<MessageRow>(sql`
    select id, sender_id, body, created_at, (extract(epoch from created_at) * 1000000)::bigint::text as at_micros
    from messages
    where conversation_id = ${conversationId} ${before}
    order by created_at desc, id desc
    limit ${PAGE_SIZE + 1}`)
  const rows = result.rows
  const page = rows.slice(0, PAGE_SIZE)
  const oldest = page.at(-1)
  return {
    messages: page
      .map((row): MessageView => ({ id: row.id, mine: row.sender_id === viewerId, body: row.body, createdAt: new Date(row.created_at) }))
      .reverse(),
    older: rows.length > PAGE_SIZE && oldest ? encodeCursor(oldest.at_micros, oldest.id) : null,
  }
}

/** The other member of a conversation as this member sees them: name and photo, or 'Miembro eliminado'. */
export async function otherMember(conversation: Pick<ConversationRow, 'userA' | 'userB'>, viewerId: string) {
  const otherId = conversation.userA === viewerId ? conversation.userB : conversation.userA
  if (!otherId) return { id: null, name: MESSAGES.deleted, avatarUrl: null }
  const result = await getDb().execute<{
    first_name: string | null
    last_name: string | null
    display_name: string | null
    avatar_url: string | null
  }>(sql`select first_name, last_name, display_name, avatar_url from profiles where user_id = ${otherId}`)
  const row = result.rows[0]
  return {
    id: otherId,
    name: row
      ? displayName({ firstName: row.first_name, lastName: row.last_name, displayName: row.display_name }, 'Usuario')
      : MESSAGES.deleted,
    avatarUrl: row?.avatar_url ?? null,
  }
}
