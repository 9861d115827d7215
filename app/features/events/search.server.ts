import { sql } from 'drizzle-orm'
import type { Searchable } from '~/platform/parts.server'

/** What /buscar finds of the calendar (decisions/0031), for members with premium. */
export const eventsSearch: Searchable[] = [
  {
    kind: 'event',
    branch: ({ tsquery, rank, exact, byTitle, from }) =>
      sql`select 'event', e.id::text, e.title, e.description, null, e.location, e.event_date, ${rank(sql`e.search_vector`)}, ${exact(sql`e.title`)}, null
      from ${from('events', 'event_date')} e where e.search_vector @@ ${tsquery} and ${byTitle(sql`e.title`, sql`e.search_vector`)}`,
  },
]
