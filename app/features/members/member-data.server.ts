import { sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'

export const membersData: MemberDataPart = {
  tables: { user_roles: { section: 'roles' } },
  sections: { roles: (id) => sql`select role, created_at from user_roles where user_id = ${id}` },
}
