import { eq } from 'drizzle-orm'
import { getDb } from '~/platform/db/client.server'
import { profiles } from '~/features/account/schema'
import { userRoles } from '~/platform/auth/schema'
import { createConfirmedUser } from './requests'

export async function completeProfile(userId: string, extra: Partial<typeof profiles.$inferInsert> = {}) {
  await getDb()
    .update(profiles)
    .set({ avatarUrl: '/uploads/avatars/x/a.webp', company: 'Laboratorios Uno', position: 'Directora Médica', ...extra })
    .where(eq(profiles.userId, userId))
}

export type Persona = 'anonymous' | 'member' | 'premium' | 'moderator' | 'admin'

/** A signed-in user of each kind, with a complete profile (anonymous has no cookie). */
export async function createPersona(persona: Persona, names: { firstName?: string; lastName?: string } = {}) {
  if (persona === 'anonymous') return { cookie: undefined, userId: undefined, email: undefined }
  const account = await createConfirmedUser(names)
  await completeProfile(account.userId, { isPremium: persona === 'premium' })
  if (persona === 'moderator' || persona === 'admin') {
    await getDb().insert(userRoles).values({ userId: account.userId, role: persona })
  }
  return account
}

export type People = Record<Persona, Awaited<ReturnType<typeof createPersona>>>

/** One user of each kind, for an authorization matrix. */
export async function createPeople(): Promise<People> {
  const people = {} as People
  for (const persona of ['anonymous', 'member', 'premium', 'moderator', 'admin'] as const) people[persona] = await createPersona(persona)
  return people
}
