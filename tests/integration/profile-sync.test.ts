import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '~/db/client.server'
import { mailOutbox, profiles, user } from '~/db/schema'
import { onConfirmedSignIn } from '~/models/profile.server'
import { useTestDatabase } from '../setup/database'

useTestDatabase()

async function insertUser(fields: { firstName?: string | null; lastName?: string | null; emailVerified?: boolean }) {
  const id = crypto.randomUUID()
  await getDb()
    .insert(user)
    .values({ id, name: 'x', email: `${id}@example.com`, emailVerified: fields.emailVerified ?? true, firstName: fields.firstName, lastName: fields.lastName })
  return id
}

const profileOf = async (userId: string) => (await getDb().select().from(profiles).where(eq(profiles.userId, userId)))[0]
const welcomesOf = async (userId: string) =>
  getDb().select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, `welcome:${userId}`))

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

  test('queues the welcome e-mail exactly once, even when sign-ins race', async () => {
    const userId = await insertUser({ firstName: 'Iris', lastName: 'Paz' })
    await Promise.all([onConfirmedSignIn(userId), onConfirmedSignIn(userId), onConfirmedSignIn(userId)])
    await onConfirmedSignIn(userId)
    const welcomes = await welcomesOf(userId)
    expect(welcomes).toHaveLength(1)
    expect(welcomes[0]!.html).toContain('Iris')
    expect(welcomes[0]!.text).toContain('http://localhost:3000/perfil')
    expect((await profileOf(userId))!.welcomedAt).toBeInstanceOf(Date)
  })
})
