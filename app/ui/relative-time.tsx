import type { ReactNode } from 'react'
import { fullDateTime, relativeTime } from '~/platform/dates'

/**
 * 'hace 5 minutos', with the full date and time on hover. The words depend on the moment they are
 * rendered, so the server's and the browser's may differ: React is told not to mind.
 */
export function RelativeTime({ date, className, children }: { date: string; className?: string; children?: ReactNode }) {
  return (
    <time dateTime={date} title={fullDateTime(date)} className={className} suppressHydrationWarning>
      {relativeTime(date)}
      {children}
    </time>
  )
}
