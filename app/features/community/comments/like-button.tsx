import { Heart } from 'lucide-react'
import { useMemo } from 'react'
import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { cn } from '~/ui/cn'
import { useResultToast } from '~/ui/toast'
import { usePremiumGate } from '../components/premium-gate'

/** What a like answers: the new state and count. */
type LikeResult = Result<{ liked?: boolean; likeCount?: number }>

/**
 * The like toggle of a post, a comment or a session: posts `intent` with `field`=`id` to `action`. Optimistic: the heart and the count follow the
 * click at once (never below 0), then settle on the server's answer. Without access the
 * premium modal opens instead; the server refuses anyway.
 */
export function LikeButton({
  action,
  intent,
  field,
  id,
  liked: initiallyLiked,
  count,
  countAt = 0,
  size = 'md',
}: {
  action: string
  intent: string
  field: string
  id: string
  liked: boolean
  count: number
  /** When `count` came from the live stream: newer than this button's own answer, it wins. */
  countAt?: number
  size?: 'sm' | 'md'
}) {
  const fetcher = useFetcher<LikeResult>()
  const { hasAccess, ask } = usePremiumGate()
  useResultToast(fetcher.state, fetcher.data)
  const answer = fetcher.data?.ok ? fetcher.data : undefined
  const answeredAt = useMemo(() => (fetcher.data ? Date.now() : 0), [fetcher.data])
  const settledLiked = answer?.liked ?? initiallyLiked
  const settledCount = answer?.likeCount !== undefined && answeredAt >= countAt ? answer.likeCount : count
  const pending = fetcher.formData ? !settledLiked : null
  const liked = pending ?? settledLiked
  const shownCount = Math.max(0, pending === null ? settledCount : settledCount + (pending ? 1 : -1))
  return (
    <fetcher.Form
      method="post"
      action={action}
      onSubmit={(event) => {
        if (!hasAccess) {
          event.preventDefault()
          ask()
        }
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={field} value={id} />
      <button
        type="submit"
        aria-pressed={liked}
        className={cn(
          'inline-flex items-center rounded-md hover:bg-accent',
          size === 'md' ? 'gap-1.5 px-2.5 py-1.5' : 'gap-1 px-2 py-1',
          liked && 'text-rose-700',
        )}
      >
        <Heart className={cn(size === 'md' ? 'size-4' : 'size-3.5', liked && 'fill-current')} aria-hidden />
        <span className="tabular-nums">{shownCount}</span>
        <span className="sr-only">{liked ? 'Quitar me gusta' : 'Me gusta'}</span>
      </button>
    </fetcher.Form>
  )
}
