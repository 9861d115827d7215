import { sql } from 'drizzle-orm'
import type { Searchable } from '~/platform/parts.server'

const names = sql`f_unaccent(coalesce(m.display_name, '') || ' ' || coalesce(m.first_name, '') || ' ' || coalesce(m.last_name, ''))`
const work = sql`f_unaccent(coalesce(m.company, '') || ' ' || coalesce(m.position, ''))`

/**
 * What /buscar finds of the members (decisions/0031), for members with premium: as the directory,
 * complete and listed; company and position only of those who show them (issue 28). Names are
 * matched by trigrams of the query's words, so a query of no word finds no one.
 */
export const membersSearch: Searchable[] = [
  {
    kind: 'member',
    branch: ({ words, folded }) =>
      words
        ? sql`select 'member', m.user_id, null, case when m.shows_work then concat_ws(' · ', m.position, m.company) else '' end, m.user_id, null,
          m.created_at, greatest(word_similarity(${folded}, ${names}), case when m.shows_work then word_similarity(${folded}, ${work}) else 0 end),
          ${names} = ${folded}, null
        from profiles m
        where m.is_complete and m.listed_in_directory and (${folded} <% ${names} or (m.shows_work and ${folded} <% ${work}))`
        : null,
  },
]
