import { and, eq, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { moderationDecisions, moderationReports } from './schema'

export const moderationData: MemberDataPart = {
  tables: {
    moderation_reports: { section: 'informes_enviados' },
    moderation_decisions: { section: 'decisiones_de_moderacion' },
  },
  sections: {
    // What they reported; a member they reported is not named (their id is that member's).
    informes_enviados: (id) => sql`select kind, case when kind = 'member' then null else item_id end as item_id, reason, note, status,
      created_at, closed_at from ${moderationReports} where user_id = ${id} order by created_at`,
    // What was decided about their writing and their account, and why; never who decided.
    decisiones_de_moderacion: (id) =>
      sql`select kind, item_id, action, reason, created_at from ${moderationDecisions} where user_id = ${id} order by created_at`,
  },
  async erase(tx, { id }) {
    // The moderators' 'Perfil de <name>' and the reporters' 'Sobre el perfil de <name>' go with the account (subject_user_id).
    // Reports about them and decisions on their account name them as the item (decisions on what they wrote stay, about nobody).
    for (const table of [moderationReports, moderationDecisions]) {
      await tx.delete(table).where(and(eq(table.kind, 'member'), eq(table.itemId, id)))
    }
  },
}
