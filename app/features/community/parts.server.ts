import type { Parts } from '~/platform/parts.server'
import { communitySettings } from './settings.server'

export const communityParts: Parts = { settings: communitySettings }
