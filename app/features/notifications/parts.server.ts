import type { Parts } from '~/platform/parts.server'
import { activityEmailJob } from './activity-email.server'
import { digestJob, scheduleDigests } from './digest.server'
import { notificationsData } from './member-data.server'

export const notificationsParts: Parts = {
  memberData: notificationsData,
  jobs: [activityEmailJob, digestJob],
  schedules: [scheduleDigests],
}
