import { inArray, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import type { AuditAction } from './actions'
import { auditLog } from './schema'

/** Lines they wrote by acting on their own account; the lines of what they did to others are staff work about others. */
const OWN_ACCOUNT: AuditAction[] = [
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'avatar_rejected',
]
/** Details that are theirs: what was done and why (a reason, their post's title, their passkey's name); never an e-mail. */
const EXPORTED = ['role', 'source', 'kind', 'itemId', 'postId', 'commentId', 'on', 'title', 'reason', 'days', 'name', 'writing']
/** What a line about a deleted member keeps: what was done, without words that could name them. */
const KEPT = ['role', 'source', 'kind', 'itemId', 'postId', 'commentId', 'on', 'days', 'reports', 'writing']

const detailsOnly = (keys: string[]) =>
  sql`(select jsonb_object_agg(key, value) from jsonb_each(${auditLog.details}) where ${inArray(sql`key`, keys)})`

/**
 * The audit log records what admins did and outlives accounts by id alone (12 months). A member's
 * export holds the lines about them without who acted, and their own account's lines; the deletion
 * takes from every line the words that could name them.
 */
export const auditData: MemberDataPart = {
  tables: { audit_log: { section: 'registro_de_acciones' } },
  sections: {
    registro_de_acciones: (id) => sql`select action, ${detailsOnly(EXPORTED)} as details,
      case when actor_user_id = ${id} then ip_address end as ip_address, created_at
      from ${auditLog} where target_user_id = ${id} or (actor_user_id = ${id} and ${inArray(auditLog.action, OWN_ACCOUNT)})
      order by created_at, id`,
  },
  async erase(tx, { id, email }) {
    // Failed sign-ins and admission decisions recorded their e-mail.
    await tx.execute(sql`update ${auditLog} set details = details - 'email' where lower(details->>'email') = ${email}`)
    await tx.execute(sql`update ${auditLog} set details = ${detailsOnly(KEPT)} where target_user_id = ${id} and details is not null`)
  },
}
