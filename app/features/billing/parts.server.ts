import type { Parts } from '~/platform/parts.server'
import { billingData, cancelSubscriptionsJob } from './member-data.server'

export const billingParts: Parts = { memberData: billingData, jobs: [cancelSubscriptionsJob] }
