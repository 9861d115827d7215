import type { SubmissionResult } from '@conform-to/react'

/** A message for the member: a toast's title and description, or a form's error line. */
export interface Message {
  title: string
  description?: string
  /** The toast's look; by default a success's message is a success and a failure's an error. */
  type?: 'success' | 'error' | 'info'
}

/**
 * What every action returns to the form or fetcher that posted it (docs/decisions/0012).
 * A success may carry a message (shown as a toast) and what the page needs to update in
 * place; a failure always carries a fixed Spanish message and, for a form with fields,
 * Conform's submission result (field errors, and the values to show again without JavaScript).
 */
export type Result<T extends object = object> = ({ ok: true; message?: Message } & T) | Failure

export interface Failure {
  ok: false
  message: Message
  submission?: SubmissionResult<string[]>
}

/** The submission of a failed result, for Conform's `lastResult`. */
export function failedSubmission(result: Result | undefined) {
  return result && !result.ok ? result.submission : undefined
}

/**
 * A form's error line: Conform's form-level errors, or the failure's message when the failure
 * is not about one field (wrong password, too many attempts).
 */
export function formErrors(errors: string[] | undefined, failure: Failure | undefined) {
  if (errors?.length) return errors
  const fieldErrors = Object.entries(failure?.submission?.error ?? {}).some(([name, list]) => name !== '' && list?.length)
  return failure && !fieldErrors ? [failure.message.title] : undefined
}
