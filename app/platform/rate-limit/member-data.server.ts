import { sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { rateLimits } from './schema'

/** Windows keyed by their id or e-mail ('delete-account:<id>', 'admission:email:<e-mail>') go with them. */
export const rateLimitData: MemberDataPart = {
  tables: {},
  async erase(tx, { id, email }) {
    await tx.execute(sql`delete from ${rateLimits} where strpos(key, ${id}) > 0 or right(lower(key), ${email.length + 1}) = ${`:${email}`}`)
  },
}
