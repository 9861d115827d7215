import { sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { jobs } from './schema'

/**
 * Work queued for or about the member (e-mails to them, rendered with their name; reminders,
 * exports and digests by their id), whatever its state: nobody is left to do it for, and a failed
 * e-mail is otherwise kept for the operator. A job running now finishes and finds no row to update.
 */
export const jobsData: MemberDataPart = {
  tables: {},
  async erase(tx, { id, email }) {
    await tx.execute(sql`delete from ${jobs} where strpos(payload::text, ${id}) > 0 or strpos(coalesce(dedupe_key, ''), ${id}) > 0
      or lower(payload->>'to') = ${email} or lower(payload->>'email') = ${email}`)
  },
}
