import { sql } from 'drizzle-orm'
import type { Searchable } from '~/platform/parts.server'

/** What /buscar finds of the feed (decisions/0031): posts and their comments, open to every member. */
export const feedSearch: Searchable[] = [
  {
    kind: 'post',
    open: true,
    branch: ({ tsquery, rank, exact, seen, byTitle, from }) =>
      sql`select 'post', p.id::text, p.title, coalesce(p.content, ''), p.user_id, null, p.created_at, ${rank(sql`p.search_vector`)}, ${exact(sql`p.title`)}, null
      from ${from('community_posts', 'created_at')} p where p.search_vector @@ ${tsquery} and ${seen('p')} and ${byTitle(sql`p.title`, sql`p.search_vector`)}`,
  },
  {
    kind: 'comment',
    open: true,
    // A comment is seen where its post is: hidden posts are few (their own partial index), so they are
    // looked up, not every post joined; the post's title is read for the page's rows only.
    branch: ({ tsquery, rank, seen, viewerId, from }) =>
      sql`select 'comment', c.id::text, null, c.content, c.user_id, null, c.created_at, ${rank(sql`c.search_vector`)}, false, c.post_id::text
      from ${from('community_comments', 'created_at')} c
      where c.search_vector @@ ${tsquery} and ${seen('c')} and not exists (select from community_posts p
        where p.id = c.post_id and p.hidden_at is not null and p.user_id is distinct from ${viewerId})`,
  },
]
