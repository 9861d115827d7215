import type { Parts } from '~/platform/parts.server'
import { billingData, cancelSubscriptionsJob } from './member-data.server'
import { paymentMailJob } from './payment-mail.server'

export const billingParts: Parts = {
  memberData: billingData,
  jobs: [cancelSubscriptionsJob, paymentMailJob],
  console: [{ path: '/admin/codigos', label: 'Códigos' }],
}
