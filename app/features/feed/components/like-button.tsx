import { Heart } from 'lucide-react'
import { useMemo } from 'react'
import { useFetcher } from 'react-router'
import { usePremiumGate } from '~/features/community/components/premium-gate'
import { cn } from '~/ui/cn'
import { useResultToast } from '~/ui/toast'
import { FEED_ACTION, type FeedResult } from '../types'

/**
 * The like toggle of a post or a comment. Optimistic: the heart and the count follow the
 * click at once (never below 0), then settle on the server's answer. Without access the
 * premium modal opens instead; the server refuses anyway.
 */
export function LikeButton({
  target,
  id,
  liked: initiallyLiked,
  count,
  countAt = 0,
  size = 'md',
}: {
  target: 'post' | 'comment'
  id: string
  liked: boolean
  count: number
  /** When `count` came from the live stream: newer than this button's own answer, it wins. */
  countAt?: number
  size?: 'sm' | 'md'
}) {
  const fetcher = useFetcher<FeedResult>()
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
      action={FEED_ACTION}
      onSubmit={(event) => {
        if (!hasAccess) {
          event.preventDefault()
          ask()
        }
      }}
    >
      <input type="hidden" name="intent" value={target === 'post' ? 'like-post' : 'like-comment'} />
      <input type="hidden" name={target === 'post' ? 'postId' : 'commentId'} value={id} />
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
