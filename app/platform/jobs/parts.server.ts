import type { Parts } from '~/platform/parts.server'
import { housekeepingJob, scheduleHousekeeping } from './housekeeping.server'
import { jobsData } from './member-data.server'

export const jobsParts: Parts = { memberData: jobsData, jobs: [housekeepingJob], schedules: [scheduleHousekeeping] }
