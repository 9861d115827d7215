// Every table, for drizzle-kit (migrations) and the database client. Each table is defined in
// the folder of the feature (or platform module) that owns it. Relative paths: drizzle-kit
// does not read the `~` alias.
export * from '../auth/schema'
export * from '../audit/schema'
export * from '../jobs/schema'
export * from '../rate-limit/schema'
export * from '../settings/schema'
export * from '../../features/account/schema'
export * from '../../features/admin/schema'
export * from '../../features/admission/schema'
export * from '../../features/billing/schema'
export * from '../../features/ceo-sessions/schema'
export * from '../../features/community/schema'
export * from '../../features/events/schema'
export * from '../../features/feed/schema'
export * from '../../features/moderation/schema'
export * from '../../features/notifications/schema'
export * from '../../features/search/schema'
