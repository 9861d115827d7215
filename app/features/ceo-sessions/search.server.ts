import { sql } from 'drizzle-orm'
import type { Searchable } from '~/platform/parts.server'

/** What /buscar finds of the sessions (decisions/0031), for members with premium. */
export const ceoSessionsSearch: Searchable[] = [
  {
    kind: 'session_comment',
    branch: ({ tsquery, rank, seen, from }) =>
      sql`select 'session_comment', c.id::text, s.title, c.content, c.user_id, null, c.created_at, ${rank(sql`c.search_vector`)}, false, s.id::text
      from ${from('ceo_session_comments', 'created_at')} c join ceo_sessions s on s.id = c.session_id
      where c.search_vector @@ ${tsquery} and ${seen('c')} and s.publication_status = 'published'`,
  },
  {
    kind: 'session',
    // Spec 001 §4: a session is shown once published, never while its video is processing.
    // Its window is the newest published sessions, through the library's index (publication_status, session_date, id).
    branch: ({ tsquery, rank, exact, byTitle, from }) =>
      sql`select 'session', s.id::text, s.title, s.summary || ' ' || s.description, null, s.ceo_name || ' · ' || s.ceo_company,
        s.session_date, ${rank(sql`s.search_vector`)}, ${exact(sql`s.title`)}, null
      from ${from('ceo_sessions', 'session_date', "publication_status = 'published'")} s
      where s.search_vector @@ ${tsquery} and s.publication_status = 'published' and ${byTitle(sql`s.title`, sql`s.search_vector`)}`,
  },
]
