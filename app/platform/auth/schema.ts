import { relations } from 'drizzle-orm'
import { bigint, boolean, date, index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

// The tables better-auth's Drizzle adapter manages, written by hand after its documented
// core schema (its CLI needs Node 22). Property names are the adapter's field names.

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  // Names given at sign-up; the profile is filled from them after the first confirmed sign-in.
  firstName: text('first_name'),
  lastName: text('last_name'),
  /** better-auth's two-factor plugin: sign-in asks for a code from an authenticator app (decisions/0026). */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** The member a row belongs to: it goes when their account goes. */
export const userIdColumn = () =>
  text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' })

/**
 * The author of what a member wrote in a shared conversation (posts, comments): when the account is
 * deleted the writing may stay, under 'Miembro eliminado', with no link back to them (ADR 0028).
 */
export const authorIdColumn = () => text('user_id').references(() => user.id, { onDelete: 'set null' })

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: userIdColumn(),
    /**
     * This sign-in passed the second factor (decisions/0026): the code step, a recovery code, a
     * trusted browser, the code that turned two-factor on, a passkey with fingerprint or PIN.
     * Admin rights need it once two-factor is on. Set when the session is made, never changed.
     */
    twoFactorPassed: boolean('two_factor_passed').notNull().default(false),
  },
  (table) => [index('session_user_id_idx').on(table.userId)],
)

// A session is read with its user in one statement (better-auth's `advanced.database.joins`).
export const sessionRelations = relations(session, ({ one }) => ({ user: one(user, { fields: [session.userId], references: [user.id] }) }))
export const userRelations = relations(user, ({ many }) => ({ sessions: many(session), accounts: many(account) }))

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: userIdColumn(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('account_user_id_idx').on(table.userId)],
)

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('verification_identifier_idx').on(table.identifier)],
)

// Shared by better-auth's limiter (its own endpoints) and ours (the app's forms), so
// limits hold across restarts and across processes.
export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
})

// Roles decide what a signed-in user may do (capabilities.ts).
export const roleEnum = pgEnum('app_role', ['admin', 'moderator', 'user'])

export const userRoles = pgTable(
  'user_roles',
  {
    userId: userIdColumn(),
    role: roleEnum('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.role] })],
)

export type Role = (typeof roleEnum.enumValues)[number]

export const accountRelations = relations(account, ({ one }) => ({ user: one(user, { fields: [account.userId], references: [user.id] }) }))

/**
 * The days each member used the community signed in (activity.server: at most one write per
 * member and day per process). The console's 'active members' are read from here by day, never
 * by scanning what members wrote.
 */
export const memberActivityDays = pgTable(
  'member_activity_days',
  {
    day: date('day').notNull(),
    userId: userIdColumn(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.userId] }),
    // A member's other days, for the triggers that keep the console's active members (migration 0045).
    index('member_activity_days_user_idx').on(table.userId, table.day),
  ],
)

/** better-auth's two-factor plugin: the TOTP secret and the recovery codes, encrypted with the app's secret. */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: userIdColumn(),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The last 30-second period whose code was accepted: a code works once, and never an earlier one (ours, not better-auth's). */
    lastTotpStep: integer('last_totp_step'),
  },
  (table) => [index('two_factor_user_id_idx').on(table.userId), index('two_factor_secret_idx').on(table.secret)],
)

/** better-auth's passkey plugin: a member's passkeys (WebAuthn public keys), a second way to sign in (decisions/0026). */
export const passkey = pgTable(
  'passkey',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: userIdColumn(),
    credentialID: text('credential_id').notNull().unique(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    transports: text('transports'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
    aaguid: text('aaguid'),
  },
  (table) => [index('passkey_user_id_idx').on(table.userId)],
)
