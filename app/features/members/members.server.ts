import { and, count, desc, sql, type SQL } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { communityPosts } from '~/features/feed/schema'
import { readCounters } from '~/features/community/counters.server'
import { ACCENTED, PLAIN, profiles, publicProfileColumns } from '~/features/account/schema'

// Accent- and case-insensitive matching without extensions, identical on PGlite and
// PostgreSQL: both sides are lower-cased and stripped of Spanish accents the same way (the
// stored profiles.directory_search column on one side, normalizeSearch() on the other).
export function normalizeSearch(text: string) {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

function folded(expression: SQL) {
  return sql`translate(lower(${expression}), ${ACCENTED}, ${PLAIN})`
}

function containsTerm(expression: SQL, term: string) {
  const escaped = normalizeSearch(term).replace(/[\\%_]/g, (char) => `\\${char}`)
  return sql`${expression} like ${`%${escaped}%`}`
}

export const DIRECTORY_PAGE_SIZE = 24

export interface DirectoryQuery {
  search?: string
  company?: string
  position?: string
  page?: number
}

export async function listDirectory({ search, company, position, page = 1 }: DirectoryQuery) {
  // A member who left the directory is not in it; one who keeps their work to themselves is found by name only (issue 28).
  const listed = [sql`${profiles.isComplete}`, sql`${profiles.listedInDirectory}`]
  const filters: SQL[] = []
  const names = folded(
    sql`coalesce(${profiles.displayName}, '') || ' ' || coalesce(${profiles.firstName}, '') || ' ' || coalesce(${profiles.lastName}, '')`,
  )
  // Every word must match somewhere in the name, company or position. The names are part of
  // directory_search, so a word found in them is found in it too: matched there first, the word is
  // looked up in its trigram index (migration 0037) and the total counts only the members found.
  const words = normalizeSearch(search ?? '')
    .split(' ')
    .filter(Boolean)
    .slice(0, 6)
  for (const word of words) {
    filters.push(containsTerm(sql`${profiles.directorySearch}`, word), sql`(${profiles.showsWork} or ${containsTerm(names, word)})`)
  }
  if (company?.trim()) filters.push(sql`${profiles.showsWork}`, containsTerm(folded(sql`${profiles.company}`), company))
  if (position?.trim()) filters.push(sql`${profiles.showsWork}`, containsTerm(folded(sql`${profiles.position}`), position))
  const where = and(...listed, ...filters)
  const filtered = filters.length > 0
  const db = getDb()
  const offset = (Math.max(page, 1) - 1) * DIRECTORY_PAGE_SIZE
  const [members, total] = await Promise.all([
    db
      .select({
        userId: profiles.userId,
        ...publicProfileColumns,
        company: sql<string | null>`case when ${profiles.showsWork} then ${profiles.company} end`,
        position: sql<string | null>`case when ${profiles.showsWork} then ${profiles.position} end`,
        isPremium: profiles.isPremium,
        createdAt: profiles.createdAt,
        // One index lookup per card shown (community_posts_user_idx), whatever the community's size;
        // what moderation hid is not counted (issue 28). Qualified by hand: inside a subquery
        // Drizzle would print both columns as a bare "user_id".
        postCount:
          sql<number>`(select count(*) from ${communityPosts} as authored where authored.user_id = "profiles"."user_id" and authored.hidden_at is null)`.mapWith(
            Number,
          ),
      })
      .from(profiles)
      .where(where)
      .orderBy(desc(profiles.createdAt), desc(profiles.id))
      .limit(DIRECTORY_PAGE_SIZE)
      .offset(offset),
    // Unfiltered, the directory is every complete and listed member: a counter kept by a trigger.
    filtered
      ? db
          .select({ n: count() })
          .from(profiles)
          .where(where)
          .then(([row]) => row?.n ?? 0)
      : readCounters(['directory_members']).then((counters) => counters.directory_members),
  ])
  return { members, total, pageCount: Math.max(1, Math.ceil(total / DIRECTORY_PAGE_SIZE)) }
}

/** Community stat 'Miembros Activos': members with a complete profile. */
