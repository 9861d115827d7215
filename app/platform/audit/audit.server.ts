import { getDb } from '~/platform/db/client.server'
import { auditLog } from './schema'

export type AuditAction = 'sign_in_failed' | 'role_granted' | 'role_removed' | 'premium_granted' | 'premium_removed' | 'avatar_rejected'

export async function recordAudit(entry: {
  action: AuditAction
  actorUserId?: string | null
  targetUserId?: string | null
  details?: Record<string, unknown>
  ipAddress?: string | null
}) {
  await getDb().insert(auditLog).values(entry)
}
