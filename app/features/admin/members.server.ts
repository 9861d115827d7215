import { and, asc, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm'
import { displayName } from '~/features/account/display-name'
import { ACCENTED, PLAIN, profiles } from '~/features/account/schema'
import { subscriptions } from '~/features/billing/schema'
import { readCounters } from '~/features/community/counters.server'
import { normalizeSearch } from '~/features/members/members.server'
import { user, userRoles } from '~/platform/auth/schema'
import { getDb } from '~/platform/db/client.server'
import { dayRange, DEFAULT_TIME_ZONE, toWallTime } from '~/platform/dates'
import type { MemberFilter } from './filters'

/**
 * The console's members table (/admin/miembros) and its CSV export: one filter, read from the
 * query string the same way by both, so the export is exactly the table an admin is looking at.
 * Unknown values are ignored (the filter is off), texts are cut at 100 characters.
 */
export const MEMBERS_PAGE_SIZE = 50

const ROLE_OF = { admin: 'admin', moderador: 'moderator' } as const
const PLAN_OF = { mensual: 'monthly', anual: 'annual' } as const
const ACTIVE_STATUSES = sql`('active', 'trialing', 'past_due')`

function whereOf(filter: MemberFilter): SQL | undefined {
  const conditions: Array<SQL | undefined> = []
  // Every word must be in the name, company or position (accents and case aside) or the e-mail.
  // Both sides are found by trigrams (migration 0035), so a search's total counts only the members
  // found: the accounts whose e-mail matches are looked up first, once (an array the planner reads
  // as one value), which lets both conditions be index lookups on profiles, joined by a bitmap OR.
  for (const word of normalizeSearch(filter.q).split(' ').filter(Boolean).slice(0, 6)) {
    const pattern = `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
    conditions.push(
      or(
        sql`${profiles.directorySearch} like ${pattern}`,
        sql`${profiles.userId} = any(array(select matched.id from ${user} matched where lower(matched.email) like ${pattern}))`,
      ),
    )
  }
  if (filter.premium) conditions.push(eq(profiles.isPremium, filter.premium === 'si'))
  if (filter.origen === 'admin') conditions.push(and(eq(profiles.isPremium, true), eq(profiles.premiumSource, 'admin')))
  else if (filter.origen) {
    conditions.push(
      and(
        eq(profiles.isPremium, true),
        eq(profiles.premiumSource, 'subscription'),
        sql`exists (select 1 from ${subscriptions} s where s.user_id = ${profiles.userId} and s.status in ${ACTIVE_STATUSES} and s.plan = ${PLAN_OF[filter.origen]})`,
      ),
    )
  }
  if (filter.rol === 'miembro')
    conditions.push(sql`not exists (select 1 from ${userRoles} r where r.user_id = ${profiles.userId} and r.role <> 'user')`)
  else if (filter.rol)
    conditions.push(sql`exists (select 1 from ${userRoles} r where r.user_id = ${profiles.userId} and r.role = ${ROLE_OF[filter.rol]})`)
  // Issue 40: the partial indexes of migration 0035 hold only the failing and the paused rows.
  if (filter.cobro === 'pago-fallido')
    conditions.push(sql`exists (select 1 from ${subscriptions} s where s.user_id = ${profiles.userId} and s.payment_failed_at is not null)`)
  else if (filter.cobro === 'en-pausa')
    conditions.push(
      sql`exists (select 1 from ${subscriptions} s where s.user_id = ${profiles.userId} and s.paused_until is not null and s.paused_until > now())`,
    )
  if (filter.perfil) conditions.push(filter.perfil === 'completo' ? sql`${profiles.isComplete}` : sql`not ${profiles.isComplete}`)
  const joined = dayRange(filter.desde, filter.hasta)
  if (joined.from) conditions.push(gte(profiles.createdAt, joined.from))
  if (joined.to) conditions.push(lt(profiles.createdAt, joined.to))
  return and(...conditions)
}

const memberColumns = {
  userId: profiles.userId,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  displayName: profiles.displayName,
  avatarUrl: profiles.avatarUrl,
  email: user.email,
  company: profiles.company,
  position: profiles.position,
  isPremium: profiles.isPremium,
  premiumSource: profiles.premiumSource,
  isComplete: sql<boolean>`coalesce(${profiles.isComplete}, false)`,
  createdAt: profiles.createdAt,
  plan: sql<
    'monthly' | 'annual' | null
  >`(select s.plan from ${subscriptions} s where s.user_id = ${profiles.userId} and s.status in ${ACTIVE_STATUSES} order by s.monthly_cents desc limit 1)`,
  roles: sql<
    string[]
  >`array(select r.role::text from ${userRoles} r where r.user_id = ${profiles.userId} and r.role <> 'user' order by r.role)`,
}

const SORTS = {
  recientes: [desc(profiles.createdAt), desc(profiles.id)],
  antiguos: [asc(profiles.createdAt), asc(profiles.id)],
  nombre: [
    asc(sql`lower(coalesce(nullif(trim(${profiles.displayName}), ''), concat(${profiles.firstName}, ' ', ${profiles.lastName})))`),
    asc(profiles.id),
  ],
}

export async function listMembers(filter: MemberFilter) {
  const where = whereOf(filter)
  const db = getDb()
  const [rows, count] = await Promise.all([
    db
      .select(memberColumns)
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(where)
      .orderBy(...SORTS[filter.orden || 'recientes'])
      .limit(MEMBERS_PAGE_SIZE)
      .offset((filter.pagina - 1) * MEMBERS_PAGE_SIZE),
    // Every profile has its account (profiles.user_id references it), and the filter reads no
    // column of the account: the total counts profiles alone; unfiltered, a counter kept by a trigger.
    where
      ? db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(profiles)
          .where(where)
          .then(([row]) => row?.n ?? 0)
      : readCounters(['members']).then((counters) => counters.members),
  ])
  return { members: rows.map(memberView), total: count, pageCount: Math.max(1, Math.ceil(count / MEMBERS_PAGE_SIZE)) }
}

const ORIGIN_LABELS = { monthly: 'Stripe mensual', annual: 'Stripe anual' } as const
const ROLE_LABELS: Record<string, string> = { admin: 'Administrador', moderator: 'Moderador' }

function memberView(row: Omit<Awaited<ReturnType<typeof exportBatch>>[number], 'id' | 'micros'>) {
  return {
    userId: row.userId,
    name: displayName(row, row.email),
    email: row.email,
    avatarUrl: row.avatarUrl,
    company: row.company,
    position: row.position,
    isPremium: row.isPremium,
    origin: !row.isPremium
      ? null
      : row.premiumSource === 'admin'
        ? 'Concedido por un admin'
        : row.plan
          ? ORIGIN_LABELS[row.plan]
          : 'Suscripción',
    roles: row.roles.map((role) => ROLE_LABELS[role] ?? role),
    isComplete: row.isComplete,
    joined: toWallTime(row.createdAt, DEFAULT_TIME_ZONE).replace('T', ' '),
  }
}

export type AdminMember = ReturnType<typeof memberView>

/**
 * Where the next batch of the export starts: the last row's join date in microseconds, as the
 * database keeps it (a JavaScript Date keeps milliseconds, and a cursor cut to them skips the rows
 * that joined later in the same millisecond), and its id for rows that joined at the same moment.
 */
export interface ExportCursor {
  micros: string
  id: string
}

const createdMicros = sql<string>`(extract(epoch from ${profiles.createdAt}) * 1000000)::bigint::text`

/** A batch of the export after the cursor, newest first (the order of the file), read along `profiles_created_idx`. */
export function exportBatch(filter: MemberFilter, after: ExportCursor | null, size: number) {
  return getDb()
    .select({ ...memberColumns, id: profiles.id, micros: createdMicros })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(
      and(
        whereOf(filter),
        after
          ? sql`(${profiles.createdAt}, ${profiles.id}) < (to_timestamp(${after.micros}::bigint / 1000000.0), ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(size)
}

export const CSV_HEADER = [
  'Nombre',
  'Email',
  'Empresa',
  'Cargo',
  'Premium',
  'Origen',
  'Roles',
  'Perfil completo',
  'Alta',
  'Perfil',
] as const

/**
 * One CSV cell: quoted, quotes doubled; a cell a spreadsheet would run as a formula (starting with
 * =, +, -, @, a tab or a carriage return) gets a leading apostrophe, so it is shown as text (OWASP).
 */
export function csvCell(value: string) {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return `"${safe.replaceAll('"', '""')}"`
}

/**
 * The members of `filter` as CSV for a spreadsheet in Spanish: UTF-8 with a byte-order mark,
 * ';' between cells, CRLF between lines. Pulled in batches as the connection takes them, so ten
 * thousand members are never held at once. `onDone` gets the number of rows written.
 */
export function membersCsv(filter: MemberFilter, appUrl: string, onDone: (rows: number) => void, batchSize = 500) {
  const encoder = new TextEncoder()
  const line = (cells: readonly string[]) => encoder.encode(`${cells.map(csvCell).join(';')}\r\n`)
  let after: ExportCursor | null = null
  let rows = 0
  let finished = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('\uFEFF'))
      controller.enqueue(line(CSV_HEADER))
    },
    async pull(controller) {
      if (finished) return
      const batch = await exportBatch(filter, after, batchSize)
      for (const row of batch) {
        const member = memberView(row)
        controller.enqueue(
          line([
            member.name,
            member.email,
            member.company ?? '',
            member.position ?? '',
            member.isPremium ? 'Sí' : 'No',
            member.origin ?? '',
            member.roles.join(', '),
            member.isComplete ? 'Sí' : 'No',
            member.joined,
            `${appUrl}/usuario/${member.userId}`,
          ]),
        )
      }
      rows += batch.length
      const last = batch.at(-1)
      if (!last || batch.length < batchSize) {
        finished = true
        controller.close()
        onDone(rows)
        return
      }
      after = { micros: last.micros, id: last.id }
    },
  })
}

/** The accounts whose name or e-mail contains `text` (case and accents aside), for the audit log's 'who' filter. */
export async function accountIdsMatching(text: string, limit = 200) {
  const pattern = `%${normalizeSearch(text).replace(/[\\%_]/g, (char) => `\\${char}`)}%`
  const rows = await getDb()
    .select({ id: user.id })
    .from(user)
    .where(or(sql`translate(lower(${user.name}), ${ACCENTED}, ${PLAIN}) like ${pattern}`, sql`lower(${user.email}) like ${pattern}`))
    .limit(limit)
  return rows.map((row) => row.id)
}
