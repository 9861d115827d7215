import type { Parts } from '~/platform/parts.server'
import { membersData } from './member-data.server'
import { membersSearch } from './search.server'

export const membersParts: Parts = { memberData: membersData, search: membersSearch }
