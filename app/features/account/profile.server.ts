import { and, eq, isNull, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { auditLog } from '~/platform/audit/schema'
import { recordAudit } from '~/platform/audit/audit.server'
import { type Role, user, userRoles } from '~/platform/auth/schema'
import { profiles, publicProfileColumns } from './schema'
import { WelcomeEmail } from '~/features/account/emails/welcome'
import { getEnv } from '~/platform/env.server'
import { enqueueRenderedMail, renderMail } from '~/platform/mail/mail.server'

function trimmedOrNull(value: string | null | undefined) {
  const trimmed = value?.trim()
  return trimmed ? trimmed : null
}

/**
 * Makes sure the member has a profile, with the names given at sign-up (trimmed) where the
 * profile has none; never overwrites a name the member set.
 */
export async function ensureProfile(tx: DbExecutor, userId: string, names?: { firstName: string | null; lastName: string | null }) {
  const account =
    names ?? (await tx.select({ firstName: user.firstName, lastName: user.lastName }).from(user).where(eq(user.id, userId)))[0]
  if (!account) return
  await tx
    .insert(profiles)
    .values({ userId, firstName: trimmedOrNull(account.firstName), lastName: trimmedOrNull(account.lastName) })
    .onConflictDoUpdate({
      target: profiles.userId,
      set: {
        firstName: sql`coalesce(nullif(trim(${profiles.firstName}), ''), excluded.first_name)`,
        lastName: sql`coalesce(nullif(trim(${profiles.lastName}), ''), excluded.last_name)`,
      },
    })
}

/**
 * After a confirmed sign-in: make sure the profile exists (names from sign-up,
 * trimmed), fill a missing first or last name without overwriting one the member
 * set, and queue the welcome e-mail exactly once.
 */
export async function onConfirmedSignIn(userId: string) {
  const account = await getDb().transaction(async (tx) => {
    const [account] = await tx
      .select({ email: user.email, emailVerified: user.emailVerified, firstName: user.firstName, lastName: user.lastName })
      .from(user)
      .where(eq(user.id, userId))
    if (!account?.emailVerified) return null

    await ensureProfile(tx, userId, account)

    // Operators bootstrap their first admins by e-mail (ADMIN_EMAILS), no shell needed. Only once:
    // an admin who removed the role from such an account is not overruled at its next sign-in
    // (docs/decisions/0018).
    if (getEnv().ADMIN_EMAILS.includes(account.email.toLowerCase()) && !(await adminRoleWasRemoved(tx, userId))) {
      const granted = await tx.insert(userRoles).values({ userId, role: 'admin' }).onConflictDoNothing().returning()
      if (granted.length > 0) {
        await recordAudit({ action: 'role_granted', targetUserId: userId, details: { role: 'admin', source: 'ADMIN_EMAILS' } }, tx)
      }
    }
    return account
  })
  if (account) await welcomeOnce(userId, account.email)
}

/**
 * Rendered with no transaction open (PGlite would run nothing else meanwhile), then queued in the
 * one that marks the member welcomed: of sign-ins at once, one does. A crash in between leaves the
 * member not welcomed yet, and their next sign-in welcomes them.
 */
async function welcomeOnce(userId: string, email: string) {
  const [pending] = await getDb()
    .select({ firstName: profiles.firstName })
    .from(profiles)
    .where(and(eq(profiles.userId, userId), isNull(profiles.welcomedAt)))
  if (!pending) return
  const mail = await renderMail({
    to: email,
    subject: '¡Bienvenido a la comunidad!',
    email: createElement(WelcomeEmail, { firstName: pending.firstName, profileUrl: `${getEnv().APP_URL}/perfil` }),
    dedupeKey: `welcome:${userId}`,
  })
  await getDb().transaction(async (tx) => {
    const [welcomed] = await tx
      .update(profiles)
      .set({ welcomedAt: sql`now()` })
      .where(and(eq(profiles.userId, userId), isNull(profiles.welcomedAt)))
      .returning({ userId: profiles.userId })
    if (welcomed) await enqueueRenderedMail(mail, tx)
  })
}

const profileColumns = {
  id: profiles.id,
  userId: profiles.userId,
  ...publicProfileColumns,
  bio: profiles.bio,
  company: profiles.company,
  position: profiles.position,
  isPremium: profiles.isPremium,
  premiumSource: profiles.premiumSource,
  stripeCustomerId: profiles.stripeCustomerId,
  emailNotifications: profiles.emailNotifications,
  unreadNotifications: profiles.unreadNotifications,
  unreadMessages: profiles.unreadMessages,
  listedInDirectory: profiles.listedInDirectory,
  showsWork: profiles.showsWork,
  suspendedUntil: profiles.suspendedUntil,
  suspensionReason: profiles.suspensionReason,
  createdAt: profiles.createdAt,
}

export async function getProfileByUserId(userId: string) {
  const [profile] = await getDb().select(profileColumns).from(profiles).where(eq(profiles.userId, userId))
  return profile ?? null
}

/**
 * What every request needs to know of the signed-in member, in one statement: the profile
 * (null until the first sign-in created it), with the bell's count, and the roles.
 */
export async function getViewer(userId: string) {
  const [row] = await getDb()
    .select({
      profile: profileColumns,
      roles: sql<Role[]>`array(select ${userRoles.role}::text from ${userRoles} where ${userRoles.userId} = ${user.id})`,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId))
  return { profile: row?.profile ?? null, roles: row?.roles ?? [] }
}

export type Profile = NonNullable<Awaited<ReturnType<typeof getProfileByUserId>>>

export interface ProfileFields {
  firstName: string | null
  lastName: string | null
  bio: string | null
  company: string | null
  position: string | null
}

/** Saves the member's own editable fields; creates the row if the sign-in sync never ran. */
export async function saveProfileFields(userId: string, fields: ProfileFields) {
  await getDb()
    .insert(profiles)
    .values({ userId, ...fields })
    .onConflictDoUpdate({ target: profiles.userId, set: { ...fields, updatedAt: sql`now()` } })
}

export async function saveEmailNotifications(userId: string, enabled: boolean) {
  await getDb()
    .insert(profiles)
    .values({ userId, emailNotifications: enabled })
    .onConflictDoUpdate({ target: profiles.userId, set: { emailNotifications: enabled, updatedAt: sql`now()` } })
}

/** Points the profile at a new avatar and returns the previous URL, so its file can be removed. */
export async function replaceAvatarUrl(userId: string, avatarUrl: string) {
  return getDb().transaction(async (tx) => {
    // The row exists before it is locked: two first uploads at once then take turns, and the
    // second sees the first's photo to remove.
    await tx.insert(profiles).values({ userId }).onConflictDoNothing({ target: profiles.userId })
    const [previous] = await tx.select({ avatarUrl: profiles.avatarUrl }).from(profiles).where(eq(profiles.userId, userId)).for('update')
    await tx
      .update(profiles)
      .set({ avatarUrl, updatedAt: sql`now()` })
      .where(eq(profiles.userId, userId))
    return previous?.avatarUrl ?? null
  })
}

/** Whether an admin ever removed the admin role from this account (the audit log keeps it). */
async function adminRoleWasRemoved(tx: DbExecutor, userId: string) {
  const [removal] = await tx
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'role_removed'), eq(auditLog.targetUserId, userId), sql`${auditLog.details}->>'role' = 'admin'`))
    .limit(1)
  return Boolean(removal)
}

/** Issue 28: in the directory or not, company and position shown to other members or not. */
export async function saveDirectoryPrivacy(userId: string, { listed, showsWork }: { listed: boolean; showsWork: boolean }) {
  await getDb().update(profiles).set({ listedInDirectory: listed, showsWork }).where(eq(profiles.userId, userId))
}
