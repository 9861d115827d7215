import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { profiles } from '~/features/account/schema'
import { LastAdminError } from '~/features/members/roles.server'
import { recordAudit } from '~/platform/audit/audit.server'
import { user as users, userRoles } from '~/platform/auth/schema'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { enqueueRenderedMail, renderMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { type FileChanges, memberDataParts, type Writing } from '~/platform/privacy/member-data'
import { getStorage } from '~/platform/storage/storage.server'

export type { Writing }

/**
 * 'Eliminar mi cuenta' (GDPR article 17, issue 27, ADR 0028), all or nothing: one transaction runs
 * every feature's `erase` (their member-data.server.ts: event places to the queue, counters put
 * right, texts that name them withdrawn, what they wrote kept under 'Miembro eliminado' or
 * deleted) and deletes the account, whose rows cascade. What lies outside the database (the Stripe
 * subscription, stored files) and the e-mail that confirms it are jobs queued in that transaction:
 * they exist only if it commits, and are retried until done. The audit log keeps its line, by id.
 */

export const DELETION_MESSAGES = {
  lastAdmin: 'Eres el único administrador: nombra a otro administrador antes de eliminar tu cuenta.',
  lastAdminByAdmin: 'Es el único administrador: nombra a otro administrador antes de eliminar su cuenta.',
  done: 'Tu cuenta se ha eliminado. Gracias por haber formado parte de la comunidad.',
  doneByAdmin: 'Cuenta eliminada',
} as const

/** Throws LastAdminError when deleting this account would leave the community without an admin. */
async function refuseLastAdmin(executor: DbExecutor, userId: string) {
  const admins = await executor.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin')).for('update')
  if (admins.length === 1 && admins[0]!.userId === userId) throw new LastAdminError(DELETION_MESSAGES.lastAdmin)
}

/** The stored files a deleted account leaves: removed, or (what stays) moved where their id is not in the key. */
export const deletionFilesJob = defineJob<Required<FileChanges>>({
  name: 'account.deletion-files',
  label: 'Archivos de una cuenta eliminada',
  async run({ remove, move }) {
    const storage = getStorage()
    for (const { from, to } of move) {
      const stored = await storage.get(from)
      // Already moved by an earlier try.
      if (!stored) continue
      const chunks: Uint8Array[] = []
      for await (const chunk of stored.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk)
      await storage.put(to, Buffer.concat(chunks), 'application/octet-stream')
      await storage.delete(from)
    }
    for (const key of remove) await storage.delete(key)
  },
})

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
  // Rendered before the transaction opens (mail.server.ts), queued in it.
  const mail = await renderMail({
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
        // The cancellation is a job that runs after this commits (retried while Stripe is away): not done yet.
        'Si tenías una suscripción, la estamos cancelando y no se te cobrará de nuevo. Si no fuiste tú, escríbenos.',
      ],
    }),
  })

  await db.transaction(async (tx) => {
    await refuseLastAdmin(tx, userId)
    const files: Required<FileChanges> = { remove: [], move: [] }
    for (const part of memberDataParts()) {
      const changes = await part.erase?.(tx, { id: userId, email: account.email.toLowerCase(), writing })
      files.remove.push(...(changes?.remove ?? []))
      files.move.push(...(changes?.move ?? []))
    }
    await tx.delete(users).where(eq(users.id, userId))
    await recordAudit(
      { action: 'account_deleted', actorUserId: actorId === userId ? null : actorId, targetUserId: userId, details: { writing } },
      tx,
    )
    if (files.remove.length || files.move.length) await enqueue(deletionFilesJob, files, { executor: tx })
    await enqueueRenderedMail(mail, tx)
  })
  logger.info({ userId, actorId, writing }, 'Account deleted')
  return true
}
