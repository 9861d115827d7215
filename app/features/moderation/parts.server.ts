import type { Parts } from '~/platform/parts.server'
import { moderationData } from './member-data.server'
import { countOpenReports } from './open-reports.server'

export const moderationParts: Parts = {
  memberData: moderationData,
  // The queue is the console of moderators too (decisions/0029).
  console: [{ path: '/admin/moderacion', label: 'Moderación', moderators: true }],
  // What waits for a moderator, for the operator's alerts (decisions/0036).
  gauges: [{ name: 'circulo_open_reports', help: 'Reports waiting for a moderator', read: () => countOpenReports() }],
}
