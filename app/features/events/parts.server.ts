import type { Parts } from '~/platform/parts.server'
import { eventsData } from './member-data.server'
import { reminderJob } from './reminders.server'
import { eventsSearch } from './search.server'

export const eventsParts: Parts = { memberData: eventsData, jobs: [reminderJob], search: eventsSearch }
