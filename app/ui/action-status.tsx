import type { Result } from '~/platform/http/result'
import { cn } from './cn'

/**
 * An action's result shown in the page: what a form posted without JavaScript gets back
 * (with JavaScript, fetchers show the same result as a toast).
 */
export function ActionStatus({ result }: { result: Result | undefined }) {
  if (!result?.message) return null
  const { title, description } = result.message
  return (
    <p
      role="status"
      className={cn(
        'rounded-md border px-3 py-2 text-sm',
        result.ok ? 'border-emerald-300 bg-emerald-50' : 'border-destructive/40 bg-destructive/10 text-destructive',
      )}
    >
      {title}
      {description ? ` — ${description}` : ''}
    </p>
  )
}
