import type { Parts } from '~/platform/parts.server'
import { membersData } from './member-data.server'

export const membersParts: Parts = { memberData: membersData }
