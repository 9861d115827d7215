import { sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'

/**
 * A member's devices with push on (issue 42): which device and when, never the endpoint or keys
 * (a capability to write to that device, of no use in an export). They go with the account (the
 * user id's cascade).
 */
export const pushData: MemberDataPart = {
  tables: { push_subscriptions: { section: 'notificaciones_push' } },
  sections: {
    notificaciones_push: (id) => sql`select device_label, created_at, last_success_at, failing_since, failures
      from push_subscriptions where user_id = ${id} order by created_at`,
  },
}
