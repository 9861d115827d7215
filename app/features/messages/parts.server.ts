import type { Parts } from '~/platform/parts.server'
import { messagesData } from './member-data.server'
import { messagesSettings } from './settings.server'

export const messagesParts: Parts = { memberData: messagesData, settings: messagesSettings }
