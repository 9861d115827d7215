import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { auditLog } from './schema'

export type AuditAction = 'sign_in_failed' | 'role_granted' | 'role_removed' | 'premium_granted' | 'premium_removed' | 'avatar_rejected'

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
