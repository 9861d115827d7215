import type { Parts } from '~/platform/parts.server'
import { feedData } from './member-data.server'
import { feedSearch } from './search.server'

export const feedParts: Parts = { memberData: feedData, search: feedSearch }
