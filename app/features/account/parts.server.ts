import type { Parts } from '~/platform/parts.server'
import { deletionFilesJob } from './account-deletion.server'
import { dataExportJob, expireExportJob } from './data-export.server'
import { accountData } from './member-data.server'
import { passwordResetJob } from './password-reset.server'

export const accountParts: Parts = {
  memberData: accountData,
  jobs: [passwordResetJob, dataExportJob, expireExportJob, deletionFilesJob],
}
