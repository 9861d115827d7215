import type { Parts } from '~/platform/parts.server'
import { rateLimitData } from './member-data.server'

export const rateLimitParts: Parts = { memberData: rateLimitData }
