import type { Parts } from '~/platform/parts.server'
import { sendMailJob } from './mail.server'

export const mailParts: Parts = { jobs: [sendMailJob] }
