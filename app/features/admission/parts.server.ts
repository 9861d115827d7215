import type { Parts } from '~/platform/parts.server'
import { admissionRetentionJob, scheduleAdmissionRetention } from './admission.server'
import { admissionData } from './member-data.server'
import { admissionSettings } from './settings.server'

export const admissionParts: Parts = {
  memberData: admissionData,
  jobs: [admissionRetentionJob],
  schedules: [scheduleAdmissionRetention],
  settings: admissionSettings,
  console: [{ path: '/admin/admisiones', label: 'Admisiones' }],
}
