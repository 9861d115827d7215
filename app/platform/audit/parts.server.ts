import type { Parts } from '~/platform/parts.server'
import { auditData } from './member-data.server'

export const auditParts: Parts = { memberData: auditData }
