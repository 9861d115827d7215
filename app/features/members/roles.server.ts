import { and, eq } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { refuse } from '~/platform/http/responses.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { profiles } from '~/features/account/schema'
import { type Role, userRoles } from '~/platform/auth/schema'
import { user } from '~/platform/auth/schema'

export async function getUserRoles(userId: string): Promise<Role[]> {
  const rows = await getDb().select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))
  return rows.map((row) => row.role)
}

/** Used by `npm run make-admin` and ADMIN_EMAILS: returns false when no account has that e-mail. */
export async function grantRoleByEmail(email: string, role: Role) {
  const db = getDb()
  const [account] = await db.select({ id: user.id }).from(user).where(eq(user.email, email.trim().toLowerCase()))
  if (!account) return false
  await db.insert(userRoles).values({ userId: account.id, role }).onConflictDoNothing()
  return true
}

export class LastAdminError extends Error {}

/**
 * Grants or removes a role, with its audit entry, in one transaction. The community always keeps
 * an admin: removing the admin role locks every admin row first, so two admins who demote each
 * other (or themselves) at the same moment take turns, and the second sees the first's change:
 * it is refused when it would remove the last admin, or when its author is no longer an admin.
 */
export async function changeRole({
  actorId,
  targetId,
  role,
  grant,
}: {
  actorId: string
  targetId: string
  role: Exclude<Role, 'user'>
  grant: boolean
}) {
  await getDb().transaction(async (tx) => {
    if (grant) {
      await tx.insert(userRoles).values({ userId: targetId, role }).onConflictDoNothing()
    } else {
      if (role === 'admin') {
        const admins = (await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin')).for('update')).map(
          (admin) => admin.userId,
        )
        if (!admins.includes(actorId)) throw new LastAdminError('Ya no eres administrador')
        // The actor is an admin, so only removing oneself can leave none.
        if (actorId === targetId && admins.length === 1) {
          throw new LastAdminError('No puedes quitarte el rol de admin: eres el único administrador')
        }
      }
      await tx.delete(userRoles).where(and(eq(userRoles.userId, targetId), eq(userRoles.role, role)))
    }
    await recordAudit(
      {
        action: grant ? 'role_granted' : 'role_removed',
        actorUserId: actorId,
        targetUserId: targetId,
        details: { role },
      },
      tx,
    )
  })
}

/** Sets premium by hand (admins), with its audit entry; a member without a profile is not found (404). */
export async function setPremiumByAdmin({ actorId, targetId, premium }: { actorId: string; targetId: string; premium: boolean }) {
  await getDb().transaction(async (tx) => {
    const updated = await tx
      .update(profiles)
      .set({ isPremium: premium, premiumSource: premium ? 'admin' : null })
      .where(eq(profiles.userId, targetId))
      .returning({ id: profiles.id })
    if (updated.length === 0) refuse(404, 'Usuario no encontrado', { detail: { targetId } })
    await recordAudit(
      {
        action: premium ? 'premium_granted' : 'premium_removed',
        actorUserId: actorId,
        targetUserId: targetId,
        details: { source: 'admin' },
      },
      tx,
    )
  })
}

export async function accountExists(userId: string) {
  const [row] = await getDb().select({ id: user.id }).from(user).where(eq(user.id, userId))
  return Boolean(row)
}
