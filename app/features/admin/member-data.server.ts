import { sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'

/** The days they used the community, which the console counts. */
export const adminData: MemberDataPart = {
  tables: { member_activity_days: { section: 'dias_de_actividad' } },
  sections: { dias_de_actividad: (id) => sql`select day from member_activity_days where user_id = ${id} order by day` },
}
