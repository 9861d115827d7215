import type { Parts } from '~/platform/parts.server'
import { moderationData } from './member-data.server'

export const moderationParts: Parts = {
  memberData: moderationData,
  // The queue is the console of moderators too (decisions/0029).
  console: [{ path: '/admin/moderacion', label: 'Moderación', moderators: true }],
}
