import type { Parts } from '~/platform/parts.server'
import { feedData } from './member-data.server'

export const feedParts: Parts = { memberData: feedData }
