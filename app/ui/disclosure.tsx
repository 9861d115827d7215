import type { ReactNode } from 'react'
import { Button } from './button'
import { cn } from './cn'

/**
 * A native <details> disclosure: opens and closes with no JavaScript at all. The feed uses it
 * for what a dialog or a toggle does once the page is interactive (confirm a deletion, edit,
 * reply), so those forms also work before hydration or without scripts.
 */
export function Disclosure({
  summary,
  summaryClassName,
  className,
  children,
}: {
  summary: ReactNode
  summaryClassName?: string
  className?: string
  children: ReactNode
}) {
  return (
    <details className={cn('group', className)}>
      <summary className={cn('cursor-pointer list-none [&::-webkit-details-marker]:hidden', summaryClassName)}>{summary}</summary>
      <div className="mt-2">{children}</div>
    </details>
  )
}

/** A disclosure that opens onto a plain form posting to `action`, ended by its submit button. */
export function DisclosureForm({
  summary,
  summaryClassName,
  className,
  action,
  submitLabel,
  destructive = false,
  children,
}: {
  summary: ReactNode
  summaryClassName?: string
  className?: string
  action: string
  submitLabel: string
  destructive?: boolean
  children: ReactNode
}) {
  return (
    <Disclosure summary={summary} summaryClassName={summaryClassName} className={className}>
      <form method="post" action={action} className="grid gap-2 rounded-md border bg-background p-2 text-sm">
        {children}
        <Button type="submit" size="sm" variant={destructive ? 'destructive' : 'default'}>
          {submitLabel}
        </Button>
      </form>
    </Disclosure>
  )
}
