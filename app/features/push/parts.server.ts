import type { Parts } from '~/platform/parts.server'
import { pushDeliveryJob } from './delivery.server'
import { pushData } from './member-data.server'
import { pushBroadcastJob } from './queue.server'

export const pushParts: Parts = {
  memberData: pushData,
  jobs: [pushDeliveryJob, pushBroadcastJob],
}
