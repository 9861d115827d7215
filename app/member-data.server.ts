import { accountData } from '~/features/account/member-data.server'
import { adminData } from '~/features/admin/member-data.server'
import { admissionData } from '~/features/admission/member-data.server'
import { billingData } from '~/features/billing/member-data.server'
import { ceoSessionsData } from '~/features/ceo-sessions/member-data.server'
import { eventsData } from '~/features/events/member-data.server'
import { feedData } from '~/features/feed/member-data.server'
import { membersData } from '~/features/members/member-data.server'
import { moderationData } from '~/features/moderation/member-data.server'
import { notificationsData } from '~/features/notifications/member-data.server'
import { auditData } from '~/platform/audit/member-data.server'
import { jobsData } from '~/platform/jobs/member-data.server'
import { rateLimitData } from '~/platform/rate-limit/member-data.server'
import { registerMemberData } from '~/platform/privacy/member-data'

// What every feature holds of a member (decisions/0028), in the export's order. Imported by
// server/app.ts and the test setup; no feature imports it. The queue's part comes after the
// account's, which reads the stored exports from it before it is cleared.
registerMemberData([
  accountData,
  membersData,
  feedData,
  ceoSessionsData,
  eventsData,
  notificationsData,
  billingData,
  adminData,
  admissionData,
  moderationData,
  auditData,
  jobsData,
  rateLimitData,
])
