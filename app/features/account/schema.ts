import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { user, userIdColumn } from '../../platform/auth/schema'
import { REQUIRED_PROFILE_FIELDS } from './profile-completeness'

/** Spanish accents folded away, in both cases, so folding does not depend on the server's locale. */
export const ACCENTED = 'áàâäãéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ'
export const PLAIN = 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc'

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userIdColumn().unique(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    displayName: text('display_name'),
    bio: text('bio'),
    company: text('company'),
    position: text('position'),
    avatarUrl: text('avatar_url'),
    isPremium: boolean('is_premium').notNull().default(false),
    // Where premium came from: a paid subscription (manageable in the billing portal) or an admin.
    premiumSource: text('premium_source', { enum: ['subscription', 'admin'] }),
    stripeCustomerId: text('stripe_customer_id').unique(),
    emailNotifications: boolean('email_notifications').notNull().default(true),
    // The bell's count, kept by a trigger on notifications (migration 0008), so no page counts.
    unreadNotifications: integer('unread_notifications').notNull().default(0),
    // The top bar's unread messages, kept by the messages feature in the transactions that change it.
    unreadMessages: integer('unread_messages').notNull().default(0),
    // Set in the same statement that queues the welcome e-mail, so it is sent once.
    welcomedAt: timestamp('welcomed_at', { withTimezone: true }),
    // Moderation (issue 28): read-only until this moment, with the reason the member is shown;
    // expelled (cannot sign in) since `banned_at`.
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    // Privacy in the directory (issue 28): listed or not; company and position shown to other members or not.
    listedInDirectory: boolean('listed_in_directory').notNull().default(true),
    showsWork: boolean('shows_work').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => sql`now()`),
    // The member directory's needs, kept by PostgreSQL itself so a search of 10,000 members reads
    // precomputed text instead of folding five columns of every row on every request.
    /** Spec 001 §5: complete (and listed) with photo, first and last name, company and position: the one field list. */
    isComplete: boolean('is_complete').generatedAlwaysAs(
      sql.raw(
        REQUIRED_PROFILE_FIELDS.map(
          ({ key }) => `coalesce(trim(${key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}), '') <> ''`,
        ).join(' and '),
      ),
    ),
    /** Name, company and position, lower-cased without accents, for accent- and case-blind search. */
    directorySearch: text('directory_search').generatedAlwaysAs(
      sql.raw(
        `translate(lower(${['display_name', 'first_name', 'last_name', 'company', 'position'].map((column) => `coalesce(${column}, '')`).join(` || ' ' || `)}), '${ACCENTED}', '${PLAIN}')`,
      ),
    ),
  },
  (table) => [
    index('profiles_directory_idx')
      .on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`is_complete`),
    // Every member newest first (the console's members table and its CSV export's keyset).
    index('profiles_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The moderation queue lists the accounts under a suspension or an expulsion, a handful.
    index('profiles_restricted_idx')
      .on(table.userId)
      .where(sql`suspended_until is not null or banned_at is not null`),
  ],
)

/** What a member's name is made of (displayName() makes it). */
export const nameColumns = { firstName: profiles.firstName, lastName: profiles.lastName, displayName: profiles.displayName }

/** What other members see of a member next to what they did: the name and the photo. */
export const publicProfileColumns = { ...nameColumns, avatarUrl: profiles.avatarUrl }

/** Whom an e-mail goes to: the address, and the first name its greeting uses (user and profiles joined). */
export const recipientColumns = { email: user.email, firstName: profiles.firstName }

/**
 * The browsers and systems a member has signed in from ('Chrome en Windows'), so a sign-in from one
 * not seen before is e-mailed to them (security.server.ts). Not the sessions: those end at sign-out.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: userIdColumn(),
    device: text('device').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.device] })],
)
