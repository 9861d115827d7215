import { accountParts } from '~/features/account/parts.server'
import { adminParts } from '~/features/admin/parts.server'
import { admissionParts } from '~/features/admission/parts.server'
import { billingParts } from '~/features/billing/parts.server'
import { ceoSessionsParts } from '~/features/ceo-sessions/parts.server'
import { communityParts } from '~/features/community/parts.server'
import { eventsParts } from '~/features/events/parts.server'
import { feedParts } from '~/features/feed/parts.server'
import { membersParts } from '~/features/members/parts.server'
import { messagesParts } from '~/features/messages/parts.server'
import { moderationParts } from '~/features/moderation/parts.server'
import { notificationsParts } from '~/features/notifications/parts.server'
import { pushParts } from '~/features/push/parts.server'
import { searchParts } from '~/features/search/parts.server'
import { auditParts } from '~/platform/audit/parts.server'
import { jobsParts } from '~/platform/jobs/parts.server'
import { mailParts } from '~/platform/mail/parts.server'
import { registerParts } from '~/platform/parts.server'
import { rateLimitParts } from '~/platform/rate-limit/parts.server'

// What every feature and platform module declares (decisions/0011), collected once. Imported by
// server/app.ts (so every process, the command-line tasks included, knows every job) and by the
// test setup; no feature imports it. The order is the data export's sections, the console's
// entries and the settings' cards; the queue's member data comes after the account's, which reads
// the stored exports from it before it is cleared.
registerParts([
  accountParts,
  membersParts,
  feedParts,
  ceoSessionsParts,
  eventsParts,
  notificationsParts,
  pushParts,
  billingParts,
  adminParts,
  admissionParts,
  communityParts,
  messagesParts,
  moderationParts,
  searchParts,
  auditParts,
  jobsParts,
  mailParts,
  rateLimitParts,
])
