import type { ReactNode } from 'react'
import { cn } from '~/utils/cn'

/**
 * A native <details> disclosure: opens and closes with no JavaScript at all. The feed uses it
 * for what a dialog or a toggle does once the page is interactive (confirm a deletion, edit,
 * reply), so those forms also work before hydration or without scripts.
 */
export function Disclosure({ summary, summaryClassName, className, children }: { summary: ReactNode; summaryClassName?: string; className?: string; children: ReactNode }) {
  return (
    <details className={cn('group', className)}>
      <summary className={cn('cursor-pointer list-none [&::-webkit-details-marker]:hidden', summaryClassName)}>{summary}</summary>
      <div className="mt-2">{children}</div>
    </details>
  )
}
