import type { Parts } from '~/platform/parts.server'
import { expireUploadsJob, processLocalVideoJob, scheduleUploadExpiry } from './local-video.server'
import { ceoSessionsData } from './member-data.server'
import { reconcileMuxJob, scheduleMuxReconciliation } from './mux.server'
import { ceoSessionsSearch } from './search.server'

export const ceoSessionsParts: Parts = {
  memberData: ceoSessionsData,
  jobs: [processLocalVideoJob, expireUploadsJob, reconcileMuxJob],
  schedules: [scheduleMuxReconciliation, scheduleUploadExpiry],
  search: ceoSessionsSearch,
}
