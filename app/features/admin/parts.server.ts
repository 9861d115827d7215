import type { Parts } from '~/platform/parts.server'
import { adminData } from './member-data.server'

export const adminParts: Parts = { memberData: adminData }
