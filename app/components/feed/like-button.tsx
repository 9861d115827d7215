import { Heart } from 'lucide-react'
import { useFetcher } from 'react-router'
import { cn } from '~/utils/cn'
import { usePremiumGate } from './premium-required-dialog'
import type { FeedActionData } from './types'
import { useActionToast } from './use-action-toast'

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
  size = 'md',
}: {
  target: 'post' | 'comment'
  id: string
  liked: boolean
  count: number
  size?: 'sm' | 'md'
}) {
  const fetcher = useFetcher<FeedActionData>()
  const { hasAccess, ask } = usePremiumGate()
  useActionToast(fetcher.state, fetcher.data, { quietSuccess: true })
  const settledLiked = fetcher.data?.ok ? (fetcher.data.liked ?? initiallyLiked) : initiallyLiked
  const settledCount = fetcher.data?.ok ? (fetcher.data.likeCount ?? count) : count
  const pending = fetcher.formData ? !settledLiked : null
  const liked = pending ?? settledLiked
  const shownCount = Math.max(0, pending === null ? settledCount : settledCount + (pending ? 1 : -1))
  return (
    <fetcher.Form
      method="post"
      action="/comunidad"
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
