import type { Parts } from '~/platform/parts.server'
import { unreadMessagesEmailJob } from './email.server'
import { messagesData } from './member-data.server'
import { messagesSettings } from './settings.server'

export const messagesParts: Parts = { memberData: messagesData, jobs: [unreadMessagesEmailJob], settings: messagesSettings }
