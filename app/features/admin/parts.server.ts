import type { Parts } from '~/platform/parts.server'
import { moveCommentWindowsJob, scheduleCommentWindows } from './dashboard.server'
import { adminData } from './member-data.server'

export const adminParts: Parts = { memberData: adminData, jobs: [moveCommentWindowsJob], schedules: [scheduleCommentWindows] }
