import { and, eq, inArray, or, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { profiles } from '~/features/account/schema'
import { admissionApplications } from '~/features/admission/schema'
import { moderationDecisions, moderationReports } from '~/features/moderation/schema'
import { readSubscriptions, getStripe } from '~/features/billing/stripe.server'
import { ceoSessionComments, ceoSessionLikes, ceoSessions } from '~/features/ceo-sessions/schema'
import { toggleRegistration } from '~/features/events/events.server'
import { eventAttendees } from '~/features/events/schema'
import { commentLikes, communityComments, communityPosts, postLikes } from '~/features/feed/schema'
import { notifications } from '~/features/notifications/schema'
import { LastAdminError } from '~/features/members/roles.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { user as users, userRoles } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { unavailable } from '~/platform/http/responses.server'
import { logger } from '~/platform/logger.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { getStorage } from '~/platform/storage/storage.server'
import { exportKeysOf, filesOf } from './data-export.server'

/**
 * 'Eliminar mi cuenta' (GDPR article 17, issue 27, ADR 0028): the subscription is cancelled at
 * Stripe first (when that fails nothing is deleted), the member leaves the events they joined
 * (their place goes to the queue), and one transaction deletes the account: every row naming them
 * goes with it (foreign keys: cascade), what they wrote in shared conversations stays under
 * 'Miembro eliminado' (set null) unless they chose to delete it too, the counters their likes and
 * comments moved are put right, the notifications their actions caused are withdrawn. Then their
 * files go and an e-mail confirms. The audit log keeps the line that records it, by id alone.
 */

export const DELETION_MESSAGES = {
  lastAdmin: 'Eres el único administrador: nombra a otro administrador antes de eliminar tu cuenta.',
  lastAdminByAdmin: 'Es el único administrador: nombra a otro administrador antes de eliminar su cuenta.',
  billing: {
    title: 'No se pudo cancelar la suscripción',
    description: 'No hemos eliminado nada. Vuelve a intentarlo en unos minutos.',
  },
  done: 'Tu cuenta se ha eliminado. Gracias por haber formado parte de la comunidad.',
  doneByAdmin: 'Cuenta eliminada',
} as const

/** What happens to their posts and comments: kept under 'Miembro eliminado' (the default) or deleted. */
export type Writing = 'keep' | 'delete'

/** Stripe statuses that still bill or could bill again. */
const LIVE = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused'])

/** Cancels the member's live Stripe subscriptions now (not at the period's end: the account is going). */
async function cancelSubscriptions(userId: string) {
  if (getEnv().PAYMENTS_PROVIDER !== 'stripe') return
  const [profile] = await getDb().select({ customerId: profiles.stripeCustomerId }).from(profiles).where(eq(profiles.userId, userId))
  if (!profile?.customerId) return
  try {
    for (const subscription of await readSubscriptions(profile.customerId)) {
      if (!subscription.id || !LIVE.has(subscription.status)) continue
      await getStripe().subscriptions.cancel(subscription.id, {}, { idempotencyKey: `account-deletion:${subscription.id}` })
    }
  } catch (error) {
    unavailable(DELETION_MESSAGES.billing, { err: error, userId })
  }
}

/** A place they held in an event goes to the first in its queue, as when they cancel it themselves. */
async function leaveEvents(userId: string) {
  const joined = await getDb().select({ eventId: eventAttendees.eventId }).from(eventAttendees).where(eq(eventAttendees.userId, userId))
  for (const { eventId } of joined) await toggleRegistration(eventId, userId)
}

/** Throws LastAdminError when deleting this account would leave the community without an admin. */
async function refuseLastAdmin(executor: DbExecutor, userId: string) {
  const admins = await executor.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin')).for('update')
  if (admins.length === 1 && admins[0]!.userId === userId) throw new LastAdminError(DELETION_MESSAGES.lastAdmin)
}

/**
 * Deletes the account of `userId`; `actorId` is who asked (themselves, or an admin on their
 * request). Returns false when there is no such account. LastAdminError when it is the last admin.
 */
export async function deleteAccount({ userId, actorId, writing }: { userId: string; actorId: string; writing: Writing }) {
  const db = getDb()
  const [account] = await db
    .select({ email: users.email, firstName: profiles.firstName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
  if (!account) return false
  await refuseLastAdmin(db, userId)
  await cancelSubscriptions(userId)
  await leaveEvents(userId)
  const files = [
    ...(await filesOf(userId)).filter((file) => writing === 'delete' || file.key.startsWith('avatars/')),
    ...(await exportKeysOf(userId)),
  ]

  await db.transaction(async (tx) => {
    await refuseLastAdmin(tx, userId)
    // Their likes go with the account: the counters they moved come down first.
    await tx.execute(sql`update ${communityPosts} set like_count = greatest(like_count - 1, 0)
      where id in (select post_id from ${postLikes} where user_id = ${userId})`)
    await tx.execute(sql`update ${communityComments} set like_count = greatest(like_count - 1, 0)
      where id in (select comment_id from ${commentLikes} where user_id = ${userId})`)
    await tx.execute(sql`update ${ceoSessions} set like_count = greatest(like_count - 1, 0)
      where id in (select session_id from ${ceoSessionLikes} where user_id = ${userId})`)
    if (writing === 'delete') {
      // Their comments take the replies to them; each thread's counter is counted again.
      const posts = await tx
        .delete(communityComments)
        .where(eq(communityComments.userId, userId))
        .returning({ id: communityComments.postId })
      const sessions = await tx
        .delete(ceoSessionComments)
        .where(eq(ceoSessionComments.userId, userId))
        .returning({ id: ceoSessionComments.sessionId })
      if (posts.length) {
        await tx
          .update(communityPosts)
          .set({
            commentCount: sql`(select count(*) from ${communityComments} c where c.post_id = ${communityPosts.id} and c.hidden_at is null)`,
          })
          .where(inArray(communityPosts.id, [...new Set(posts.map((post) => post.id))]))
      }
      if (sessions.length) {
        await tx
          .update(ceoSessions)
          .set({
            commentCount: sql`(select count(*) from ${ceoSessionComments} c where c.session_id = ${ceoSessions.id} and c.hidden_at is null)`,
          })
          .where(inArray(ceoSessions.id, [...new Set(sessions.map((session) => session.id))]))
      }
      await tx.delete(communityPosts).where(eq(communityPosts.userId, userId))
    }
    // Reports about them and decisions on their account name them by id: they go with the account
    // (decisions on what they wrote stay, about nobody, as the author column is set null).
    for (const table of [moderationReports, moderationDecisions]) {
      await tx.delete(table).where(and(eq(table.kind, 'member'), eq(table.itemId, userId)))
    }
    // 'A Marta le gusta tu post': the words name them, so the notification goes.
    await tx.delete(notifications).where(eq(notifications.actorUserId, userId))
    await tx
      .delete(admissionApplications)
      .where(or(eq(admissionApplications.userId, userId), eq(admissionApplications.email, account.email.toLowerCase())))
    await tx.delete(users).where(eq(users.id, userId))
    await recordAudit(
      { action: 'account_deleted', actorUserId: actorId === userId ? null : actorId, targetUserId: userId, details: { writing } },
      tx,
    )
  })

  const storage = getStorage()
  for (const { key } of files) {
    await storage.delete(key).catch((error) => logger.warn({ err: error, key }, 'A deleted account left a file behind'))
  }
  await enqueueMail({
    to: account.email,
    subject: 'Tu cuenta se ha eliminado',
    email: createElement(NoticeEmail, {
      title: 'Tu cuenta se ha eliminado',
      firstName: account.firstName,
      paragraphs: [
        actorId === userId
          ? 'Como pediste, hemos eliminado tu cuenta de Círculo CEO y tus datos personales.'
          : 'Como pediste, un administrador ha eliminado tu cuenta de Círculo CEO y tus datos personales.',
        writing === 'keep'
          ? 'Lo que escribiste en conversaciones compartidas sigue visible como «Miembro eliminado», sin tu nombre ni tu foto.'
          : 'También hemos eliminado tus publicaciones y comentarios.',
        'Si tenías una suscripción, está cancelada y no se te cobrará de nuevo. Si no fuiste tú, escríbenos.',
      ],
    }),
  })
  logger.info({ userId, actorId, writing }, 'Account deleted')
  return true
}
