import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { user } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import type { AuditAction } from './actions'
import { auditLog } from './schema'

export interface AuditEntry {
  action: AuditAction
  actorUserId?: string | null
  targetUserId?: string | null
  details?: Record<string, unknown>
  ipAddress?: string | null
}

/** Writes one audit line, in `executor`'s transaction when given (it commits with the change it records). */
export async function recordAudit(entry: AuditEntry, executor: DbExecutor = getDb()) {
  await executor.insert(auditLog).values(entry)
}

export const AUDIT_PAGE_SIZE = 50

export interface AuditQuery {
  actorUserIds?: string[] | null
  action?: AuditAction | null
  /** Instants bounding created_at: [from, to). */
  from?: Date | null
  to?: Date | null
  /** Entries older than this id (the page before: the log reads newest first). */
  beforeId?: number | null
}

/** A page of the log, newest first, with who did it and to whom (their names), by index (id, actor, action). */
export async function listAuditEntries({ actorUserIds, action, from, to, beforeId }: AuditQuery) {
  const conditions: SQL[] = []
  if (actorUserIds) conditions.push(actorUserIds.length ? inArray(auditLog.actorUserId, actorUserIds) : sql`false`)
  if (action) conditions.push(eq(auditLog.action, action))
  if (from) conditions.push(gte(auditLog.createdAt, from))
  if (to) conditions.push(lt(auditLog.createdAt, to))
  if (beforeId) conditions.push(lt(auditLog.id, beforeId))
  const actor = alias(user, 'actor')
  const target = alias(user, 'target')
  const rows = await getDb()
    .select({
      id: auditLog.id,
      action: auditLog.action,
      actorUserId: auditLog.actorUserId,
      actorName: actor.name,
      actorEmail: actor.email,
      targetUserId: auditLog.targetUserId,
      targetName: target.name,
      targetEmail: target.email,
      details: auditLog.details,
      ipAddress: auditLog.ipAddress,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .leftJoin(target, eq(target.id, auditLog.targetUserId))
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1)
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE), nextBeforeId: rows.length > AUDIT_PAGE_SIZE ? rows[AUDIT_PAGE_SIZE - 1]!.id : null }
}
