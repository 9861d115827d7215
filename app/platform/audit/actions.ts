/** Every kind of line the audit log holds (the console's filter lists them). */
export const AUDIT_ACTIONS = [
  'sign_in_failed',
  'role_granted',
  'role_removed',
  'premium_granted',
  'premium_removed',
  'avatar_rejected',
  'settings_changed',
  'members_exported',
  'job_retried',
  'job_discarded',
  'post_deleted',
  'comment_deleted',
  'session_deleted',
  'event_deleted',
  'admission_approved',
  'admission_rejected',
  'admission_waitlisted',
  'admission_info_requested',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_code_used',
  'account_deleted',
  'member_data_exported',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]
