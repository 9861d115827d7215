import { sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { exportKeysOf } from './data-export.server'

/** The stored key of a profile's photo (`/uploads/<key>?v=…`). */
const avatarKey = sql`split_part(substring(avatar_url from '^/uploads/([^?]+)'), '?', 1)`

/** The account, the profile and the devices: the member's own, but for the sign-in's secrets. */
export const accountData: MemberDataPart = {
  tables: {
    user: { section: 'cuenta' },
    profiles: { section: 'perfil' },
    session: { section: 'dispositivos_con_sesion' },
    known_devices: { section: 'dispositivos_conocidos' },
    passkey: { section: 'llaves_de_acceso' },
    account: { not: "the password's hash: a secret of the sign-in, not data about the member" },
    two_factor: { not: 'the two-factor secret and recovery codes, encrypted: secrets (the export says whether it is on)' },
  },
  sections: {
    cuenta: (id) =>
      sql`select id, name, email, email_verified, first_name, last_name, two_factor_enabled, created_at, updated_at from "user" where id = ${id}`,
    perfil: (id) => sql`select first_name, last_name, display_name, bio, company, position, avatar_url, is_premium, premium_source,
      stripe_customer_id, email_notifications, listed_in_directory, shows_work, welcomed_at, suspended_until, suspension_reason, banned_at,
      created_at, updated_at from profiles where user_id = ${id}`,
    dispositivos_con_sesion: (id) =>
      sql`select created_at, updated_at, expires_at, ip_address, user_agent from session where user_id = ${id}`,
    llaves_de_acceso: (id) => sql`select name, device_type, backed_up, transports, created_at from passkey where user_id = ${id}`,
    dispositivos_conocidos: (id) => sql`select device, first_seen_at, last_seen_at from known_devices where user_id = ${id}`,
  },
  files: (id) =>
    sql`select ${avatarKey} as key, 'foto-de-perfil.webp' as name from profiles where user_id = ${id} and avatar_url like '/uploads/%'`,
  // Their photo and the data exports still stored go once the account has.
  async erase(tx, member) {
    const result = await tx.execute(
      sql`select ${avatarKey} as key from profiles where user_id = ${member.id} and avatar_url like '/uploads/%'`,
    )
    const photos = (result as unknown as { rows: Array<{ key: string }> }).rows.map((row) => row.key)
    return { remove: [...photos, ...(await exportKeysOf(member.id, tx)).map((file) => file.key)] }
  },
}
