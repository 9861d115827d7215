import type { Parts } from '~/platform/parts.server'
import { eventsData } from './member-data.server'
import { reminderJob } from './reminders.server'

export const eventsParts: Parts = { memberData: eventsData, jobs: [reminderJob] }
