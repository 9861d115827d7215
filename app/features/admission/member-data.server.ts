import { eq, or, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { admissionApplications, admissionEvents } from './schema'

/** Their applications: the one their invitation was used by, and any sent from their e-mail. */
const theirs = (id: string) =>
  sql`(select id from ${admissionApplications} where user_id = ${id} or email = (select lower(email) from "user" where id = ${id}))`

export const admissionData: MemberDataPart = {
  tables: {
    admission_applications: { section: 'solicitudes_de_admision' },
    admission_events: { section: 'solicitudes_de_admision_historial' },
  },
  sections: {
    solicitudes_de_admision: (id) => sql`select id, email, first_name, last_name, phone, linkedin_url, company, position, sector,
      years_experience, target_role, contribution, expectations, referral, status, created_at, updated_at, closed_at, invitation_used_at
      from ${admissionApplications} where id in ${theirs(id)} order by created_at`,
    // What they sent and what was decided or asked of them; the admins' internal notes and names are not theirs.
    solicitudes_de_admision_historial: (id) => sql`select application_id, kind, body, created_at from ${admissionEvents}
      where application_id in ${theirs(id)} and kind <> 'note' order by created_at`,
  },
  async erase(tx, { id, email }) {
    // The admins' 'Nueva solicitud de <name>' and '<name> ha respondido' go with the application (foreign key).
    await tx.delete(admissionApplications).where(or(eq(admissionApplications.userId, id), eq(admissionApplications.email, email)))
  },
}
