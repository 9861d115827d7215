import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/platform/db/client.server'
import { jobs } from '~/platform/jobs/schema'
import { profiles } from './schema'
import { user, userRoles } from '~/platform/auth/schema'
import { changeRole } from '~/features/members/roles.server'
import { onConfirmedSignIn } from './profile.server'
import { concurrencyTest, useTestDatabase } from '../../../tests/setup/database'

useTestDatabase()

async function insertUser(fields: { firstName?: string | null; lastName?: string | null; emailVerified?: boolean }) {
  const id = crypto.randomUUID()
  await getDb()
    .insert(user)
    .values({
      id,
      name: 'x',
      email: `${id}@example.com`,
      emailVerified: fields.emailVerified ?? true,
      firstName: fields.firstName,
      lastName: fields.lastName,
    })
  return id
}

const profileOf = async (userId: string) => (await getDb().select().from(profiles).where(eq(profiles.userId, userId)))[0]
/** The welcome e-mail is a queued `mail.send` job whose dedupe key names the member. */
const welcomesOf = async (userId: string) =>
  (
    await getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `mail.send:welcome:${userId}`))
  ).map((job) => ({
    name: job.name,
    ...(job.payload as { to: string; subject: string; html: string; text: string }),
  }))

describe('profile sync after the first confirmed sign-in', () => {
  test('inserts a missing profile from the sign-up names, trimmed', async () => {
    const userId = await insertUser({ firstName: '  Elena ', lastName: ' Soto  ' })
    await onConfirmedSignIn(userId)
    expect(await profileOf(userId)).toMatchObject({ firstName: 'Elena', lastName: 'Soto', isPremium: false })
  })

  test('does nothing for an unconfirmed e-mail', async () => {
    const userId = await insertUser({ firstName: 'Eva', emailVerified: false })
    await onConfirmedSignIn(userId)
    expect(await profileOf(userId)).toBeUndefined()
    expect(await welcomesOf(userId)).toHaveLength(0)
  })

  test('fills only a missing name and never overwrites one the member set', async () => {
    const userId = await insertUser({ firstName: 'Original', lastName: 'Apellido' })
    await getDb().insert(profiles).values({ userId, firstName: 'Editado', lastName: '  ' })
    await onConfirmedSignIn(userId)
    expect(await profileOf(userId)).toMatchObject({ firstName: 'Editado', lastName: 'Apellido' })
  })

  test('blank sign-up names are stored as null, not as empty text', async () => {
    const userId = await insertUser({ firstName: '   ', lastName: null })
    await onConfirmedSignIn(userId)
    expect(await profileOf(userId)).toMatchObject({ firstName: null, lastName: null })
  })

  concurrencyTest('queues the welcome e-mail exactly once, even when sign-ins race', async () => {
    const userId = await insertUser({ firstName: 'Iris', lastName: 'Paz' })
    await Promise.all([onConfirmedSignIn(userId), onConfirmedSignIn(userId), onConfirmedSignIn(userId)])
    await onConfirmedSignIn(userId)
    const welcomes = await welcomesOf(userId)
    expect(welcomes).toHaveLength(1)
    expect(welcomes[0]).toMatchObject({ name: 'mail.send', to: `${userId}@example.com`, subject: '¡Bienvenido a la comunidad!' })
    expect(welcomes[0]!.html).toContain('Iris')
    expect(welcomes[0]!.text).toContain('http://localhost:3000/perfil')
    expect((await profileOf(userId))!.welcomedAt).toBeInstanceOf(Date)
  })
})

describe('ADMIN_EMAILS bootstraps an admin once', () => {
  const withAdminEmails = async (emails: string, run: () => Promise<void>) => {
    const { getEnv, setEnv } = await import('~/platform/env.server')
    const previous = getEnv()
    setEnv({ ...previous, ADMIN_EMAILS: emails.split(',') })
    try {
      await run()
    } finally {
      setEnv(previous)
    }
  }
  const isAdmin = async (userId: string) =>
    (await getDb().select().from(userRoles).where(eq(userRoles.userId, userId))).some((row) => row.role === 'admin')

  test('the listed account becomes admin at its confirmed sign-in, and a removal by an admin sticks', async () => {
    const userId = await insertUser({ firstName: 'Olga' })
    const [account] = await getDb().select({ email: user.email }).from(user).where(eq(user.id, userId))
    await withAdminEmails(account!.email, async () => {
      await onConfirmedSignIn(userId)
      expect(await isAdmin(userId)).toBe(true)
      const other = await insertUser({ firstName: 'Raúl' })
      await getDb().insert(userRoles).values({ userId: other, role: 'admin' })
      await changeRole({ actorId: other, targetId: userId, role: 'admin', grant: false })
      await onConfirmedSignIn(userId)
      expect(await isAdmin(userId)).toBe(false)
    })
  })
})
